import Foundation
import PairsRecords
@testable import PairsStorage
import PairsTestSupport
import Synchronization

/// Collects what a store reports through its failure callback.
final class FailureLog: Sendable {
    private let failures = Mutex<[StorageFailure]>([])

    var all: [StorageFailure] { failures.withLock { $0 } }

    func append(_ failure: StorageFailure) {
        failures.withLock { $0.append(failure) }
    }
}

/// A store on `path` whose failures go to `log`.
func openStore(_ path: String, log: FailureLog = FailureLog()) throws(StoreOpenError) -> GameStore {
    try GameStore(path: path) { log.append($0) }
}

/// A store on a new file in a temporary directory, with what it reports.
struct StoreFixture {
    let directory: TemporaryDirectory
    /// The database file.
    let path: String
    let log = FailureLog()
    let store: GameStore

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.file("pairs.db")
        store = try openStore(path, log: log)
    }

    /// Opens a store on `path`, hands it `games` sample games and lets go of it, which commits them.
    static func fill(_ path: String, games: Int) throws {
        let store = try openStore(path)
        for index in 0..<games { try store.record(sampleTwoSeatGame(room: "room\(index)")) }
    }

    /// Hands `games` to the store and waits until they are committed.
    func record(_ games: [GameRecord]) throws {
        for game in games { try store.record(game) }
        store.flush()
    }
}

/// A connection of the test's own to the database at `path`, beside any store's: what another program
/// (the `sqlite3` shell) would see.
func outsideConnection(_ path: String, _ mode: SQLiteConnection.Mode = .readOnly) throws -> SQLiteConnection {
    try SQLiteConnection(path: path, mode: mode, busyTimeoutMilliseconds: 1000)
}

/// The moment the sample games start: 2025-11-13T02:13:20Z.
let sampleStart: Int64 = 1_763_000_000_000

/// The rule set of the classic game, as a caller might describe it.
let classicRules = StoredRules(
    json: #"{"again_on_match":true,"match":2,"pairs":4,"reveal_ms":1000,"seats":2,"turn_seconds":30}"#,
    ladder: "seats=2,match=2,deck=words,scoring=classic")

/// A solo rule set against the clock.
let soloRules = StoredRules(
    json: #"{"game_seconds":60,"match":2,"pairs":4,"seats":1}"#, ladder: "seats=1,match=2,game_seconds=60")

/// A deal whose faces need every kind of care in JSON: quotes, backslashes, control characters, and
/// characters beyond ASCII.
let awkwardDeal = ["A♠", "say \"hi\"", "back\\slash", "10♥", "A♠", "tab\there", "10♥", "say \"hi\"", "back\\slash", "tab\there"]

/// A game of two seats on `awkwardDeal` with a move of every kind: seat 0 wins on a forfeit by seat 1.
func sampleTwoSeatGame(
    room: String = "kitchen", names: (String, String) = ("alice", "bob"), claimed: Bool = false,
    outcome: GameOutcome = .won(seat: 0), rated: Bool = false, started: Int64 = sampleStart
) -> GameRecord {
    let moves = [
        GameMove(milliseconds: 0, action: .flip(seat: 0, card: 0)),
        GameMove(milliseconds: 850, action: .flip(seat: 0, card: 4)),
        GameMove(milliseconds: 1_900, action: .flip(seat: 0, card: 1)),
        GameMove(milliseconds: 2_300, action: .flip(seat: 0, card: 2)),
        GameMove(milliseconds: 33_300, action: .timeout(seat: 1)),
        GameMove(milliseconds: 34_000, action: .disconnect(seat: 1)),
        GameMove(milliseconds: 36_500, action: .reconnect(seat: 1)),
        GameMove(milliseconds: 36_500, action: .flip(seat: 1, card: 3)),
        GameMove(milliseconds: 40_000, action: .forfeit(seat: 1, reason: .left)),
    ]
    let summary = GameSummary(
        room: room, rules: classicRules,
        players: [FinishedPlayer(name: names.0, claimed: claimed, score: 1), FinishedPlayer(name: names.1, claimed: claimed, score: 0)],
        outcome: outcome, ending: .forfeit(.left),
        started: WallClockTime(unixMilliseconds: started), ended: WallClockTime(unixMilliseconds: started + 40_000),
        rated: rated)
    return GameRecord(summary: summary, deal: awkwardDeal, moves: moves)
}

/// A solo game of `name` on `soloRules`: cleared with `flips` flips, the last at `milliseconds`, or lost.
func sampleSoloGame(name: String, cleared: Bool, flips: Int, milliseconds: Int64) -> GameRecord {
    let deal = ["a", "b", "c", "d", "a", "b", "c", "d"]
    let moves = (0..<flips).map { index in
        GameMove(milliseconds: milliseconds * Int64(index + 1) / Int64(flips), action: .flip(seat: 0, card: index % deal.count))
    }
    let summary = GameSummary(
        room: "solo-\(name)", rules: soloRules, players: [FinishedPlayer(name: name, claimed: true, score: cleared ? 4 : 2)],
        outcome: cleared ? .soloCleared : .soloLost, ending: cleared ? .cleared : .timeUp,
        started: WallClockTime(unixMilliseconds: sampleStart),
        ended: WallClockTime(unixMilliseconds: sampleStart + milliseconds), rated: true)
    return GameRecord(summary: summary, deal: deal, moves: moves)
}

/// A rated classic game between two claimed names, `winner` winning (nil: a draw).
func ratedGame(_ first: String, _ second: String, winner: Int?) -> GameRecord {
    var game = sampleTwoSeatGame(names: (first, second), claimed: true, outcome: winner.map { .won(seat: $0) } ?? .draw, rated: true)
    game.summary.ending = .cleared
    return game
}
