import Foundation
import PairsTestSupport
import Testing

/// The browser page played for real: headless Chromium, driven from Python with Selenium by
/// `Tests/Browser/play_page.py`, against the real `pairs serve` and `pairs bot`.
enum BrowserRun {
    /// The driver script, found from this source file.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // PairsClientTests
        .deletingLastPathComponent() // Tests
        .appendingPathComponent("Browser/play_page.py")

    /// The screenshots the game's driver must write, and how wide each is in CSS pixels (one pixel each).
    static let screenshots: [(name: String, width: Int)] = [("lobby-360.png", 360), ("lobby-1280.png", 1280), ("game-360.png", 360), ("game-360-dark.png", 360),
                              ("game-1280.png", 1280), ("watch-1280.png", 1280), ("reveal-360.png", 360)]

    /// The longest the driver may take in all (it checks this itself and says what it was waiting for);
    /// a run takes about 10 s on a quiet machine, and 50 s ran out once with CI's tests and a release build
    /// sharing the two cores with the browsers.
    static let driverSeconds = 100

    /// Where a test's screenshots go: `test-output/NAME/` beside the `pairs` binary of this build (so under
    /// `.build/debug/`), emptied first so that every file in it is from the latest run.
    static func outputDirectory(named name: String) throws -> URL {
        let directory = try Tools.pairs().deletingLastPathComponent().appendingPathComponent("test-output/\(name)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Starts `pairs serve` on a free port of 127.0.0.1 with `arguments` after the address; stop it with
    /// `terminate()`.
    static func serve(_ arguments: [String]) async throws -> (server: Subprocess, port: Int) {
        let server = try Subprocess(try Tools.pairs(), ["serve", "--host", "127.0.0.1", "--port", "0", "--log-level", "warning"] + arguments)
        let listening = try await server.waitForLine("the listening line") { $0.hasPrefix("pairs listening on ") }.line
        guard let port = listening.split(separator: ":").last.flatMap({ Int($0) }) else {
            server.terminate()
            throw TimedOut(what: "a port in the listening line, got \"\(listening)\"")
        }
        return (server, port)
    }

    /// Runs the driver against the server on `port` with `arguments`, writing its screenshots to `output`,
    /// and expects it to pass; returns the lines it printed.
    static func drive(port: Int, output: URL, seconds: Int = driverSeconds, _ arguments: [String]) async throws -> [String] {
        let driver = try Subprocess(try Tools.external("python3"), [script.path, "--url", "http://127.0.0.1:\(port)/", "--out", output.path,
                                    "--chromium", try Tools.external("chromium").path, "--chromedriver", try Tools.external("chromedriver").path,
                                    "--seconds", String(seconds)] + arguments)
        defer { driver.terminate() }
        let status = try await driver.waitForExit(timeout: .seconds(seconds + 20))
        let transcript = driver.lines.joined(separator: "\n") + "\n" + driver.errorText
        #expect(status == 0, "\(transcript)")
        #expect(driver.lines.last == "passed", "\(transcript)")
        return driver.lines
    }

    /// Expects each screenshot in `output`, a PNG image as wide as said.
    static func expectScreenshots(_ screenshots: [(name: String, width: Int)], in output: URL) {
        for (name, width) in screenshots {
            let file = output.appendingPathComponent(name)
            let data = try? Data(contentsOf: file)
            #expect(data.flatMap(pngWidth) == width, "\(file.path)")
        }
    }

    /// The width of a PNG image from its header, or nil if `data` is not a PNG.
    static func pngWidth(_ data: Data) -> Int? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else {
            return nil
        }
        return bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
    }
}

@Test("the page plays a whole game against pairs bot in headless Chromium: joined by URL, every flip ends its animation in its data-state, a mismatch is shown then hidden, a reload resumes the seat, a second browser watches, the result agrees with the bot's, and leaving goes back to the lobby",
      Tools.needs("python3", "chromium", "chromedriver", pythonModules: ["selenium"]), .timeLimit(.minutes(4)))
func browserPlaysAGame() async throws {
    let output = try BrowserRun.outputDirectory(named: "browser-page")
    // Three pairs, dealt from a fixed seed: the game is the same every run, and in it the phone flips four
    // cards (every way of flipping: a tap, a click, the keyboard) and mismatches once, so the reveal is seen
    // and the page is reloaded mid-game (the driver fails if any of that did not happen). The reveal stays at
    // a second: the driver must see the mismatched cards settle face up (a 0.4 s flip) before they turn back.
    let (server, port) = try await BrowserRun.serve(["--data", "none", "--pairs", "3", "--reveal-ms", "1000", "--turn-seconds", "30",
                                                     "--seed", "5"])
    defer { server.terminate() }
    // The bot plays on after the game (it asks for a rematch), so the result stays on the page to be read.
    let bot = try Subprocess(try Tools.pairs(), ["bot", "--host", "127.0.0.1", "--port", String(port), "--room", "browser",
                                                 "--think-ms", "50", "--name", "robo", "--seed", "3"])
    defer { bot.terminate() }
    let lines = try await BrowserRun.drive(port: port, output: output,
                                           ["--room", "browser", "--name", "<b>ann</b>&amp;", "--opponent", "robo"])

    // The page's result is the bot's, seen from the other side.
    let result = try #require(lines.first { $0.hasPrefix("result: ") }).split(separator: " ")
    let botLine = try await bot.waitForLine("the bot's game line") { GameLine($0) != nil }.line
    let game = try #require(GameLine(botLine))
    #expect(game.opponent == "<b>ann</b>&amp;")
    #expect(result.count == 4 && Int(result[2]) == game.opponentScore && Int(result[3]) == game.score, "\(result) against \(botLine)")
    let opposite = ["won": "lost", "lost": "won", "draw": "draw"]
    #expect(result.count == 4 && opposite[String(result[1])] == game.result, "\(result) against \(botLine)")
    BrowserRun.expectScreenshots(BrowserRun.screenshots, in: output)
}

// A test of its own, beside the game rather than after it, so that neither is the whole suite's longest wait.
@Test("the page plays a solo game of playing cards in headless Chromium with the rules chosen in the lobby's form: every flip ends its animation in its data-state, red and black suits each keep one colour, and the game ends with its result; then a solo game left to run out of time shows every face never found, dimmed, until the next game starts",
      Tools.needs("python3", "chromium", "chromedriver", pythonModules: ["selenium"]), .timeLimit(.minutes(4)))
func browserPlaysSoloCards() async throws {
    let output = try BrowserRun.outputDirectory(named: "browser-solo")
    // A fixed deal, in which the phone sees cards of both colours.
    let (server, port) = try await BrowserRun.serve(["--data", "none", "--seed", "3"])
    defer { server.terminate() }
    // The game of cards, then a game against a 3-second clock and the start of the next.
    _ = try await BrowserRun.drive(port: port, output: output, seconds: BrowserRun.driverSeconds + 30, ["--scenario", "solo"])
    BrowserRun.expectScreenshots([("rules-360.png", 360), ("solo-cards-360.png", 360), ("solo-time-up-360.png", 360)], in: output)
}

@Test("on a server that keeps games, the page asks for a claimed name's password, refuses a wrong one, takes the right one, and two claimed names play a game the lobby's ladder and last games then show",
      Tools.needs("python3", "chromium", "chromedriver", pythonModules: ["selenium"]), .timeLimit(.minutes(4)))
func browserClaimsNames() async throws {
    let output = try BrowserRun.outputDirectory(named: "browser-names")
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("pairs-browser-\(ProcessInfo.processInfo.processIdentifier).db")
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: data.path + suffix) } }
    // A fixed deal, on which the two pages' game is over in four flips.
    let (server, port) = try await BrowserRun.serve(["--data", data.path, "--turn-seconds", "0", "--seed", "2"])
    defer { server.terminate() }
    _ = try await BrowserRun.drive(port: port, output: output, ["--scenario", "names", "--name", "cat"])
    BrowserRun.expectScreenshots([("ladder-360.png", 360), ("ladder-1280.png", 1280)], in: output)
}

