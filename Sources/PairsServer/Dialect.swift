import PairsWeb

/// What a connection speaks, as far as writing to it goes: how the lobby's lines are sent, and what its
/// goodbye is. `Framing` says it, case for case.
enum Dialect: Sendable, Hashable {
    /// Its first bytes are awaited: spoken to as a line connection (at shutdown, `bye` is a line).
    case undecided
    /// An HTTP request: answered once, in HTTP.
    case http
    case lines
    case webSocket

    /// Whether the lobby knows the connection: a line connection or a WebSocket, rather than one whose
    /// first bytes are still awaited or an HTTP request.
    var carriesMessages: Bool {
        self == .lines || self == .webSocket
    }

    /// The bytes to write for `lines`, whole lines of protocol.md from the lobby: the lines themselves, or
    /// on a WebSocket one text frame per line without its newline. Nothing is copied for a line connection.
    func outgoing(_ lines: [UInt8]) -> [UInt8] {
        self == .webSocket ? WebSocketFrameEncoder.textFrames(ofLines: lines) : lines
    }
}
