#if Cluster
/// Where a Redis listens, from the `redis://HOST:PORT` a user gives (`pairs serve --cluster`).
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// Redis's own default port, when the URL names none.
    public static let defaultPort = 6379

    public var host: String
    public var port: Int

    public init(host: String, port: Int = RedisEndpoint.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Reads `redis://HOST[:PORT]`; a bracketed IPv6 address (`redis://[::1]:6379`) works too. A user name,
    /// password, database number or path is refused rather than silently ignored.
    public init(url: String) throws(RedisEndpointError) {
        let scheme = "redis://"
        guard url.hasPrefix(scheme) else { throw .notRedisURL(url) }
        let rest = url.dropFirst(scheme.count)
        guard !rest.contains("@"), !rest.contains("/"), !rest.contains("?") else { throw .unsupportedPart(url) }
        let host: Substring, portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .badHost(url) }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.isEmpty { portText = nil } else if after.hasPrefix(":") { portText = after.dropFirst() } else { throw .badHost(url) }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
            portText = nil
        }
        guard !host.isEmpty, !host.contains(":") || rest.hasPrefix("[") else { throw .badHost(url) }
        var port = RedisEndpoint.defaultPort
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else { throw .badPort(url) }
            port = value
        }
        self.init(host: String(host), port: port)
    }

    public var description: String {
        host.contains(":") ? "redis://[\(host)]:\(port)" : "redis://\(host):\(port)"
    }
}

/// Why a `--cluster` URL cannot be used.
public enum RedisEndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    case notRedisURL(String)
    case unsupportedPart(String)
    case badHost(String)
    case badPort(String)

    public var description: String {
        switch self {
        case .notRedisURL(let url): "\(url) is not a redis://HOST:PORT URL"
        case .unsupportedPart(let url): "\(url): only redis://HOST:PORT is supported (no user, password, database or path)"
        case .badHost(let url): "\(url) names no host"
        case .badPort(let url): "\(url): the port must be a number from 1 to 65535"
        }
    }
}
#endif
