import PairsRules
import PairsTournament
import Testing

/// A seeded arena: players joining, pausing, coming back and finishing games at random moments, with what
/// must hold checked after every step.
private struct SeededArena {
    var harness = DirectorHarness(.arena(durationMilliseconds: 3_600_000))
    var random: SplitMix64
    var joined = 0
    var paused: Set<String> = []
    /// Each player's opponent in their latest game, as the started games say.
    var lastOpponent: [String: String] = [:]
    var problems: [String] = []

    init(seed: UInt64) throws {
        random = SplitMix64(seed: seed)
        for _ in 0..<(2 + random.next(below: 6)) { try joinNew() }
        try take { try $0.start(by: "host", at: $1) }
    }

    var free: [String] {
        let playing = Set(harness.playing.flatMap(\.seats))
        return harness.director.entrantNames.filter { !paused.contains($0) && !playing.contains($0) }
    }

    mutating func joinNew() throws {
        joined += 1
        let name = "p\(joined)"
        let rating = 1000 + random.next(below: 1000)
        try take { try $0.join(name, rating: rating, at: $1) }
    }

    /// Carries out an input, and checks the games it started: players not paused, not in another game, and
    /// the opponent they just played only when nobody else was free.
    mutating func take(_ input: (inout TournamentDirector, Moment) throws -> [TournamentAction]) rethrows {
        let lastBefore = lastOpponent
        func clash(_ a: String, _ b: String) -> Bool { lastBefore[a] == b || lastBefore[b] == a }
        let actions = try input(&harness.director, harness.now)
        harness.take(actions)
        let stillFree = free
        for case .startGame(let pairing, _, _) in actions {
            let (a, b) = (pairing.seats[0], pairing.seats[1])
            if paused.contains(a) || paused.contains(b) { problems.append("\(pairing.game): a paused player") }
            if clash(a, b), let other = stillFree.first(where: { !clash(a, $0) || !clash(b, $0) }) {
                problems.append("\(pairing.game): \(a) and \(b) again while \(other) was left free")
            }
        }
        for case .startGame(let pairing, _, _) in actions {
            lastOpponent[pairing.seats[0]] = pairing.seats[1]
            lastOpponent[pairing.seats[1]] = pairing.seats[0]
        }
        let seats = harness.playing.flatMap(\.seats)
        if Set(seats).count != seats.count { problems.append("a player in two games") }
        harness.seatEveryone()
    }

    mutating func step() throws {
        switch random.next(below: 10) {
        case 0...4:
            guard !harness.playing.isEmpty else { return }
            let game = harness.playing[random.next(below: harness.playing.count)]
            let result: TournamentGameResult = switch random.next(below: 3) {
            case 0: .won(by: game.seats[0])
            case 1: .won(by: game.seats[1])
            default: .draw
            }
            try take { try $0.gameEnded(game.game, result, at: $1) }
        case 5:
            let active = harness.director.entrantNames.filter { !paused.contains($0) }
            guard !active.isEmpty else { return }
            let name = active[random.next(below: active.count)]
            paused.insert(name)
            if random.next(below: 2) == 0 {
                try take { try $0.leave(name, at: $1) }
            } else {
                take { $0.disconnected(name, at: $1) }
            }
            if let game = harness.playing.first(where: { $0.seats.contains(name) }) {
                try take { try $0.gameEnded(game.game, .forfeited(by: [name]), at: $1) }
            }
        case 6:
            guard let name = paused.sorted().first else { return }
            paused.remove(name)
            try take { try $0.join(name, rating: 0, at: $1) }
        case 7:
            if joined < 16 { try joinNew() }
        default:
            let target = harness.now.adding(milliseconds: Int64(random.next(below: 1500)))
            advance(to: target)
        }
    }

    /// Lets the director act on every deadline up to `target`, in order, checking what it starts.
    mutating func advance(to target: Moment) {
        while let due = harness.director.nextDeadline, due <= target {
            harness.moveClock(to: due)
            take { $0.advance(to: $1) }
        }
        harness.moveClock(to: target)
    }

    /// After a second with nothing else happening, no two free players are left who could meet.
    func checkSettled() -> [String] {
        var quiet = self
        quiet.advance(to: harness.now.adding(milliseconds: 1_000))
        let free = quiet.free
        var found = quiet.problems
        if free.count > 1 { found.append("\(free) all free a second later") }
        return found
    }
}

@Suite("Arena properties")
struct ArenaPropertyTests {
    @Test("over 200 seeded arenas of players joining, pausing, disconnecting and coming back: no paused player is paired, nobody plays two games, nobody meets the opponent just played while a third is free, and a second later at most one player is left free", arguments: 0..<200)
    func seededArenas(seed: UInt64) throws {
        var arena = try SeededArena(seed: seed)
        for _ in 0..<150 {
            try arena.step()
            let problems = arena.checkSettled()
            #expect(problems.isEmpty, "seed \(seed): \(problems)")
            if !problems.isEmpty { return }
        }
        #expect(arena.harness.started.count > 0)
    }
}
