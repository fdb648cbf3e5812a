import PairsWire

extension ClientMessage {
    /// Rooms of a `list` page that cost as much as one message: a message's work is about encoding a state
    /// for the two players of a room, a room's summary about a fifth of that.
    static let roomsPerMessage = 5

    /// What the request counts as against the rate limit, in messages: its work, not one line. Every
    /// request costs one but `list`, which costs one per `roomsPerMessage` rooms of its page (2 for the
    /// default page of 10), so a client cannot make the server encode pages faster than it could flip.
    static let tournamentListCost = 4
    static let tournamentRequestCost = 2

    var rateCost: Int {
        switch self {
        case .list(let query):
            let limit = query.limit ?? ListLimits.defaultLimit
            return max(1, (limit + Self.roomsPerMessage - 1) / Self.roomsPerMessage)
        case .tournament(.create), .tournament(.list):
            // A tournament is the weight of many rooms, and the list is every tournament's summary.
            return Self.tournamentListCost
        case .tournament:
            // Each makes a `tournament` message of up to 1024 standings, sent to every follower.
            return Self.tournamentRequestCost
        default:
            return 1
        }
    }
}
