import PairsWire

/// Everything that can happen to a bot, as its `BotMachine` is told.
public enum BotInput: Sendable, Hashable {
    /// The server greeted the bot's first connection.
    case ready
    /// A message from the server.
    case message(ServerMessage)
    /// The thinking asked for by `BotAction.think(aboutState:)` is done.
    case thoughtElapsed(aboutState: Int)
    /// A request from `BotAction.send` went out with this id, or could not be sent (nil).
    case sent(ClientMessage, id: RequestID?)
    /// The connection dropped; the runner is getting back in.
    case connectionLost
    /// Back in after a drop (a seat the bot held is being resumed).
    case reconnected
    /// Back in after a drop, the server would not give the seat back.
    case seatLost
}
