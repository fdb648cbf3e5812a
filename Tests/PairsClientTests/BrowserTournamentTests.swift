import Foundation
import PairsTestSupport
import Testing

/// A tournament through the browser page: headless Chromium driven from Python with Selenium by
/// `Tests/Browser/tournament_page.py`, against the real `pairs serve` and three `pairs bot --tournament`.
private enum TournamentRun {
    static let script = BrowserRun.script.deletingLastPathComponent().appendingPathComponent("tournament_page.py")

    /// The longest the driver may take in all (it checks this itself and says what it was waiting for): two
    /// rounds of games on a board of three pairs, 10 s between them, take about 40 s on a quiet machine.
    static let driverSeconds = 170

    /// The screenshots the driver must write, and how wide each is in CSS pixels.
    static let screenshots: [(name: String, width: Int)] = [("tournament-lobby-390.png", 390), ("tournament-390.png", 390), ("tournament-game-390.png", 390),
        ("tournament-final-390.png", 390), ("projector-1920.png", 1920), ("projector-final-1920.png", 1920)]
}

@Test("""
    a Swiss of four in headless Chromium: a phone makes it from the lobby's form and enters it with a name of \
    markup shown as text, three pairs bot --tournament fill it, the server seats the phone in both its games \
    (the game screen names the tournament and round), the phone's and a projector page's standings come to \
    equal the tournament's messages as each game ends, the projector shows the round's games beside the \
    standings with a live score, and the bots play two games each and exit 0
    """,
      Tools.needs("python3", "chromium", "chromedriver", pythonModules: ["selenium"]), .timeLimit(.minutes(4)))
func browserRunsASwiss() async throws {
    let output = try BrowserRun.outputDirectory(named: "browser-tournament")
    // A board of three pairs: short games. The deal is fixed; who meets whom is the Swiss's own rule.
    let (server, port) = try await BrowserRun.serve(["--data", "none", "--pairs", "3", "--turn-seconds", "30", "--seed", "5"])
    defer { server.terminate() }
    let seconds = TournamentRun.driverSeconds
    let driver = try Subprocess(try Tools.external("python3"), [TournamentRun.script.path, "--url", "http://127.0.0.1:\(port)/",
                                "--pairs", try Tools.pairs().path, "--out", output.path, "--chromium", try Tools.external("chromium").path,
                                "--chromedriver", try Tools.external("chromedriver").path, "--seconds", String(seconds)])
    defer { driver.terminate() }
    let status = try await driver.waitForExit(timeout: .seconds(seconds + 20))
    let transcript = driver.lines.joined(separator: "\n") + "\n" + driver.errorText
    #expect(status == 0, "\(transcript)")
    #expect(driver.lines.last == "passed", "\(transcript)")
    BrowserRun.expectScreenshots(TournamentRun.screenshots, in: output)
    for (name, _) in TournamentRun.screenshots { print("screenshot: \(output.appendingPathComponent(name).path)") }
}

@Test("""
    an arena in headless Chromium: the phone makes one that waits for its Start and watches it, is refused a \
    start with nobody in it and a second arena of the same name in words, starts it once two pairs bot \
    --tournament and a raw entrant are in, sees its clock count down and the raw entrant paused and greyed, and \
    ends on the watcher's standings with streaks; first, a tournament of 48 entrants sent in two lines is shown whole
    """,
      Tools.needs("python3", "chromium", "chromedriver", pythonModules: ["selenium"]), .timeLimit(.minutes(3)))
func browserRunsAnArena() async throws {
    let output = try BrowserRun.outputDirectory(named: "browser-arena")
    let (server, port) = try await BrowserRun.serve(["--data", "none", "--pairs", "3", "--turn-seconds", "30", "--seed", "5"])
    defer { server.terminate() }
    // A 12-second arena, and its last game, on a busy machine.
    let seconds = 100
    let driver = try Subprocess(try Tools.external("python3"), [TournamentRun.script.path, "--scenario", "arena", "--minutes", "0.2",
                                "--url", "http://127.0.0.1:\(port)/", "--pairs", try Tools.pairs().path, "--out", output.path,
                                "--chromium", try Tools.external("chromium").path, "--chromedriver", try Tools.external("chromedriver").path,
                                "--seconds", String(seconds)])
    defer { driver.terminate() }
    let status = try await driver.waitForExit(timeout: .seconds(seconds + 20))
    let transcript = driver.lines.joined(separator: "\n") + "\n" + driver.errorText
    #expect(status == 0, "\(transcript)")
    #expect(driver.lines.last == "passed", "\(transcript)")
    BrowserRun.expectScreenshots([("arena-390.png", 390), ("arena-final-390.png", 390)], in: output)
}
