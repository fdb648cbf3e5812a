import Foundation
import PairsServer
import PairsTestSupport
import Testing

/// The dashboard in a real browser: headless Chromium driven by `Tests/Browser/dashboard_page.py`, against
/// a server on which `pairs load` plays games until the driver has seen them drawn.
@Test("the dashboard in headless Chromium at 1280x800 and 390x844 (dark) polls /stats, draws its lines with points, logs no console error, shows no room name, and once the games stop shows exactly the numbers /stats gives, a row per event loop included",
      Tools.needs("python3", "chromium", "chromedriver", pythonModules: ["selenium"]), .timeLimit(.minutes(2)))
func dashboardInTheBrowser() async throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/dashboard_page.py")
    // Beside the build's binary (`.build/debug/test-output/dashboard/`), emptied so every file is this run's.
    let output = try Tools.pairs().deletingLastPathComponent().appendingPathComponent("test-output/dashboard")
    try? FileManager.default.removeItem(at: output)
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

    // Two loops at least: the page's row per loop is checked against /stats, which lists loops only from a
    // server with more than one.
    let server = try startServer { $0.loops = max(testLoops, 2) }
    defer { server.stop() }
    let prefix = "dashboard-room-"
    let load = try Subprocess(try Tools.pairs(), ["load", "--host", "127.0.0.1", "--port", String(server.port), "--concurrency", "3",
                                                  "--duration", "100", "--room-prefix", prefix])
    defer { load.terminate() }
    let driver = try Subprocess(try Tools.external("python3"), [
        script.path, "--url", "http://127.0.0.1:\(server.port)/", "--room-prefix", prefix, "--out", output.path,
        "--chromium", try Tools.external("chromium").path, "--chromedriver", try Tools.external("chromedriver").path, "--seconds", "80",
    ])
    defer { driver.terminate() }
    // The games stop once the page has drawn them, so the driver can compare its numbers with /stats.
    do {
        _ = try await driver.waitForLine(timeout: .seconds(80), "the desktop view drawn") { $0.hasPrefix("ok: 1280x800") }
    } catch {
        Issue.record("\(error)\n\(driver.lines.joined(separator: "\n"))\n\(driver.errorText)")
        return
    }
    load.terminate()
    let status = try await driver.waitForExit(timeout: .seconds(90))
    let transcript = driver.lines.joined(separator: "\n") + "\n" + driver.errorText
    #expect(status == 0, "\(transcript)")
    #expect(driver.lines.last == "passed", "\(transcript)")
    for name in ["dashboard-1280.png", "dashboard-390-dark.png"] {
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(name).path), "\(name)\n\(transcript)")
    }
}
