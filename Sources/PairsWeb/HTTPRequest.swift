/// A request as `HTTPRequestParser` read it: the request line and the header fields. There is never a body:
/// the parser refuses requests that announce one.
public struct HTTPRequest: Sendable, Hashable {
    public var method: HTTPMethod
    /// The request target as sent, starting with `/`: a path and maybe `?` and a query, still percent-encoded.
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders

    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:]) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// The target's path: everything before the first `?`. Routing looks at this alone, so `/?room=kitchen`
    /// is the page (the page reads its query itself).
    public var path: Substring {
        target.prefix { $0 != "?" }
    }

    /// The target's query: everything after the first `?`, or nil when there is no `?`.
    public var query: Substring? {
        target.firstIndex(of: "?").map { target[target.index(after: $0)...] }
    }
}
