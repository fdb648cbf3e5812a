/// Gives each new connection its id: the next number, and a slot no open connection holds.
///
/// The transport owns the one issuer, and retires an id when it has closed that connection's socket for
/// good, after the lobby has forgotten it: from then on the slot may go to a newcomer, whose number
/// differs, so a `ConnectionTable` tells the two apart. Slots given back are handed out again before new
/// ones, so no slot is ever higher than the most connections open at once.
public struct ConnectionIDIssuer: Sendable {
    private var nextNumber = 1
    /// Slots given back, last given back first.
    private var freeSlots: [Int] = []
    /// The first slot never handed out: how many slots there are.
    private var slotCount = 0

    public init() {}

    /// The id for a connection that just arrived.
    public mutating func issue() -> ConnectionID {
        defer { nextNumber += 1 }
        if let slot = freeSlots.popLast() {
            return ConnectionID(nextNumber, slot: slot)
        }
        slotCount += 1
        return ConnectionID(nextNumber, slot: slotCount - 1)
    }

    /// Gives `id`'s slot back, once its connection is gone everywhere. Each id is retired once.
    public mutating func retire(_ id: ConnectionID) {
        assert(id.slot < slotCount && freeSlots.count < slotCount, "slot \(id.slot) was not in use")
        freeSlots.append(id.slot)
    }
}
