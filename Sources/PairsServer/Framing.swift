import PairsWeb
import PairsWire

/// How a connection's bytes become the whole messages the lobby reads, and how the lobby's lines go out.
///
/// The transport reads bytes; the framing cuts them into messages; the lobby never knows which framing a
/// connection uses. Every connection starts `sniffing`: its first bytes decide whether it speaks the line
/// protocol (`lines`: JSON and text commands, one per line) or HTTP (`http`, which either answers and
/// closes, or upgrades to `webSocket`: one message per text frame).
enum Framing {
    /// The first bytes, until `ConnectionSniffer` can tell HTTP from lines or the welcome wait ends. The
    /// lobby does not know the connection yet. Indirect: every connection passes through it, briefly, and
    /// the connection should not carry its size for the rest of its life.
    indirect case sniffing(FirstBytes)
    /// Reading an HTTP request head; the lobby does not know the connection. Indirect for the same reason.
    indirect case http(HTTPRequestParser, peer: String)
    /// The line protocol.
    case lines(LineFramer)
    /// A WebSocket after the handshake: every text message is a message of the line protocol.
    case webSocket(WebSocketReader)

    /// What a connection sent before the sniffer could decide (at most `ConnectionSniffer.maxBytesToDecide`),
    /// and where it came from.
    struct FirstBytes {
        var bytes: [UInt8] = []
        /// `HOST:PORT` of the peer, for the lobby once it is told of the connection.
        let peer: String
    }

    /// One piece of input, as a message framing (`lines`, `webSocket`) hands it to the transport.
    enum Input {
        /// A whole message, valid only during the call.
        case message(UnsafeRawBufferPointer)
        /// A line over the protocol's length limit; its bytes were dropped. (A WebSocket message over the
        /// limit is a `failure` instead: RFC 6455 closes the connection with 1009.)
        case tooLong
        /// A WebSocket ping: answer with a pong carrying the payload, valid only during the call.
        case ping(UnsafeRawBufferPointer)
        /// A WebSocket frame with nothing to carry out: a pong, or a fragment of a message still to come.
        /// It costs a read all the same, so it counts against the rate limit.
        case frame
        /// The WebSocket client closes, with its close frame's code (nil when it gave none).
        case close(WebSocketCloseCode?)
        /// The WebSocket client broke the protocol: close with the error's code.
        case failure(WebSocketFrameError)
    }

    /// A WebSocket's decoder, held by reference: every connection carries a `Framing`, few are WebSockets,
    /// and a decoder inline would make every line connection's framing several times larger (the server
    /// keeps as little as it can per idle connection). Mutated in place, so a read allocates nothing.
    final class WebSocketReader {
        var decoder = WebSocketFrameDecoder(maxMessageBytes: LineFramer.maxLineBytes)
    }

    /// The framing of a connection that upgraded to a WebSocket: messages as long as lines may be.
    static func webSocket() -> Framing {
        .webSocket(WebSocketReader())
    }

    /// What a connection with this framing speaks.
    var dialect: Dialect {
        switch self {
        case .sniffing: .undecided
        case .http: .http
        case .lines: .lines
        case .webSocket: .webSocket
        }
    }

    /// Feeds bytes read from the socket of a message framing, calling `body` with every input they
    /// complete, in order. Bytes of a connection still sniffing or reading HTTP are the transport's to read.
    mutating func append(_ bytes: UnsafeRawBufferPointer, _ body: (Input) -> Void) {
        switch self {
        case .lines(var framer):
            // Taken out of `self` while it works, so the enum's payload is not copied per read.
            self = .lines(LineFramer())
            framer.append(bytes) { frame in
                switch frame {
                case .line(let line): body(.message(line))
                case .tooLong: body(.tooLong)
                }
            }
            self = .lines(framer)
        case .webSocket(let reader):
            let fragmentsBefore = reader.decoder.fragmentsRead
            reader.decoder.append(bytes) { event in
                switch event {
                case .text(let text): body(.message(text))
                case .ping(let payload): body(.ping(payload))
                case .pong: body(.frame)
                case .close(let code, _): body(.close(code))
                case .failure(let error): body(.failure(error))
                }
            }
            // Fragments are not events, but a client could send empty ones without end: each is a frame.
            for _ in fragmentsBefore..<reader.decoder.fragmentsRead { body(.frame) }
        case .sniffing, .http:
            assertionFailure("the transport reads a connection's first bytes and HTTP requests itself")
        }
    }
}
