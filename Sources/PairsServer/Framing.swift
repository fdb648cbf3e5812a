import PairsWire

/// How a connection's bytes become the whole messages the lobby reads.
///
/// The transport reads bytes; the framing cuts them into messages; the lobby never knows which framing a
/// connection uses. Lines (`LineFramer`: JSON and text commands, one per line) are the one framing today.
enum Framing {
    case lines(LineFramer)

    /// One piece of input, as a framing hands it to the transport.
    enum Input {
        /// A whole message, valid only during the call.
        case message(UnsafeRawBufferPointer)
        /// A message over the protocol's length limit; its bytes were dropped.
        case tooLong
    }

    /// Feeds bytes read from the socket, calling `body` with every message they complete, in order.
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
        }
    }
}
