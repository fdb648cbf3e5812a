import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsRules
@testable import PairsServer
@testable import PairsStorage
import PairsTestSupport
import Synchronization
import PairsWire
import Testing

/// A server on 127.0.0.1 keeping its games in `path`.
private func keepingServer(at path: String, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Server {
    let store = try GameStore(path: path) { failure in Issue.record("storage failed: \(failure)") }
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.log.level = .error
    configuration.lobby.defaultRules = RuleSet(pairs: 2, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true)
    configuration.loops = testLoops
    configure(&configuration)
    let server = Server(configuration: configuration, store: store)
    try server.start()
    return server
}

extension TestClient {
    /// Says hello as `name` (with `password` if given) and waits for the welcome or the refusal.
    @discardableResult
    func hello(_ name: String, password: String? = nil) throws -> ServerMessage {
        let secret = password.map { #","password":"\#($0)""# } ?? ""
        send(#"{"type":"hello","name":"\#(name)"\#(secret)}"#)
        return try waitFor("the answer to hello") {
            switch $0 {
            case .welcome(let welcome): welcome.name == name
            case .error: true
            default: false
            }
        }
    }

    /// Sends `request` and reads every line of its answer, a long one's `more` lines included.
    func ask(_ request: String, type: String) throws -> [ServerMessage] {
        send(request)
        var lines: [ServerMessage] = []
        while true {
            let message = try waitFor("a \(type) answer") { message in
                switch message {
                case .history, .replay, .replayMoves, .leaderboard, .profile, .error: true
                default: false
                }
            }
            lines.append(message)
            switch message {
            case .history(let page) where page.more: continue
            case .replay(let replay) where replay.more: continue
            case .replayMoves(let part) where part.more: continue
            case .leaderboard(let board) where board.more: continue
            case .profile(let profile) where profile.more: continue
            default: return lines
            }
        }
    }
}

/// Two claimed players play a whole game in room `room`; returns the last state both saw.
private func playClaimedGame(on server: Server, room: String) throws -> (final: WireState, players: [TestClient]) {
    let ann = try TestClient(port: server.port)
    let bob = try TestClient(port: server.port)
    #expect(try ann.hello("ann", password: "ann's secret").isWelcome)
    #expect(try bob.hello("bob", password: "bob's secret").isWelcome)
    try ann.join(room)
    try bob.join(room)
    _ = try ann.waitForState { $0.state.phase == .playing }
    let final = try playToEnd([ann, bob])
    return (final, [ann, bob])
}

extension ServerMessage {
    var isWelcome: Bool { if case .welcome = self { true } else { false } }
}

@Suite("Games kept in SQLite", .ownThread)
struct StorageTests {
    @Test("a finished game is in the history, its replay plays it again to the same board, and both claimed players are rated")
    func gameRecordedAndReadBack() throws {
        let directory = try TemporaryDirectory()
        let server = try keepingServer(at: directory.database)
        defer { server.stop() }
        let (final, players) = try playClaimedGame(on: server, room: "kept")
        let looker = try TestClient(port: server.port)
        // A game is in the history as soon as its last state has been sent.
        guard case .history(let page)? = try looker.ask(#"{"type":"history","id":1}"#, type: "history").first else {
            Issue.record("no history"); return
        }
        let games = page.games
        let game = try #require(games.first)
        #expect(game.room == "kept")
        #expect(game.players.map(\.name) == ["ann", "bob"])
        #expect(game.players.map(\.claimed) == [true, true])
        #expect(game.players.map(\.score) == final.players.map { $0?.score ?? -1 })
        #expect(game.winner == final.outcome?.winner)
        #expect(game.end == .cleared)
        #expect(game.rated)
        #expect(game.started.hasSuffix("Z") && game.started <= game.ended)

        let answer = try looker.ask(#"{"type":"replay","game":\#(game.game),"id":2}"#, type: "replay")
        guard case .replay(var replay)? = answer.first else { Issue.record("no replay: \(answer)"); return }
        for case .replayMoves(let part) in answer.dropFirst() { replay = replay.appending(part) }
        #expect(replay.moves.count == game.flips)
        let replayed = try replay.states()
        #expect(replayed.last?.cards == final.cards, "the replay ends on the board the game ended on")
        #expect(replayed.last?.players.map { $0?.score } == final.players.map { $0?.score })

        guard case .leaderboard(let board)? = try looker.ask(#"{"type":"leaderboard"}"#, type: "leaderboard").first,
              case .rated(let places) = board.places else { Issue.record("no leaderboard"); return }
        #expect(Set(places.map(\.standing.name)) == ["ann", "bob"])
        #expect(places.allSatisfy { $0.standing.games == 1 && $0.standing.provisional })
        #expect(places.first?.standing.wins == 1)

        guard case .profile(let profile)? = try looker.ask(#"{"type":"profile","name":"ann"}"#, type: "profile").first else {
            Issue.record("no profile"); return
        }
        #expect(profile.claimed)
        #expect(profile.totals.games == 1)
        #expect(profile.games.map(\.game) == [game.game])
        #expect(server.statistics().gamesStored == 1)
        withExtendedLifetime(players) {}
    }

    @Test("a game's last state waits for its commit at most a bounded time: with the store's write lock held elsewhere, over still arrives, and the game is kept once the lock goes")
    func stalledStoreDoesNotFreezeTheEndOfGames() throws {
        let directory = try TemporaryDirectory()
        let server = try keepingServer(at: directory.database)
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server, room: "stalled")
        // Another program holds the write lock: the writer waits for it (up to its busy timeout, 5 s).
        let blocker = try SQLiteConnection(path: directory.database, mode: .readWrite, busyTimeoutMilliseconds: 1000)
        try blocker.execute("BEGIN IMMEDIATE")
        let final = try playToEnd([first, second])
        #expect(final.phase == .over)
        #expect(server.statistics().gamesStored == 0, "over arrived before the game was committed, as it must when the disk stalls")
        try blocker.execute("COMMIT")
        let looker = try TestClient(port: server.port)
        guard case .history(let page)? = try looker.ask(#"{"type":"history"}"#, type: "history").first else {
            Issue.record("no history"); return
        }
        #expect(page.games.map(\.room) == ["stalled"])
    }

    @Test("stats and /metrics time every kept game from its end to its commit, and nothing waits once they are committed")
    func commitsAreTimed() throws {
        let directory = try TemporaryDirectory()
        let server = try keepingServer(at: directory.database)
        defer { server.stop() }
        for game in 1...3 {
            let (first, second) = try seatedPair(on: server, room: "timed-\(game)")
            _ = try playToEnd([first, second])
        }
        // A game's last state is sent once the game is committed, so all three are settled by now.
        let observer = try TestClient(port: server.port)
        observer.send(#"{"type":"stats"}"#)
        guard case .stats(let stats) = try observer.waitFor("stats", { if case .stats = $0 { true } else { false } }) else { return }
        #expect(stats.gamesStored == 3)
        #expect(stats.storeLatency.cumulativeCounts.last == 3)
        #expect(stats.storeQueue == 0)
        #expect(server.statistics().latency.cumulativeCounts.last ?? 0 > 0, "answers are timed apart from commits")

        let page = try TestClient(port: server.port)
        page.sendRaw(Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let metrics = String(decoding: try page.readToEnd(within: 20), as: UTF8.self)
        #expect(metrics.contains("\npairs_store_write_duration_seconds_count 3\n"))
        #expect(metrics.contains("\npairs_store_write_duration_seconds_bucket{le=\"+Inf\"} 3\n"))
        #expect(metrics.contains("\npairs_store_queue_games 0\n"))
    }

    @Test("nothing of a game in progress can be read: it is in no history, and no replay has it")
    func gameInProgressIsNotReadable() throws {
        let directory = try TemporaryDirectory()
        let server = try keepingServer(at: directory.database)
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server, room: "secret")
        first.send(#"{"type":"flip","card":0}"#)
        _ = try first.waitForState { $0.state.event.kind == .flip }
        let looker = try TestClient(port: server.port)
        guard case .history(let page)? = try looker.ask(#"{"type":"history"}"#, type: "history").first else {
            Issue.record("no history"); return
        }
        #expect(page.games.isEmpty)
        for game in 1...3 {
            guard case .error(let error)? = try looker.ask(#"{"type":"replay","game":\#(game)}"#, type: "replay").first else {
                Issue.record("replay \(game) answered"); return
            }
            #expect(error.code == .noSuchGame)
        }
        withExtendedLifetime(second) {}
    }

    @Test("a claimed name needs its password: without it name_taken, with a wrong one bad_password, and the name is not set")
    func claimedNamesOverTCP() throws {
        let directory = try TemporaryDirectory()
        let server = try keepingServer(at: directory.database)
        defer { server.stop() }
        let owner = try TestClient(port: server.port)
        #expect(try owner.hello("zoë", password: "correct horse").isWelcome)
        let other = try TestClient(port: server.port)
        guard case .error(let taken) = try other.hello("zoë") else { Issue.record("the name was given away"); return }
        #expect(taken.code == .nameTaken)
        guard case .error(let wrong) = try other.hello("zoë", password: "battery staple") else { Issue.record("a wrong password worked"); return }
        #expect(wrong.code == .badPassword)
        // The refused name was not set: a join seats the connection under its old name.
        try other.join("check")
        let state = try other.waitForState()
        #expect(state.state.players.first??.name != "zoë")
        #expect(try TestClient(port: server.port).hello("zoë", password: "correct horse").isWelcome)
        // The password is kept only as a salted hash.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.database))
        #expect(bytes.range(of: Data("correct horse".utf8)) == nil)
    }

    @Test("a server asked for history without a store says no_storage")
    func noStoreSaysSo() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        guard case .error(let error)? = try client.ask(#"{"type":"history","id":5}"#, type: "history").first else {
            Issue.record("history answered"); return
        }
        #expect(error.code == .noStorage)
        #expect(error.id == .integer(5))
    }
}

@Suite("pairs serve and its --data file", .ownThread)
struct StorageProcessTests {
    /// Plays one game between claimed players against a `pairs serve` process; returns the final state's
    /// arrival, as the client saw it.
    private func playOneGame(port: Int, room: String) throws -> Date {
        let ann = try TestClient(port: port)
        let bob = try TestClient(port: port)
        #expect(try ann.hello("ann", password: "a").isWelcome)
        #expect(try bob.hello("bob", password: "b").isWelcome)
        try ann.join(room, extra: #","pairs":2,"turn_seconds":0,"reveal_ms":0"#)
        try bob.join(room)
        _ = try ann.waitForState { $0.state.phase == .playing }
        _ = try playToEnd([ann, bob])
        return Date()
    }

    private func history(port: Int) throws -> [FinishedGameSummary] {
        let looker = try TestClient(port: port)
        guard case .history(let page)? = try looker.ask(#"{"type":"history"}"#, type: "history").first else { return [] }
        return page.games
    }

    /// Plays one game between two unnamed players in `room`, on the server's default rules.
    private func playAnonymousGame(port: Int, room: String) throws {
        let first = try TestClient(port: port)
        let second = try TestClient(port: port)
        try first.join(room)
        try second.join(room)
        _ = try first.waitForState { $0.state.phase == .playing }
        _ = try playToEnd([first, second])
    }

    /// What `stats` says of the store.
    private func storageHealth(port: Int) throws -> StorageHealth? {
        let client = try TestClient(port: port)
        client.send(#"{"type":"stats"}"#)
        guard case .stats(let stats) = try client.waitFor("stats", { if case .stats = $0 { true } else { false } }) else { return nil }
        return stats.storage
    }

    /// Sets the file-size limit (`prlimit`'s `SOFT:HARD` or one value for both) of a running process.
    private func setFileSizeLimit(of pid: pid_t, to limit: String) throws {
        let prlimit = try Subprocess(URL(fileURLWithPath: "/usr/bin/prlimit"), ["--pid", "\(pid)", "--fsize=\(limit)"])
        #expect(try prlimit.blockingWaitForExit(within: 10) == 0, "\(prlimit.errorText)")
    }

    /// Waits up to 20 s for `condition`.
    private func waitFor(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while try !condition() {
            guard Date() < deadline else { throw TestTimeout(what: what) }
            usleep(20_000)
        }
    }

    /// The JSON log's lines at `path`, as objects.
    private func logLines(_ path: String) throws -> [[String: Any]] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Waits up to 20 s for `count` lines of `event` in the JSON log at `path`.
    private func waitForLogLines(_ path: String, event: String, count: Int) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let lines = try logLines(path).filter { $0["event"] as? String == event }
            if lines.count >= count { return lines }
            guard Date() < deadline else { throw TestTimeout(what: "\(count) \(event) lines in the log") }
            usleep(20_000)
        }
    }

    @Test("a game whose final state was sent 200 ms before the server is killed with SIGKILL is in the history after a restart")
    func sigkillLosesNothing() throws {
        let directory = try TemporaryDirectory()
        let (first, port) = try PairsProcess.serve(["--data", directory.database])
        defer { first.terminate() }
        let ended = try playOneGame(port: port, room: "killed")
        usleep(useconds_t(max(0, 0.2 - Date().timeIntervalSince(ended)) * 1_000_000))
        first.terminate()
        let (second, secondPort) = try PairsProcess.serve(["--data", directory.database])
        defer { second.terminate() }
        let games = try history(port: secondPort)
        #expect(games.map(\.room) == ["killed"])
    }

    @Test("every game a client saw end is in the store after pairs serve is killed with SIGKILL at a random moment under load, 50 times")
    func sigkillUnderLoadLosesNoGameAClientSawEnd() throws {
        let directory = try TemporaryDirectory()
        let seen = SeenRooms()
        for kill in 0..<50 {
            let (server, port) = try PairsProcess.serve(
                ["--data", directory.database, "--pairs", "2", "--turn-seconds", "0", "--reveal-ms", "0", "--rate-limit", "0"])
            defer { server.terminate() }
            let before = seen.count
            let stop = StopFlag()
            let players = DispatchGroup()
            // Six games at once, each pair of clients playing game after game, a room each, until the kill.
            for pair in 0..<6 {
                players.enter()
                Thread.detachNewThread {
                    defer { players.leave() }
                    var game = 0
                    while !stop.isSet {
                        let room = "k\(kill)p\(pair)g\(game)"
                        guard let first = try? TestClient(port: port), let second = try? TestClient(port: port),
                              (try? first.join(room)) != nil, (try? second.join(room)) != nil,
                              (try? first.waitForState { $0.state.phase == .playing }) != nil,
                              let final = try? playToEnd([first, second]), final.phase == .over else { return }
                        seen.add(room)
                        game += 1
                    }
                }
            }
            // Under load (games ending all the time), then at a random moment among their ends.
            let deadline = Date().addingTimeInterval(30)
            while seen.count < before + 5 {
                try #require(Date() < deadline, "no games ended")
                usleep(1_000)
            }
            usleep(useconds_t.random(in: 0...50_000))
            server.send(SIGKILL)
            #expect(server.waitForExit(within: 10) != nil)
            stop.set()
            #expect(players.wait(timeout: .now() + 30) == .success)
        }
        // What a restart finds: SQLite replays the write-ahead log as it opens the file.
        let stored = Set(try SQLiteConnection(path: directory.database, mode: .readWrite, busyTimeoutMilliseconds: 1000)
            .rows("SELECT room FROM games") { $0.text(at: 0) })
        let missing = seen.all.filter { !stored.contains($0) }
        #expect(seen.count >= 100)
        #expect(missing.isEmpty, "\(missing.count) of \(seen.count) games seen to end are not in the store: \(missing.prefix(20))")
    }

    @Test("a restart keeps the games, the claimed names and the ratings")
    func restartKeepsEverything() throws {
        let directory = try TemporaryDirectory()
        do {
            let (server, port) = try PairsProcess.serve(["--data", directory.database])
            _ = try playOneGame(port: port, room: "before")
            server.send(SIGTERM)
            #expect(server.waitForExit(within: 5) == 0)
        }
        let (server, port) = try PairsProcess.serve(["--data", directory.database])
        defer { server.terminate() }
        #expect(try history(port: port).map(\.room) == ["before"])
        let impostor = try TestClient(port: port)
        guard case .error(let error) = try impostor.hello("ann", password: "not a") else { Issue.record("the claim was lost"); return }
        #expect(error.code == .badPassword)
        let looker = try TestClient(port: port)
        guard case .leaderboard(let board)? = try looker.ask(#"{"type":"leaderboard"}"#, type: "leaderboard").first,
              case .rated(let places) = board.places else { Issue.record("no leaderboard"); return }
        #expect(Set(places.map(\.standing.name)) == ["ann", "bob"])
    }

    // Torn pages, newer schemas and unwritable files are each the store's tests'; these show what the
    // operator sees.
    @Test("a file another server holds, or one that is not a database, stops pairs serve with one line and status 1 before it listens",
          arguments: ["locked", "garbage"])
    func unusableFilesStopTheServer(kind: String) throws {
        let directory = try TemporaryDirectory()
        var holder: PairsProcess?
        defer { holder?.terminate() }
        if kind == "locked" {
            holder = try PairsProcess.serve(["--data", directory.database]).process
        } else {
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: directory.database))
        }
        let refused = try PairsProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--data", directory.database])
        #expect(refused.waitForExit(within: 10) == 1)
        let error = refused.errorOutput()
        #expect(error.split(separator: "\n").count == 1, "\(error)")
        #expect(error.contains(directory.database), "\(error)")
        #expect(!error.contains("listening"))
    }

    @Test("a store that cannot write says so in the log file (a line per 10 s at most, with the games lost) and in stats; once it can again, storage_recovered, and games are kept")
    func storageFailureIsLoggedAndRecovers() throws {
        let directory = try TemporaryDirectory()
        let logPath = directory.file("pairs.log")
        // SIGXFSZ ignored (which `exec` keeps), so that a write past the file-size limit set below fails with
        // EFBIG instead of killing the server.
        let server = try PairsProcess(
            ["-c", "trap '' XFSZ; exec \"$@\"", "sh", try Tools.pairs().path, "serve", "--host", "127.0.0.1", "--port", "0",
             "--data", directory.database, "--log-file", logPath, "--log-format", "json", "--log-level", "warning",
             "--pairs", "2", "--turn-seconds", "0", "--reveal-ms", "0"],
            executable: URL(fileURLWithPath: "/bin/sh"))
        defer { server.terminate() }
        let line = try server.readLine(within: 10)
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
        try playAnonymousGame(port: port, room: "kept")
        #expect(try history(port: port).map(\.room) == ["kept"])
        #expect(try storageHealth(port: port) == .ok)

        // The disk fills: a file-size limit at the write-ahead log's size fails every write that would grow
        // it with EFBIG, as a full disk fails them with ENOSPC, for the server alone and without privileges
        // (a soft limit under an unlimited hard one, which any process may raise again).
        let wal = try #require(try FileManager.default.attributesOfItem(atPath: directory.database + "-wal")[.size] as? Int)
        try setFileSizeLimit(of: server.pid, to: "\(wal):unlimited")
        let started = Date()
        for index in 0..<5 { try playAnonymousGame(port: port, room: "lost\(index)") }
        // A history query waits for every game that ended before it to be written or lost.
        #expect(try history(port: port).map(\.room) == ["kept"])
        let first = try #require(try waitForLogLines(logPath, event: "storage_failed", count: 1).first)
        #expect((first["games_lost"] as? Int ?? 0) >= 1)
        #expect((first["error"] as? String ?? "").contains("the batch failed"), "\(first)")
        #expect(first["level"] as? String == "error")
        try waitFor("stats to say the store is failing") { try storageHealth(port: port) == .failing }

        // Space again: the next game is kept, and the log says the store recovered and what it lost.
        try setFileSizeLimit(of: server.pid, to: "unlimited")
        try playAnonymousGame(port: port, room: "after")
        let recovered = try #require(try waitForLogLines(logPath, event: "storage_recovered", count: 1).first)
        let failed = try logLines(logPath).filter { $0["event"] as? String == "storage_failed" }
        #expect(recovered["games_lost"] as? Int == 5, "\(recovered)")
        #expect(failed.reduce(0) { $0 + ($1["games_lost"] as? Int ?? 0) } == 5, "every game lost is in a storage_failed line: \(failed)")
        // However many batches failed: one line at once, at most one per 10 s after it, and one for those
        // still held when the store recovered.
        #expect(failed.count <= 2 + Int(Date().timeIntervalSince(started) / 10), "\(failed)")
        #expect(try storageHealth(port: port) == .ok)
        #expect(try history(port: port).map(\.room) == ["after", "kept"])
    }

    @Test("a second pairs serve on another name of the running server's file is refused: a hard link, a symbolic link, a path through ..",
          arguments: ["hard link", "symbolic link", "dot-dot path"])
    func otherNamesOfTheFileStopTheSecondServer(kind: String) throws {
        let directory = try TemporaryDirectory()
        let (holder, port) = try PairsProcess.serve(["--data", directory.database])
        defer { holder.terminate() }
        let other: String
        switch kind {
        case "hard link":
            other = directory.file("link.db")
            try #require(link(directory.database, other) == 0)
        case "symbolic link":
            other = directory.file("symlink.db")
            try #require(symlink(directory.database, other) == 0)
        default:
            try #require(mkdir(directory.file("sub"), 0o700) == 0)
            other = directory.file("sub/../pairs.db")
        }
        let refused = try PairsProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--data", other])
        #expect(refused.waitForExit(within: 10) == 1)
        let error = refused.errorOutput()
        #expect(error.split(separator: "\n").count == 1, "\(error)")
        #expect(error.contains("\(other) is in use by another server (pid \(holder.pid))"), "\(error)")
        // The first server kept its file to itself: it still keeps games, and the file opens whole again
        // (a store checks the file at start).
        _ = try playOneGame(port: port, room: "still")
        holder.send(SIGTERM)
        #expect(holder.waitForExit(within: 10) == 0)
        let (reopened, reopenedPort) = try PairsProcess.serve(["--data", directory.database])
        defer { reopened.terminate() }
        #expect(try history(port: reopenedPort).map(\.room) == ["still"])
    }
}

/// The rooms whose game a client saw end, from the threads that play them. Guarded by an `NSLock`, which
/// ThreadSanitizer sees, rather than a `Mutex`, which it does not (`Subprocess`).
private final class SeenRooms: @unchecked Sendable {
    private let lock = NSLock()
    private var rooms: [String] = []

    func add(_ room: String) { lock.withLock { rooms.append(room) } }
    var count: Int { lock.withLock { rooms.count } }
    var all: [String] { lock.withLock { rooms } }
}

/// Tells the threads playing games to stop.
private final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}
