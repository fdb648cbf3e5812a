/// Something in a server's line that this version does not know and skipped, as protocol.md asks clients
/// to: later versions may add fields, message types and event kinds.
public enum UnknownPart: Sendable, Hashable, CustomStringConvertible {
    /// A whole message of a type this version does not know.
    case messageType(String)
    /// A `state` whose event is of a kind this version does not know; the rest of the state was read.
    case eventKind(String)
    /// A field this version does not know, named by where it was: `state.event.flavor`, `state.cards[].glow`.
    case field(String)

    public var description: String {
        switch self {
        case .messageType(let type): "unknown message type \"\(type)\""
        case .eventKind(let kind): "unknown event kind \"\(kind)\""
        case .field(let path): "unknown field \"\(path)\""
        }
    }
}
