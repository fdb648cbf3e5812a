import PairsWire

/// What a `BotMachine` asks its runner to do.
public enum BotAction: Sendable, Hashable {
    /// Send this request (and report it back with `BotInput.sent`).
    case send(ClientMessage)
    /// Wait the thinking time, then report `BotInput.thoughtElapsed` with the same state number. Thinking
    /// about a state that has been overtaken by a newer one comes to nothing, so there is nothing to cancel.
    case think(aboutState: Int)
    /// A game ended: say how it went.
    case report(GameRecord)
    /// The bot is done, successfully or not. Nothing follows.
    case finish(BotFinish)
}

/// How a bot's run ended.
public enum BotFinish: Sendable, Hashable {
    /// Every game asked for was played.
    case done
    /// The bot could not go on, for the reason given.
    case failed(String)
}
