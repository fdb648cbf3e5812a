/// How many seats of players who dropped the server keeps for their grace period: rooms nobody is
/// connected to cost a client nothing to keep (connect, join, close), so they are bounded, per address and
/// in all.
public struct RoomLimits: Sendable, Hashable {
    /// Seats held for dropped players of one address (IP, without the port): far more than the players of
    /// a household or a LAN party behind one router drop at once, far fewer than a script makes.
    public var awaySeatsPerAddress: Int
    /// Seats held for dropped players in all: a bound on the rooms nobody is connected to (each holds at
    /// least one such seat), and so on the memory and the room list they cost.
    public var awaySeats: Int

    public init(awaySeatsPerAddress: Int = 32, awaySeats: Int = 10_000) {
        self.awaySeatsPerAddress = awaySeatsPerAddress
        self.awaySeats = awaySeats
    }
}
