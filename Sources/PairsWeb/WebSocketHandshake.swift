/// The server's side of the WebSocket opening handshake (RFC 6455 §4.2): checks that a request asks for a
/// WebSocket, and writes the 101 that turns the connection into one.
///
/// A handshake from a page of another origin is refused (`WebSocketOrigin`): a page elsewhere could otherwise
/// use its visitors' browsers to guess claimed names' passwords from inside the LAN. No subprotocol or
/// extension is negotiated, so the response names none and the frames use no reserved bits.
public enum WebSocketHandshake {
    /// The only protocol version there is (RFC 6455 §4.1), the value of `Sec-WebSocket-Version`.
    public static let version = "13"

    /// The GUID RFC 6455 §1.3 appends to the client's key before hashing it.
    private static let keyGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The length of the nonce a `Sec-WebSocket-Key` encodes, in bytes (§4.1).
    private static let keyNonceBytes = 16

    /// The response that accepts `request` as a WebSocket handshake: 101 with `Sec-WebSocket-Accept`.
    /// `allowedOrigins` are origins besides the server's own whose pages may connect.
    public static func response(to request: HTTPRequest, allowedOrigins: [String] = []) throws(WebSocketHandshakeError) -> HTTPResponse {
        // §4.1: a GET of HTTP/1.1 or later.
        guard request.method == .get, request.version == .http1_1 else { throw .notAnUpgradeRequest }
        guard request.headers.contains(token: "websocket", inFieldNamed: "Upgrade"),
              request.headers.contains(token: "upgrade", inFieldNamed: "Connection") else {
            throw .notAnUpgradeRequest
        }
        guard request.headers["Sec-WebSocket-Version"] == version else {
            throw .unsupportedVersion(request.headers.values(named: "Sec-WebSocket-Version").joined(separator: ", "))
        }
        guard let key = request.headers["Sec-WebSocket-Key"], Base64.decode(key)?.count == keyNonceBytes else {
            throw .invalidKey
        }
        guard WebSocketOrigin.isAllowed(request, alsoAllowing: allowedOrigins) else {
            throw .foreignOrigin(request.headers.values(named: "Origin").joined(separator: ", "))
        }
        return HTTPResponse(status: .switchingProtocols, headers: [
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Accept": acceptValue(forKey: key),
        ])
    }

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`: the Base64 of the SHA-1 of the key and the
    /// GUID (§4.2.2, step 5.4).
    public static func acceptValue(forKey key: String) -> String {
        Base64.encode(SHA1.digest(of: (key + keyGUID).utf8))
    }
}
