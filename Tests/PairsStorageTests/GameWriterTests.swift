import Foundation
import PairsTestSupport
@testable import PairsStorage
import Synchronization
import Testing

@Test("the writer commits many games in few transactions, and every one is there after a flush", .ownThread)
func writerBatchesGames() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    let count = 2_000
    try fixture.record((0..<count).map { sampleTwoSeatGame(room: "room\($0)", started: sampleStart + Int64($0)) })
    #expect(store.gamesStored == count)
    #expect(store.storageErrors == 0)
    #expect(fixture.log.all.isEmpty)
    // At most `maxBatch` games per transaction, and far fewer transactions than games: recording takes
    // microseconds, so each batch window collects hundreds.
    let batches = store.writer.batches.load(ordering: .relaxed)
    #expect(batches >= count / GameWriter.maxBatch)
    #expect(batches <= count / 10)
    // Every game, in the order handed over.
    var rooms: [String] = []
    var before: GameID?
    while true {
        let page = try store.history(limit: 100, before: before)
        guard let last = page.last else { break }
        rooms += page.map(\.summary.room)
        before = last.id
    }
    #expect(rooms == (0..<count).reversed().map { "room\($0)" })
}

@Test("a game handed to the writer is in the file 200 ms later, for another connection, without a flush", .ownThread)
func writerCommitsWithinTheWindow() throws {
    let fixture = try StoreFixture()
    try fixture.store.record(sampleTwoSeatGame())
    // The promise: a game whose end was sent 200 ms before the server is killed is kept. A
    // connection of its own sees only what is committed to the file.
    Thread.sleep(forTimeInterval: 0.2)
    let outside = try outsideConnection(fixture.path)
    #expect(try outside.integer("SELECT count(*) FROM games") == 1)
    #expect(try outside.integer("SELECT count(*) FROM players") == 2)
}

@Test("letting go of the store commits what was waiting", .ownThread)
func releasingTheStoreFlushes() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    try StoreFixture.fill(path, games: 50)
    #expect(try openStore(path).gamesStored == 50)
}

@Test("games beyond the writer's backlog while the disk is stuck are dropped and counted; the rest are kept", .ownThread)
func backlogIsBounded() throws {
    let fixture = try StoreFixture()
    let (store, log) = (fixture.store, fixture.log)
    // Another connection holds the write lock, so the writer's first batch waits (up to its busy timeout)
    // while games keep coming.
    let blocker = try outsideConnection(fixture.path, .readWrite)
    try blocker.execute("BEGIN IMMEDIATE")
    let game = sampleTwoSeatGame()
    // The waiting batch holds at most `maxBatch`, the backlog `maxBacklog`: some of these must be dropped.
    let handedOver = GameWriter.maxBacklog + GameWriter.maxBatch + 10
    for _ in 0..<handedOver { try store.record(game) }
    try blocker.execute("ROLLBACK")
    store.flush()
    let dropped = log.all.count
    #expect(dropped >= 10)
    #expect(log.all.allSatisfy { $0 == .backlogFull(room: game.summary.room) })
    #expect(store.storageErrors == dropped)
    #expect(store.gamesStored + dropped == handedOver)
    #expect(try outsideConnection(fixture.path).integer("SELECT count(*) FROM games") == store.gamesStored)
}

@Test("a failure callback may flush the store from the writer's own thread without waiting for itself", .ownThread)
func flushFromTheCallbackReturns() throws {
    let directory = try TemporaryDirectory()
    let holder = Mutex<GameStore?>(nil)
    let flushedInCallback = Atomic<Bool>(false)
    let store = try GameStore(path: directory.file("pairs.db")) { _ in
        guard let store = holder.withLock({ $0 }) else { return }
        store.flush()
        flushedInCallback.store(true, ordering: .relaxed)
    }
    holder.withLock { $0 = store }
    defer { holder.withLock { $0 = nil } }
    var broken = sampleTwoSeatGame()
    broken.summary.rules.json = "not json"
    // No flush from here: the batch window commits it on the writer's thread, which calls back.
    try store.record(broken)
    try blockingWaitUntil("the callback's flush to return", within: 10) { flushedInCallback.load(ordering: .relaxed) }
}
