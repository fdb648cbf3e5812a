import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsTestSupport
import Testing

/// The longest the driver may take in all (it checks this itself); four page loads take a few seconds.
private let driverSeconds = 60

@Test("A pairs load --report page opened from disk in headless Chromium at 390x844 and 1280x800, light and dark: no console error, every chart drawn, every number shown equal to the run's JSON, no sideways scrolling",
      Tools.needs("python3", "chromium", "chromedriver", pythonModules: ["selenium"]), .timeLimit(.minutes(3)))
func reportPageInChromium() async throws {
    let server = try startServer()
    defer { server.stop() }
    // Where the screenshots go: test-output/load-report/ beside the pairs binary, emptied first.
    let output = try Tools.pairs().deletingLastPathComponent().appendingPathComponent("test-output/load-report")
    try? FileManager.default.removeItem(at: output)
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    let page = output.appendingPathComponent("report.html")
    let json = output.appendingPathComponent("run.json")

    // A run of a few seconds, so the charts have several seconds to draw.
    let load = try Subprocess(try Tools.pairs(), ["load", "--host", "127.0.0.1", "--port", "\(server.port)", "--duration", "3",
                                                  "--concurrency", "4", "--json", "--report", page.path, "--server-pid", "\(getpid())"])
    let status = try await load.waitForExit(timeout: .seconds(60))
    #expect(status == 0, "\(load.errorText)")
    try (load.lines.joined(separator: "\n") + "\n").write(to: json, atomically: true, encoding: .utf8)

    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/report_page.py")
    let driver = try Subprocess(try Tools.external("python3"), [script.path, "--page", page.path, "--json", json.path, "--out", output.path,
                                "--chromium", try Tools.external("chromium").path, "--chromedriver", try Tools.external("chromedriver").path,
                                "--seconds", String(driverSeconds)])
    defer { driver.terminate() }
    let driven = try await driver.waitForExit(timeout: .seconds(driverSeconds + 30))
    let transcript = driver.lines.joined(separator: "\n") + "\n" + driver.errorText
    #expect(driven == 0, "\(transcript)")
    #expect(driver.lines.last == "passed", "\(transcript)")
    #expect(driver.lines.filter { $0.contains("numbers equal the JSON's") }.count == 4, "\(transcript)")
    for name in ["report-390.png", "report-390-dark.png", "report-1280.png", "report-1280-dark.png"] {
        let data = try? Data(contentsOf: output.appendingPathComponent(name))
        #expect(data.map { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) } == true, "\(name) is a PNG")
    }
}
