import PairsRules

/// The rooms by name, the quick-match rooms waiting for a second player, the resume tokens, the room
/// list in its order and the count of games being played.
///
/// Joins are handled one at a time by the lobby, which is why two clients racing for the last seat cannot
/// both get it. Everything a request reads here is kept as rooms change (`refresh`), so no request scans
/// the rooms: a `list` reads one page of `listing`, `stats` reads the counters.
struct RoomDirectory {
    private(set) var rooms: [String: Room] = [:]
    /// Every room in the room list's order (`RoomListingKey`).
    private var listing = OrderedKeys<RoomListingKey>()
    /// Rooms whose game is being played (`playing` or `reveal`): `stats`'s `games_active`.
    private(set) var activeGames = 0
    /// Rooms whose game has begun and is not over (a peek as well): what a shutdown cuts short.
    private(set) var gamesInProgress = 0
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
        refresh(room)
    }

    /// Removes the room, its tokens, its quick-match entry, its place in the room list and its count.
    mutating func remove(_ room: Room) {
        rooms[room.name] = nil
        unlist(room)
        for case let token? in room.tokens { seatsByToken[token] = nil }
        if let key = room.listingKey { listing.remove(key) }
        room.listingKey = nil
        count(room, as: .none)
    }

    /// Files the room where its match now puts it: in the quick-match list while it waits for a second
    /// player, in the room list by whether it has a free seat, in the game counters by its phase. Called
    /// after every change of every room, so it does no work when nothing moved.
    mutating func refresh(_ room: Room) {
        update(quickMatch: room)
        let hasFreeSeat = room.match.freeSeat != nil
        if room.listingKey?.hasFreeSeat != hasFreeSeat {
            if let old = room.listingKey { listing.remove(old) }
            let key = RoomListingKey(hasFreeSeat: hasFreeSeat, name: room.name)
            listing.insert(key)
            room.listingKey = key
        }
        count(room, as: Room.CountedPhase(room.match.phase))
    }

    /// The first `limit` rooms of the room list after `after` (from the start when nil), and whether more
    /// follow: work in proportion to `limit`, whatever the number of rooms.
    func page(after: RoomListingKey?, limit: Int) -> (rooms: [Room], more: Bool) {
        let keys = listing.keys(after: after, limit: limit + 1)
        return (keys.prefix(limit).compactMap { rooms[$0.name] }, keys.count > limit)
    }

    private mutating func count(_ room: Room, as phase: Room.CountedPhase) {
        guard room.countedPhase != phase else { return }
        switch room.countedPhase {
        case .none: break
        case .peek: gamesInProgress -= 1
        case .active: gamesInProgress -= 1; activeGames -= 1
        }
        switch phase {
        case .none: break
        case .peek: gamesInProgress += 1
        case .active: gamesInProgress += 1; activeGames += 1
        }
        room.countedPhase = phase
    }

    /// The quick-match room waiting for a player who wants `rules`, if there is one.
    func waitingQuickMatchRoom(for rules: RuleSet) -> Room? {
        waitingQuickMatch[rules]?.first
    }

    /// Keeps the quick-match list in step with the room: listed while it waits for a second player
    /// (`Room.isWaitingForQuickMatch`).
    private mutating func update(quickMatch room: Room) {
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
