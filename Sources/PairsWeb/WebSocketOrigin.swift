/// Which pages may open a WebSocket to the server (RFC 6455 §10.2, RFC 6454): a browser names the page's
/// origin in `Origin`, and a page may connect only when that origin is the server's own (the origin's host
/// and port are the request's `Host`) or one the operator allowed. A request without `Origin` comes from no
/// browser page (a bot, `websocat`) and is let in: only browsers can be tricked into connecting.
public enum WebSocketOrigin {
    /// Whether `request` comes from no page, the server's own page, or a page of one of `allowed` (origins
    /// as browsers send them, `http://host:port`, compared without regard to ASCII case).
    public static func isAllowed(_ request: HTTPRequest, alsoAllowing allowed: [String]) -> Bool {
        let origins = request.headers.values(named: "Origin")
        guard !origins.isEmpty else { return true }
        // More than one Origin is no browser's: refused, like a missing Host.
        guard origins.count == 1, let origin = origins.first?.lowercased() else { return false }
        if allowed.contains(where: { normalized($0) == origin }) { return true }
        guard let host = request.headers["Host"]?.lowercased(), let own = authority(ofOrigin: origin) else { return false }
        // The Host of a request a page made names the port only when it is not its scheme's default.
        return own == withPort(host, defaultPort: origin.hasPrefix("https://") ? 443 : 80)
    }

    /// An origin as given to `--allow-origin`, in the form browsers send: lower case, no trailing slash.
    public static func normalized(_ origin: String) -> String {
        var origin = origin.lowercased()
        while origin.hasSuffix("/") { origin.removeLast() }
        return origin
    }

    /// Whether `origin` is one `--allow-origin` can take: `http://` or `https://` and a host, nothing after.
    public static func isValid(_ origin: String) -> Bool {
        guard let authority = authority(ofOrigin: normalized(origin)) else { return false }
        return !authority.hasPrefix(":") && !authority.contains("/")
    }

    /// `host:port` of an `http` or `https` origin, with the scheme's default port when it names none; nil
    /// for anything else (`null`, `file://`).
    static func authority(ofOrigin origin: String) -> String? {
        for (scheme, port) in [("http://", 80), ("https://", 443)] where origin.hasPrefix(scheme) {
            let rest = String(origin.dropFirst(scheme.count))
            guard !rest.isEmpty else { return nil }
            return withPort(rest, defaultPort: port)
        }
        return nil
    }

    /// `host:port`, adding `defaultPort` when `authority` has none (an IPv6 host is in brackets).
    private static func withPort(_ authority: String, defaultPort: Int) -> String {
        let afterHost = authority.lastIndex(of: "]").map { authority[$0...] } ?? authority[...]
        return afterHost.contains(":") ? authority : "\(authority):\(defaultPort)"
    }
}
