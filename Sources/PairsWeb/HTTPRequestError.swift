/// Why `HTTPRequestParser` refused a request, each with the status that says so to the client.
public enum HTTPRequestError: Error, Sendable, Hashable {
    /// The first line is not `METHOD /target HTTP/1.x` (see `RequestLine`). 400.
    case malformedRequestLine
    /// A method other than `GET` and `HEAD`, the only ones this server's read-only resources answer. 405, with
    /// `Allow: GET, HEAD`. (501 would say the server does not know the method at all; 405 says which ones it
    /// takes, which helps the person reading the error more.)
    case methodNotAllowed(String)
    /// The request line is longer than `HTTPRequestParser.maxRequestLineBytes`. 414.
    case requestLineTooLong
    /// The request head is longer than `HTTPRequestParser.maxHeadBytes`. 431.
    case headTooLarge
    /// A header line that is not `name: value`: no colon, a name that is not a token, whitespace before the
    /// colon, a control character in the value, or a continuation line (obsolete line folding). 400.
    case malformedHeaderField
    /// An HTTP/1.1 request without exactly one `Host` field (RFC 9112 §3.2). 400.
    case invalidHost
    /// A `Content-Length` that is not one decimal number. 400.
    case invalidContentLength
    /// A request that announces a body (`Content-Length` above 0, or any `Transfer-Encoding`). 413: every
    /// resource here is read with `GET`, so the largest body this server takes is none; reading and discarding
    /// one would only let a client make the server read bytes for nothing.
    case bodyNotAccepted

    /// The status to answer with.
    public var status: HTTPStatus {
        switch self {
        case .malformedRequestLine, .malformedHeaderField, .invalidHost, .invalidContentLength: .badRequest
        case .methodNotAllowed: .methodNotAllowed
        case .requestLineTooLong: .uriTooLong
        case .headTooLarge: .requestHeaderFieldsTooLarge
        case .bodyNotAccepted: .contentTooLarge
        }
    }
}

extension HTTPRequestError: CustomStringConvertible {
    /// One sentence for the person who sent the request, sent as the body of the error response.
    public var description: String {
        switch self {
        case .malformedRequestLine:
            "the request line is not METHOD /PATH HTTP/1.1"
        case .methodNotAllowed(let method):
            "method \(method) is not allowed here; use \(HTTPMethod.allowHeaderValue)"
        case .requestLineTooLong:
            "the request line is longer than \(HTTPRequestParser.maxRequestLineBytes) bytes"
        case .headTooLarge:
            "the request headers are longer than \(HTTPRequestParser.maxHeadBytes) bytes"
        case .malformedHeaderField:
            "a header line is not NAME: VALUE"
        case .invalidHost:
            "an HTTP/1.1 request needs exactly one Host header"
        case .invalidContentLength:
            "Content-Length is not a number"
        case .bodyNotAccepted:
            "this server takes no request bodies"
        }
    }
}
