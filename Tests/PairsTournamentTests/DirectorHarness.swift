import PairsRecords
import PairsRules
import PairsTournament
import Testing

/// A director on a manual clock, with every action it took kept in order: nothing sleeps, `advance(by:)`
/// moves the clock and lets the director act on what fell due, as the lobby's timer would.
extension QuarterPoints {
    /// The score in half-points, as a Swiss counts (a win 2): exact for every Swiss score.
    var halves: Int { quarters / 2 }
    /// The score in whole points, as an arena counts.
    var points: Int { quarters / 4 }
}

struct DirectorHarness {
    var director: TournamentDirector
    private(set) var now = Moment(milliseconds: 1_000_000)
    private(set) var actions: [TournamentAction] = []

    init(_ format: TournamentFormat, start: StartCondition = .manual, roundBreak: Int64 = 0, rules: RuleSet = .standard) {
        let configuration = TournamentConfiguration(name: "cup", format: format, rules: rules, start: start,
                                                    roundBreakMilliseconds: roundBreak)
        director = TournamentDirector(configuration: configuration, creator: "host")
    }

    mutating func take(_ new: [TournamentAction]) { actions += new }

    mutating func join(_ names: [String], rating: (String) -> Int = { _ in 1500 }) throws {
        for name in names { take(try director.join(name, rating: rating(name), at: now)) }
    }

    mutating func start() throws { take(try director.start(by: "host", at: now)) }

    /// Moves the clock and lets every deadline that fell due act, in order.
    mutating func advance(by milliseconds: Int64) {
        let target = now.adding(milliseconds: milliseconds)
        while let due = director.nextDeadline, due <= target {
            now = max(now, due)
            take(director.advance(to: now))
        }
        now = target
        take(director.advance(to: now))
    }

    /// Moves the clock without letting the director act: for a caller that calls `advance(to:)` itself.
    mutating func moveClock(to moment: Moment) { now = max(now, moment) }

    /// The games started so far, in order, with the seats they were started with.
    var started: [Pairing] {
        actions.compactMap { if case .startGame(let pairing, _, _) = $0 { pairing } else { nil } }
    }

    /// The games started and not reported ended, as the director sees them.
    var playing: [Pairing] { director.currentPairings }

    /// Seats both players of every game in progress.
    mutating func seatEveryone() {
        for pairing in director.currentPairings {
            for name in pairing.seats { director.seated(name, in: pairing.game, at: now) }
        }
    }

    /// Ends the game `name` is playing.
    mutating func end(gameOf name: String, _ result: TournamentGameResult) throws {
        let pairing = try #require(director.currentPairings.first { $0.seats.contains(name) })
        take(try director.gameEnded(pairing.game, result, at: now))
    }

    var finished: [TournamentStanding]? {
        actions.lazy.compactMap { if case .finished(let rows) = $0 { rows } else { nil } }.first
    }

    func row(_ name: String) -> TournamentStanding? { director.standings.first { $0.name == name } }
}
