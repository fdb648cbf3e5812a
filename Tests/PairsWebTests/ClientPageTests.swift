import Foundation
@testable import PairsWeb
import PairsTestSupport
import Testing

/// The page's script, between its `<script>` tags.
private var script: String {
    let html = ClientPage.html
    guard let start = html.range(of: "<script>"), let end = html.range(of: "</script>") else { return "" }
    return String(html[start.upperBound..<end.lowerBound])
}

@Test("the page is served with its type, an ETag and revalidation, and HEAD gets the headers alone")
func pageResponse() {
    let response = ClientPage.response(to: HTTPRequest(method: .get, target: "/", headers: ["Host": "a"]))
    #expect(response.status == .ok)
    #expect(response.body == ClientPage.bytes)
    #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
    #expect(response.headers["Cache-Control"] == "no-cache")
    #expect(response.headers["ETag"] == ClientPage.etag)
    #expect(ClientPage.etag.count == 42 && ClientPage.etag.hasPrefix("\"") && ClientPage.etag.hasSuffix("\""))
    let encoded = response.encoded()
    let head = response.encoded(includingBody: false)
    #expect(encoded == head + ClientPage.bytes)
    #expect(String(decoding: head, as: UTF8.self).contains("Content-Length: \(ClientPage.bytes.count)\r\n"))
}

@Test("a browser holding the current page gets 304 without a body; any other tag gets the page", arguments: [
    (ClientPage.etag, HTTPStatus.notModified), ("\"old\", \(ClientPage.etag)", .notModified), ("W/\(ClientPage.etag)", .notModified),
    ("*", .notModified), ("\"old\"", .ok), ("", .ok),
])
func conditionalRequests(ifNoneMatch: String, status: HTTPStatus) {
    let request = HTTPRequest(method: .get, target: "/", headers: ["Host": "a", "If-None-Match": ifNoneMatch])
    let response = ClientPage.response(to: request)
    #expect(response.status == status)
    #expect(response.headers["ETag"] == ClientPage.etag)
    if status == .notModified {
        #expect(!String(decoding: response.encoded(), as: UTF8.self).contains("<html"))
    }
}

@Test("the page may open WebSockets to its own server and to the origins the server lists as peers, and to nowhere else")
func pagePolicyNamesThePeers() {
    let request = HTTPRequest(method: .get, target: "/", headers: ["Host": "a"])
    #expect(ClientPage.response(to: request).headers["Content-Security-Policy"] == ClientPage.contentSecurityPolicy)
    #expect(ClientPage.contentSecurityPolicy.contains("connect-src 'self'; "))
    let policy = ClientPage.response(to: request, peers: ["http://10.0.0.2:7777", "https://pairs.example:8443"]).headers["Content-Security-Policy"]
    #expect(policy == ClientPage.contentSecurityPolicy.replacingOccurrences(
        of: "connect-src 'self';", with: "connect-src 'self' ws://10.0.0.2:7777 wss://pairs.example:8443;"))
}

@Test("the page is one document that loads nothing from anywhere else")
func pageIsSelfContained() {
    let html = ClientPage.html
    #expect(html.hasPrefix("<!doctype html>"))
    #expect(!html.contains("http://") && !html.contains("https://"))
    #expect(!html.contains(" src=") && !html.contains("@import") && !html.contains("url("))
    #expect(html.contains(#"<link rel="icon" href="data:,">"#))
    // Small enough to load at once over a busy party Wi-Fi and to read in one sitting (the lobby, the game
    // and the tournament view with its projector layout).
    #expect(ClientPage.bytes.count < 80 * 1024)
}

@Test("the binary serves exactly the page file of the sources, embedded when it was built")
func pageIsTheSourceFile() throws {
    let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() // the package
        .appendingPathComponent("Sources/PairsWeb/Page/client.html")
    #expect(try Data(contentsOf: file) == Data(ClientPage.bytes))
}

@Test("the page never turns text into markup: names and chat may hold anything")
func pageInsertsTextOnly() {
    for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "createContextualFragment", "DOMParser", "eval("] {
        #expect(!script.contains(sink), "\(sink)")
    }
}

@Test("the page keeps the hooks tests and scripts rely on")
func stableHooks() {
    let code = script
    for hook in [#""data-card": index"#, #""data-state": "down""#, "node.dataset.state = data.state", #"params.get("room")"#,
                 #"params.get("name")"#, #"params.get("watch")"#, #"sessionStorage.setItem("pairs.token""#,
                 #"new WebSocket(scheme + location.host + "/ws")"#, "prefers-color-scheme", "document.body.dataset.view = view",
                 #"$("game").dataset.seat = "#, #"$("game").dataset.phase = "#, #"$("result").dataset.result = "#] {
        #expect(code.contains(hook) || ClientPage.html.contains(hook), "\(hook)")
    }
}

@Test("the page sends only requests of protocol.md and has words for every event kind")
func pageSpeaksTheProtocol() throws {
    let requests: Set<String> = ["hello", "join", "flip", "rematch", "leave", "say", "watch", "list", "resume", "ping", "stats", "help", "quit",
                                 "history", "replay", "leaderboard", "profile",
                                 "tournament_create", "tournament_join", "tournament_leave", "tournament_start", "tournament_list", "tournament_watch"]
    // Requests are object literals passed to send() or kept as the join or watch to make (`intent`,
    // `request`); other `type:` keys in the script are element attributes and rule descriptors.
    let sent = try Regex(#"(?:send\(|intent|request = )[^{\n]*\{ type: "([a-z_]+)""#)
    let sentTypes = Set(script.matches(of: sent).map { String($0.output[1].substring ?? "") })
    #expect(sentTypes.isSuperset(of: ["hello", "join", "flip", "rematch", "leave", "say", "watch", "list", "resume", "ping", "history", "leaderboard"]))
    #expect(sentTypes.isSubset(of: requests), "\(sentTypes.subtracting(requests))")
    for kind in ["join", "peek", "start", "flip", "match", "mismatch", "hide", "timeout", "over", "time_up", "exhausted", "forfeit", "leave",
                 "disconnect", "reconnect", "rematch"] {
        #expect(script.contains("case \"\(kind)\": return"), "event kind \(kind)")
    }
    for message in ["welcome", "joined", "state", "left", "rooms", "chat", "error", "bye", "pong", "leaderboard", "history"] {
        #expect(script.contains("  \(message)("), "handler for \(message)")
    }
}

@Test("the page's script is valid JavaScript (node --check)", .ownThread, Tools.needs("node"))
func scriptParses() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("pairs-page-\(ProcessInfo.processInfo.processIdentifier).js")
    try script.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let node = try Subprocess(try Tools.external("node"), ["--check", file.path])
    // Node takes a second or two to start on a machine busy with builds; thirty leave room for worse.
    #expect(try node.blockingWaitForExit(within: 30) == 0, "\(node.errorText)")
}

@Test("the lobby offers every rule of protocol.md's join, variants included, and words for names a server refuses")
func pageOffersEveryRule() {
    for rule in ["seats", "match", "deck", "scoring", "flip_cost", "mismatch_penalty", "match_bonus", "pairs", "turn_seconds",
                 "game_seconds", "peek_ms", "reveal_ms", "again_on_match"] {
        #expect(script.contains("{ key: \"\(rule)\""), "rule \(rule)")
    }
    for code in ["name_taken", "bad_password", "no_storage"] {
        #expect(script.contains("\(code): \""), "words for \(code)")
    }
}
