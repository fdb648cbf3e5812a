import PairsRules

/// This shard's rooms by name, its resume tokens and the count of its games being played, kept in step
/// with the directory every shard shares (`LobbyDirectory`: the room list, the quick-match rooms waiting,
/// which shard holds which room and token).
///
/// Joins are handled one at a time by the shard that holds the room, which is why two clients racing for
/// the last seat cannot both get it. Everything a request reads here is kept as rooms change (`refresh`),
/// so no request scans the rooms; and a change that moves nothing in the shared directory (a flip) does
/// not touch it.
struct RoomDirectory {
    let shared: LobbyDirectory
    /// This shard's number in `shared`.
    let shard: Int
    private(set) var rooms: [String: Room] = [:]
    /// Rooms whose game is being played (`playing` or `reveal`): `stats`'s `games_active`.
    private(set) var activeGames = 0
    /// Rooms whose game has begun and is not over (a peek as well): what a shutdown cuts short.
    private(set) var gamesInProgress = 0
    private var seatsByToken: [String: (room: Room, seat: Seat)] = [:]

    init(shared: LobbyDirectory, shard: Int) {
        precondition(shard >= 0 && shard < shared.shardCount, "shard \(shard) of \(shared.shardCount)")
        self.shared = shared
        self.shard = shard
    }

    var count: Int { rooms.count }

    func room(named name: String) -> Room? { rooms[name] }

    /// Adds a room whose name this shard has claimed in the shared directory; it is filed there at its
    /// first `refresh`, once its first player sits.
    mutating func add(_ room: Room) {
        rooms[room.name] = room
        count(room, as: Room.CountedPhase(room.match.phase))
    }

    /// Removes the room, its tokens, its entries in the shared directory and its count.
    mutating func remove(_ room: Room) {
        rooms[room.name] = nil
        for case let token? in room.tokens { seatsByToken[token] = nil }
        shared.remove(room.name, rules: room.rules, tokens: room.tokens)
        room.filed = nil
        count(room, as: .none)
    }

    /// Files the room where its match now puts it: in the game counters by its phase, and in the shared
    /// directory (room list, quick-match list) when what it shows there changed. Called after every change
    /// of every room, so it does no work, and takes no lock, when nothing moved.
    mutating func refresh(_ room: Room) {
        let phase = room.match.phase
        count(room, as: Room.CountedPhase(phase))
        let listing = Room.Listing(room, phase: phase)
        guard room.filed != listing else { return }
        room.filed = listing
        var summary = room.summary
        summary.phase = listing.phase
        shared.file(room.name, listingKey: RoomListingKey(hasFreeSeat: listing.hasFreeSeat, name: room.name),
                    waiting: listing.isWaitingForQuickMatch, rules: room.rules, summary: summary)
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

    /// Gives `seat` of `room` the fresh `token`, retiring its old one: a token works once.
    mutating func assign(_ token: String, to seat: Seat, in room: Room) {
        let old = room.tokens[seat.index]
        if let old { seatsByToken[old] = nil }
        room.tokens[seat.index] = token
        seatsByToken[token] = (room, seat)
        shared.assign(token, to: shard, retiring: old)
    }

    mutating func retireToken(of seat: Seat, in room: Room) {
        guard let old = room.tokens[seat.index] else { return }
        seatsByToken[old] = nil
        room.tokens[seat.index] = nil
        shared.retire(old)
    }

    func seat(forToken token: String) -> (room: Room, seat: Seat)? {
        seatsByToken[token]
    }
}
