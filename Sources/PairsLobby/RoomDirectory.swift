import PairsRules

/// The rooms by name, the quick-match rooms waiting for a second player, and the resume tokens.
///
/// Joins are handled one at a time by the lobby, which is why two clients racing for the last seat cannot
/// both get it.
struct RoomDirectory {
    private(set) var rooms: [String: Room] = [:]
    /// The quick-match rooms with one player waiting, per rule set, longest waiting first: quick match
    /// pairs only players who asked for the same game. Rarely more than one per rule set, since
    /// the next quick joiner fills the first; a room leaves the list when its player drops, and comes back
    /// (at the end) when the player resumes.
    private var waitingQuickMatch: [RuleSet: [Room]] = [:]
    private var seatsByToken: [String: (room: Room, seat: Seat)] = [:]
    private var madeRoomCount = 0

    var count: Int { rooms.count }

    func room(named name: String) -> Room? { rooms[name] }

    mutating func add(_ room: Room) {
        rooms[room.name] = room
    }

    /// Removes the room, its tokens and its quick-match entry.
    mutating func remove(_ room: Room) {
        rooms[room.name] = nil
        unlist(room)
        for case let token? in room.tokens { seatsByToken[token] = nil }
    }

    /// The quick-match room waiting for a player who wants `rules`, if there is one.
    func waitingQuickMatchRoom(for rules: RuleSet) -> Room? {
        waitingQuickMatch[rules]?.first
    }

    /// Keeps the quick-match list in step with the room: listed while it waits for a second player
    /// (`Room.isWaitingForQuickMatch`).
    mutating func update(quickMatch room: Room) {
        guard room.isQuickMatch else { return }
        if room.isWaitingForQuickMatch {
            if waitingQuickMatch[room.match.rules]?.contains(where: { $0 === room }) != true {
                waitingQuickMatch[room.match.rules, default: []].append(room)
            }
        } else {
            unlist(room)
        }
    }

    private mutating func unlist(_ room: Room) {
        let rules = room.match.rules
        guard let index = waitingQuickMatch[rules]?.firstIndex(where: { $0 === room }) else { return }
        waitingQuickMatch[rules]!.remove(at: index)
        if waitingQuickMatch[rules]!.isEmpty { waitingQuickMatch[rules] = nil }
    }

    /// A name for a new room made by the lobby rather than by a player, `PREFIX-N`, that no room has.
    mutating func newRoomName(prefix: String) -> String {
        while true {
            madeRoomCount += 1
            let name = "\(prefix)-\(madeRoomCount)"
            if rooms[name] == nil { return name }
        }
    }

    /// Gives `seat` of `room` the fresh `token`, retiring its old one: a token works once.
    mutating func assign(_ token: String, to seat: Seat, in room: Room) {
        retireToken(of: seat, in: room)
        room.tokens[seat.index] = token
        seatsByToken[token] = (room, seat)
    }

    mutating func retireToken(of seat: Seat, in room: Room) {
        if let old = room.tokens[seat.index] { seatsByToken[old] = nil }
        room.tokens[seat.index] = nil
    }

    func seat(forToken token: String) -> (room: Room, seat: Seat)? {
        seatsByToken[token]
    }
}
