/// Decides from a connection's first bytes whether it speaks HTTP or the line protocol, so one port serves
/// browsers, bots and people in netcat alike.
///
/// The rule: a connection is HTTP exactly when its first line is a whole HTTP/1 request line,
/// `METHOD /target HTTP/1.0` or `HTTP/1.1` ending in CRLF or LF, with an upper-case method (see
/// `RequestLine` for the grammar). Everything else is the line protocol:
/// - `get`, `GET`, `GET /` or `GET / HTTP/2` typed in netcat are lines (answered as text commands), because
///   the decision waits for the whole request line;
/// - JSON (`{`), and every text command, which are lower case or do not continue with ` /`, are decided by
///   their first byte or two, so the sniffer waits only while the bytes could still start a request line.
///
/// A request line longer than `HTTPRequestParser.maxRequestLineBytes` is decided as HTTP once the bound is
/// reached: bytes of the form `METHOD /` followed by two kilobytes without a space come from an HTTP client,
/// never from a person, and the request parser answers them with 414 URI Too Long, an answer the client
/// understands, where a JSON error line would not be.
public enum ConnectionSniffer {
    /// What the first bytes of a connection say about its protocol.
    public enum Classification: Sendable, Hashable {
        /// An HTTP request: hand every byte, these included, to `HTTPRequestParser`.
        case http
        /// The line protocol: hand every byte, these included, to the line framer.
        case lines
        /// Every byte so far could start a request line: wait for more (or for the server's bounded wait to
        /// end, after which the connection is lines).
        case needMoreBytes
    }

    /// The most bytes the sniffer needs to decide, in bytes: a request line of the longest length the
    /// parser takes, and its CRLF. `classify` never answers `.needMoreBytes` for this many bytes or more, so
    /// a caller never buffers more than this before knowing which framing to use.
    public static let maxBytesToDecide = HTTPRequestParser.maxRequestLineBytes + 2

    /// Classifies a connection by the bytes it has sent so far, all of them from its first.
    public static func classify(_ firstBytes: UnsafeRawBufferPointer) -> Classification {
        switch RequestLine.scan(firstBytes) {
        case .complete: .http
        case .mismatch: .lines
        case .incomplete: firstBytes.count >= maxBytesToDecide ? .http : .needMoreBytes
        }
    }

    /// Classifies a connection by the bytes it has sent so far; see `classify(_:)`.
    public static func classify(_ firstBytes: [UInt8]) -> Classification {
        firstBytes.withUnsafeBytes { classify($0) }
    }
}
