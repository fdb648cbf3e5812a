/// The status code of a close frame (RFC 6455 §7.4): why an endpoint closes.
///
/// A struct rather than an enum because the codes are an open set: 3000-4999 belong to libraries and
/// applications, and a peer may send any of them.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The purpose of the connection was fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// The endpoint is going away: the server is shutting down, or the browser left the page.
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// The peer broke the framing rules.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// A message of a type the endpoint does not take: here, any binary message.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// A text message that is not UTF-8.
    public static let invalidPayloadData = WebSocketCloseCode(rawValue: 1007)
    /// The peer broke a rule of the application, such as the rate limit.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// A message longer than the endpoint takes.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// The server met a condition it did not expect.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)
    /// The server is overloaded: try again later.
    public static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)

    /// Whether a close frame may carry this code (RFC 6455 §7.4.1-2 and the IANA registry): the defined
    /// codes 1000-1003 and 1007-1014, and the library and application ranges 3000-4999. 1004 is reserved,
    /// 1005, 1006 and 1015 only ever stand for "no frame said", and the rest are unassigned.
    public var isValidInCloseFrame: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