/// Reloads after idle times, in the lobby and in a game, and many in a row, in one browser against a
/// server whose silent connections from a page visitor are closed after `silence` seconds (nil: the
/// default); `idle` are the idle times, `reloads` the reloads in a row.
private func reloadAfterIdleTimes(_ idle: [Int], reloads: Int, silence: Int?, named name: String) async throws {
    let output = try BrowserRun.outputDirectory(named: name)
    let (server, port) = try await BrowserRun.serve(["--data", "none", "--turn-seconds", "0", "--seed", "4"]
                                                     + (silence.map { ["--visitor-silence-seconds", String($0)] } ?? []))
    defer { server.terminate() }
    let bot = try Subprocess(try Tools.pairs(), ["bot", "--host", "127.0.0.1", "--port", String(port), "--room", "reload",
                                                 "--think-ms", "50", "--name", "robo", "--seed", "3"])
    defer { bot.terminate() }
    // The idle times, two reloads each, the reloads in a row at a few seconds each, then a restart and a
    // solo game, on a busy machine.
    let seconds = idle.reduce(0, +) * 2 + reloads * 3 + 90
    let driver = try Subprocess(try Tools.external("python3"), [BrowserRun.script.path, "--scenario", "reloads",
                                "--url", "http://127.0.0.1:\(port)/", "--out", output.path, "--room", "reload", "--name", "frank",
                                "--opponent", "robo", "--server-pid", String(server.pid), "--pairs", try Tools.pairs().path, "--reloads", String(reloads), "--idle"]
                                + idle.map(String.init) + ["--chromium", try Tools.external("chromium").path,
                                "--chromedriver", try Tools.external("chromedriver").path, "--seconds", String(seconds)])
    defer { driver.terminate() }
    let status = try await driver.waitForExit(timeout: .seconds(seconds + 20))
    let transcript = driver.lines.joined(separator: "\n") + "\n" + driver.errorText
    #expect(status == 0, "\(transcript)")
    #expect(driver.lines.last == "passed", "\(transcript)")
}

