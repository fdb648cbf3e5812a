import Foundation
@testable import PairsStorage
import PairsTestSupport
import Testing

/// The game ids in the file, of games whose players are all claimed (`claimed`) or not.
private func ids(_ path: String, rated: Bool? = nil) throws -> [Int64] {
    let condition = rated.map { "WHERE rated = \($0 ? 1 : 0)" } ?? ""
    return try outsideConnection(path).rows("SELECT id FROM games \(condition) ORDER BY id") { $0.int64(at: 0) }
}

/// The database's size as SQLite counts it, write-ahead log included: pages times page size.
private func databaseBytes(_ path: String) throws -> Int {
    let connection = try outsideConnection(path)
    return (try connection.integer("PRAGMA page_count") ?? 0) * (try connection.integer("PRAGMA page_size") ?? 0)
}

/// An anonymous game (its players' names unclaimed) that ended `daysAgo` days before `now`.
private func anonymousGame(_ index: Int, endedDaysAgo daysAgo: Int = 0, now: WallClockTime = .now()) -> GameRecord {
    sampleTwoSeatGame(room: "anon\(index)", started: now.unixMilliseconds - Int64(daysAgo) * 86_400_000 - 40_000)
}

@Test("a store past its size limit prunes the oldest anonymous games first, keeps every rated one, and stops growing")
func sizeLimitPrunesOldestAnonymousFirst() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    let log = FailureLog()
    let store = try GameStore(path: path, retention: Retention(anonymousDays: nil, maxMegabytes: 1)) { log.append($0) }
    // Rated games first, so that they are the oldest: age alone would take them.
    _ = try store.claimOrVerify(name: "ann", password: "a")
    _ = try store.claimOrVerify(name: "bob", password: "b")
    for index in 0..<50 { try store.record(ratedGame("ann", "bob", winner: index % 2)) }
    for index in 0..<400 { try store.record(anonymousGame(index)) }
    store.flush()
    let rated = try ids(path, rated: true)
    #expect(rated.count == 50)
    store.prune()
    #expect(store.gamesPruned == 0, "under the limit, nothing goes")

    var sizes: [Int] = []
    for round in 1...4 {
        for index in 0..<1500 { try store.record(anonymousGame(round * 10_000 + index)) }
        store.flush()
        store.prune()
        sizes.append(try databaseBytes(path))
    }
    #expect(store.gamesPruned > 0)
    #expect(try ids(path, rated: true) == rated, "every rated game is kept")
    let anonymous = try ids(path, rated: false)
    let allAnonymous = Set(anonymous)
    // What is left of the anonymous games is the newest of them: every one pruned is older than every one kept.
    #expect(try outsideConnection(path).integer("SELECT max(id) FROM games") == anonymous.last.map(Int.init))
    let oldestKept = try #require(anonymous.first)
    #expect(allAnonymous.count == anonymous.count)
    #expect(anonymous.count == Int(try #require(anonymous.last) - oldestKept) + 1, "the kept anonymous games are one run of ids")
    #expect(store.gamesStored == 50 + anonymous.count)
    // The file stops growing: at most the limit after every round.
    #expect(sizes.allSatisfy { $0 <= 1_048_576 }, "\(sizes)")
    #expect(log.all.isEmpty, "\(log.all)")
}

@Test("anonymous games older than --keep-days go; claimed games of the same age and younger anonymous ones stay",
      arguments: BackEnd.tested)
func ageLimitPrunesOldAnonymousGames(_ backEnd: BackEnd) throws {
    let fixture = try BackEndFixture(backEnd, retention: Retention(anonymousDays: 30, maxMegabytes: nil))
    let store = fixture.store
    let now = WallClockTime.now()
    _ = try store.claimOrVerify(name: "cat", password: "c")
    _ = try store.claimOrVerify(name: "dog", password: "d")
    for index in 0..<300 { try store.record(anonymousGame(index, endedDaysAgo: 40, now: now)) }
    for _ in 0..<5 {
        var claimed = sampleTwoSeatGame(names: ("cat", "dog"), claimed: true, started: now.unixMilliseconds - 40 * 86_400_000)
        claimed.summary.room = "claimed"
        try store.record(claimed)
    }
    for index in 0..<7 { try store.record(anonymousGame(1000 + index, endedDaysAgo: 29, now: now)) }
    store.flush()
    fixture.prune(now: now)
    #expect(store.gamesPruned == 300)
    let rooms = try fixture.outsideRows("SELECT room FROM games ORDER BY id")
    #expect(rooms == Array(repeating: "claimed", count: 5) + (0..<7).map { "anon\(1000 + $0)" })
    // Their players went with them.
    #expect(try fixture.outsideRows("SELECT count(*) FROM players") == ["24"])
}

@Test("a file made without incremental vacuum is rebuilt with it at open, every game kept")
func existingFileGetsIncrementalVacuum() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    try StoreFixture.fill(path, games: 30)
    let old = try outsideConnection(path, .readWrite)
    try old.execute("PRAGMA auto_vacuum = NONE; VACUUM")
    #expect(try old.integer("PRAGMA auto_vacuum") == 0)
    let store = try openStore(path)
    #expect(try outsideConnection(path).integer("PRAGMA auto_vacuum") == 2)
    #expect(store.gamesStored == 30)
    #expect(try ids(path).count == 30)
}

@Test("the store prunes by itself, off the caller's thread, once games push it past its limit")
func storePrunesByItself() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    let store = try GameStore(path: path, retention: Retention(anonymousDays: nil, maxMegabytes: 1))
    let deadline = Date().addingTimeInterval(30)
    var index = 0
    while store.gamesPruned == 0 {
        try #require(Date() < deadline, "nothing was pruned")
        for _ in 0..<200 { try store.record(anonymousGame(index)); index += 1 }
        store.flush()
    }
    // It goes on in small steps until the file is back under its limit.
    while try databaseBytes(path) > 1_048_576 {
        try #require(Date() < deadline, "the file stayed over its limit")
        usleep(10_000)
    }
}
