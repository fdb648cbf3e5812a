/// The status codes this server sends (RFC 9110 §15, RFC 6455 §4.2.2 for 101, RFC 6585 for 431).
public enum HTTPStatus: Int, Sendable, Hashable {
    /// The WebSocket handshake succeeded.
    case switchingProtocols = 101
    case ok = 200
    /// The page the client has cached (its `If-None-Match`) is still current.
    case notModified = 304
    /// A request that is not HTTP/1 as this server reads it, or a WebSocket handshake that is not one.
    case badRequest = 400
    /// A WebSocket handshake from a page of another origin.
    case forbidden = 403
    case notFound = 404
    /// A method other than `GET` or `HEAD`.
    case methodNotAllowed = 405
    /// A request head that did not arrive within the server's time for it.
    case requestTimeout = 408
    /// A request with a body: this server reads none.
    case contentTooLarge = 413
    /// A request line longer than `HTTPRequestParser.maxRequestLineBytes`.
    case uriTooLong = 414
    /// A WebSocket handshake for a version other than 13.
    case upgradeRequired = 426
    /// A request head longer than `HTTPRequestParser.maxHeadBytes`.
    case requestHeaderFieldsTooLarge = 431

    /// The reason phrase of the status line, as the RFCs spell it.
    public var reasonPhrase: String {
        switch self {
        case .switchingProtocols: "Switching Protocols"
        case .ok: "OK"
        case .notModified: "Not Modified"
        case .badRequest: "Bad Request"
        case .forbidden: "Forbidden"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .requestTimeout: "Request Timeout"
        case .contentTooLarge: "Content Too Large"
        case .uriTooLong: "URI Too Long"
        case .upgradeRequired: "Upgrade Required"
        case .requestHeaderFieldsTooLarge: "Request Header Fields Too Large"
        }
    }
}
