/// The seats held for players whose connection dropped, counted per address and in all, against
/// `RoomLimits`: a seat is counted from its player's drop until the player is back (`resume`) or the seat
/// is freed (a leave, the grace period's end).
struct AwaySeats {
    let limits: RoomLimits
    private var byAddress: [String: Int] = [:]
    private(set) var total = 0

    init(limits: RoomLimits) {
        self.limits = limits
    }

    /// Seats held for `address`'s dropped players.
    func count(for address: String) -> Int { byAddress[address] ?? 0 }

    /// Whether one more seat may be held for a player of `address`.
    func hasRoom(for address: String) -> Bool {
        total < limits.awaySeats && count(for: address) < limits.awaySeatsPerAddress
    }

    mutating func hold(for address: String) {
        byAddress[address, default: 0] += 1
        total += 1
    }

    mutating func release(for address: String) {
        guard let held = byAddress[address] else { return }
        byAddress[address] = held > 1 ? held - 1 : nil
        total -= 1
    }
}
