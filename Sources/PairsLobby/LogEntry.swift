/// Something the lobby wants the operator to know: what happened, as a typed event, and how much it matters.
///
/// The lobby has no clock and no output: the transport stamps the time, decides whether the line is
/// written (the level, and under load the summary that replaces per-game lines) and formats it. Nothing
/// is formatted here, so an entry that is not written costs no string building.
public struct LogEntry: Sendable, Hashable {
    public var level: LogLevel
    public var event: LobbyEvent

    public init(_ level: LogLevel, _ event: LobbyEvent) {
        self.level = level
        self.event = event
    }
}