@Test("""
    the page reloads in headless Chromium after 0, 5 and 20 s idle, in the lobby and in a game (taking the seat \
    back each time), and 20 times in a row, with the sockets Chromium opened ahead of need never greeted and \
    closed after 8 s of silence; a first visit to a stopped server loads too; after a restart mid-game the \
    page says the seat and the game are lost; a board of 8 pairs with its result fits 1280x720, 1366x650 and 390x844
    """,
      Tools.needs("python3", "chromium", "chromedriver", pythonModules: ["selenium"]), .timeLimit(.minutes(5)))
func browserReloadsAfterIdleTimes() async throws {
    try await reloadAfterIdleTimes([0, 5, 20], reloads: 20, silence: 8, named: "browser-reloads")
}

@Test("""
    the page reloads in headless Chromium after 70 s idle, in the lobby and in a game, on a server with the \
    default silence bound (a slow test: PAIRS_SLOW_TESTS=1 runs it)
    """,
      Tools.needs("python3", "chromium", "chromedriver", pythonModules: ["selenium"]),
      .enabled(if: ProcessInfo.processInfo.environment["PAIRS_SLOW_TESTS"] == "1", "a slow test: set PAIRS_SLOW_TESTS=1"),
      .timeLimit(.minutes(6)))
func browserReloadsAfterALongIdle() async throws {
    try await reloadAfterIdleTimes([70], reloads: 1, silence: nil, named: "browser-reloads-slow")
}
