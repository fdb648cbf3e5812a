#if Cluster
import Foundation
import PairsCluster
import PairsTestSupport
import Testing

/// The browser page sent between real `pairs serve --cluster` instances on one real redis-server: headless
/// Chromium, driven from Python with Selenium by `Tests/Browser/redirect_page.py`, against the real `pairs bot`.
@Suite("The browser page follows redirects between pairs serve instances", .ownThread,
       Tools.needs("redis-server", "python3", "chromium", "chromedriver", pythonModules: ["selenium"]))
struct ClusterBrowserTests {
    /// The longest the driver may take in all (it checks this itself and says what it was waiting for).
    static let driverSeconds = 90
    /// Bounds the bot's game and exit: a debug build on a busy machine is slow.
    static let exitSeconds: TimeInterval = 120

    /// The driver script, found from this source file.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // PairsClusterTests
        .deletingLastPathComponent() // Tests
        .appendingPathComponent("Browser/redirect_page.py")

    @Test("a page says it follows redirects: sent to the room's owner, it moves its socket there between instances that list each other as peers, and goes on as the owner's page where not")
    func pageFollowsRedirects() throws {
        let redis = try RedisServer()
        // The owner and `allowed` list each other as peers (`--allow-origin`): each lets the other's pages
        // connect, and its own page connect there. `elsewhere` lists nobody. The owner's port is chosen first,
        // so that `allowed` can name it.
        let ownerPort = try RedisServer.freePort()
        let allowed = try ServeInstance(redis: redis, flags: ["--allow-origin", "http://127.0.0.1:\(ownerPort)"])
        let elsewhere = try ServeInstance(redis: redis)
        let owner = try ServeInstance(redis: redis, port: ownerPort, flags: ["--allow-origin", "http://\(allowed.address)", "--turn-seconds", "0"])
        let bot = try Subprocess(try Tools.pairs(), ["bot", "--host", "127.0.0.1", "--port", String(owner.port), "--room", "kitchen",
                                                     "--games", "1", "--think-ms", "0", "--name", "bob"])
        let peer = ClusterRegistry(client: redis.client(), address: "test:1")
        #expect(try blockingWaitFor("kitchen owned", within: Self.exitSeconds) { try peer.owner(ofRoom: "kitchen")?.address } == owner.address)
        let output = try Tools.pairs().deletingLastPathComponent().appendingPathComponent("test-output/cluster-browser")
        try? FileManager.default.removeItem(at: output)
        let driver = try Subprocess(try Tools.external("python3"), [
            Self.script.path, "--owner", "http://\(owner.address)/", "--allowed", "http://\(allowed.address)/",
            "--elsewhere", "http://\(elsewhere.address)/", "--room", "kitchen", "--opponent", "bob", "--out", output.path,
            "--chromium", try Tools.external("chromium").path, "--chromedriver", try Tools.external("chromedriver").path,
            "--seconds", String(Self.driverSeconds),
        ])
        defer { driver.terminate() }
        let status = try driver.blockingWaitForExit(within: TimeInterval(Self.driverSeconds + 30))
        let transcript = driver.lines.joined(separator: "\n") + "\n" + driver.errorText
        #expect(status == 0, "\(transcript)")
        #expect(driver.lines.last == "passed", "\(transcript)")
        // The game was the bot's on the owner: it finished it with the page's player.
        #expect(try bot.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(bot.errorText)")
        #expect(bot.lines.contains { $0.hasPrefix("game 1: bob ") && $0.contains(" ann") }, "\(bot.lines)")
    }
}
#endif
