import PairsRules

/// The rooms by name, the quick-match rooms waiting for a second player, and the resume tokens.
///
/// Confined to the server's queue: joins are serialised there, which is why two clients racing for the
/// last seat cannot both get it.
struct RoomDirectory {
    private(set) var rooms: [String: Room] = [:]
    /// A quick-match room with one player waiting, per set of options: quick match pairs only players
    /// who asked for the same game.
    private var waitingQuickMatch: [GameOptions: Room] = [:]
    private var seatsByToken: [String: (room: Room, seat: Seat)] = [:]
    private var quickMatchCount = 0

    var count: Int { rooms.count }

    func room(named name: String) -> Room? { rooms[name] }

    mutating func add(_ room: Room) {
        rooms[room.name] = room
    }

    /// Removes the room, its tokens and its quick-match entry.
    mutating func remove(_ room: Room) {
        rooms[room.name] = nil
        if waitingQuickMatch[room.match.options] === room { waitingQuickMatch[room.match.options] = nil }
        for case let token? in room.tokens { seatsByToken[token] = nil }
    }

    /// The quick-match room waiting for a player who wants `options`, if there is one.
    func waitingQuickMatchRoom(for options: GameOptions) -> Room? {
        waitingQuickMatch[options]
    }

    /// Keeps the quick-match list in step with the room: listed while exactly one seat is free.
    mutating func update(quickMatch room: Room) {
        guard room.isQuickMatch else { return }
        let options = room.match.options
        if room.match.freeSeat != nil, !room.match.isEmpty {
            if waitingQuickMatch[options] == nil { waitingQuickMatch[options] = room }
        } else if waitingQuickMatch[options] === room {
            waitingQuickMatch[options] = nil
        }
    }

    /// A name for a new quick-match room that no room has.
    mutating func newQuickMatchName() -> String {
        while true {
            quickMatchCount += 1
            let name = "quick-\(quickMatchCount)"
            if rooms[name] == nil { return name }
        }
    }

    /// Gives `seat` of `room` a fresh token, retiring its old one: a token works once.
    mutating func issueToken(for seat: Seat, in room: Room) -> String {
        retireToken(of: seat, in: room)
        let token = ResumeToken.generate()
        room.tokens[seat.index] = token
        seatsByToken[token] = (room, seat)
        return token
    }

    mutating func retireToken(of seat: Seat, in room: Room) {
        if let old = room.tokens[seat.index] { seatsByToken[old] = nil }
        room.tokens[seat.index] = nil
    }

    func seat(forToken token: String) -> (room: Room, seat: Seat)? {
        seatsByToken[token]
    }
}

/// Resume tokens: 128 bits from the system's random source (getrandom on Linux), as 32 hex digits.
/// Unguessable, so only the player who received one can take the seat back.
enum ResumeToken {
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<2 {
            var word = generator.next() as UInt64
            for _ in 0..<16 {
                bytes.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
