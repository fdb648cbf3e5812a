/// A response to write to a connection: a status, header fields and a body.
///
/// Every response but the WebSocket handshake's 101 ends its connection: `encoded` adds
/// `Connection: close` and, where a body may be, `Content-Length`, so a client never has to guess where the
/// response ends and the server never has to keep a connection for a second request.
public struct HTTPResponse: Sendable, Hashable {
    public var status: HTTPStatus
    /// The fields to send, before the ones `encoded` adds.
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `text` and a newline, for people and for `curl`.
    public static func plainText(_ status: HTTPStatus, _ text: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers, body: Array("\(text)\n".utf8))
        response.headers.append(name: "Content-Type", value: "text/plain; charset=utf-8")
        // A path echoed in the text must never be taken for HTML by a browser that guesses types.
        response.headers.append(name: "X-Content-Type-Options", value: "nosniff")
        return response
    }

    /// The answer to a request the parser refused: its status, and a sentence saying why.
    public static func error(_ error: HTTPRequestError) -> HTTPResponse {
        // A 405 must say which methods are allowed (RFC 9110 §15.5.6).
        let headers: HTTPHeaders = error.status == .methodNotAllowed ? ["Allow": HTTPMethod.allowHeaderValue] : [:]
        return plainText(error.status, "\(error.status.rawValue) \(error.status.reasonPhrase): \(error)", headers: headers)
    }

    /// The answer to a request for a path the server does not have.
    public static func notFound(_ request: HTTPRequest) -> HTTPResponse {
        plainText(.notFound, "404 Not Found: nothing at \(request.path)")
    }

    /// A JSON document that is always current, such as the server's counters: never cached.
    public static func json(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: body)
    }

    /// The bytes to write: the status line, the header fields, the empty line and the body.
    ///
    /// - Parameter includingBody: false for an answer to `HEAD`, which has the headers of the `GET` answer
    ///   (its `Content-Length` included) and no body.
    public func encoded(includingBody: Bool = true) -> [UInt8] {
        var text = "HTTP/1.1 \(status.rawValue) \(status.reasonPhrase)\r\n"
        for field in headers.fields {
            text += "\(field.name): \(field.value)\r\n"
        }
        switch status {
        case .switchingProtocols:
            // The connection goes on as a WebSocket: it is neither closed nor delimited by a length.
            break
        case .notModified:
            // No body follows a 304, whatever the length of the one it stands for.
            text += "Connection: close\r\n"
        default:
            text += "Content-Length: \(body.count)\r\nConnection: close\r\n"
        }
        text += "\r\n"
        var bytes = Array(text.utf8)
        if includingBody && status != .switchingProtocols && status != .notModified {
            bytes.append(contentsOf: body)
        }
        return bytes
    }
}
