/// Why a request to the WebSocket path is not a handshake this server accepts.
public enum WebSocketHandshakeError: Error, Sendable, Hashable {
    /// Not an HTTP/1.1 `GET` with `Upgrade: websocket` and `Connection: upgrade`: a plain request for the
    /// WebSocket path, such as a browser's address bar. 400.
    case notAnUpgradeRequest
    /// A `Sec-WebSocket-Version` other than 13, or none: the listed versions, as sent. 426, with
    /// `Sec-WebSocket-Version: 13` so the client knows which one to use (§4.4).
    case unsupportedVersion(String)
    /// A missing or repeated `Sec-WebSocket-Key`, or one that is not 16 bytes in Base64. 400.
    case invalidKey
    /// An `Origin` that is neither the server's own (its host and port are not the request's `Host`) nor
    /// one allowed with `--allow-origin`: a page elsewhere. 403.
    case foreignOrigin(String)

    /// The response that refuses the handshake.
    public var response: HTTPResponse {
        switch self {
        case .notAnUpgradeRequest:
            .plainText(.badRequest, "400 Bad Request: this is the WebSocket endpoint; open / in a browser to play")
        case .unsupportedVersion(let versions):
            .plainText(.upgradeRequired, "426 Upgrade Required: WebSocket version \(versions.isEmpty ? "missing" : versions) is not supported; use \(WebSocketHandshake.version)",
                       headers: ["Sec-WebSocket-Version": WebSocketHandshake.version])
        case .invalidKey:
            .plainText(.badRequest, "400 Bad Request: Sec-WebSocket-Key must be 16 bytes in Base64")
        case .foreignOrigin(let origin):
            .plainText(.forbidden, "403 Forbidden: pages from \(origin) may not connect here (the server allows its own page, and origins given with --allow-origin)")
        }
    }
}
