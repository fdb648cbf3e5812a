/// The browser client: one HTML document with its CSS and JavaScript inline (`Page/client.html`), compiled
/// into the binary so a server needs no files installed, and no URL outside the server it came from.
///
/// It speaks protocol.md's JSON messages over `new WebSocket("ws://" + location.host + "/ws")`, one message
/// per text frame, and is a whole game client: a lobby (name, with a password for a claimed one, quick match,
/// solo, a named room, every rule of a new room, the room list with join and watch, and the ladder and last
/// games on a server that keeps them), the board (cards that flip over, playing cards in their suit's
/// colour, matched cards marked with their taker's colour and symbol), players, scores and turn, the turn and
/// game clocks, the last events in words, chat, rematch and leave, and the result. It reconnects by itself
/// and resumes its seat with the token it keeps in `sessionStorage`.
///
/// Stable hooks for tests and scripts: every card element has `data-card` (its index) and `data-state`
/// (`down`, `up` or `matched`), and a face-down card of a finished game that shows the face nobody found
/// (`down_faces`) has the class `unfound`; `body[data-view]` is `lobby` or `game`; `#game` has `data-seat` (`0`, `1`
/// or `watching`) and `data-phase`; `#result` has `data-result` (`won`, `lost`, `draw`, or `over` for a
/// spectator); `/?room=NAME&name=NAME` joins that room, `/?watch=NAME` watches it.
///
/// Edit the page as the HTML file it is; `swift test` checks its script with `node --check` and plays it in
/// headless Chromium (Tests/Browser).
public enum ClientPage {
    /// The document's bytes, as sent: `Page/client.html`, compiled into the module by SwiftPM's
    /// `embedInCode` resource rule, so the binary serves it with no file installed beside it.
    public static let bytes: [UInt8] = PackageResources.client_html

    /// The document as text, for tests and tools that read it.
    public static var html: String { String(decoding: bytes, as: UTF8.self) }

    /// A strong validator of the page (RFC 9110 §8.8.3): the hex SHA-1 of its bytes, computed once. It
    /// changes exactly when the page does, so a browser revalidates with `If-None-Match` and gets a 304
    /// until the server is upgraded.
    public static let etag: String = {
        let hex = SHA1.digest(of: bytes).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return "\"\(hex)\""
    }()

    /// The answer to a `GET` or `HEAD` of the page: the page, or 304 when the client's `If-None-Match`
    /// already names it. `Cache-Control: no-cache` lets browsers keep the page but makes them ask each time,
    /// so a new server version is never hidden behind a stale copy.
    /// `peers` are the origins the server lets pages connect from (`--allow-origin`): its page may open
    /// WebSockets to them in turn, as a page sent to another instance of a cluster does.
    public static func response(to request: HTTPRequest, peers: [String] = []) -> HTTPResponse {
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "no-cache"]
        if isCached(by: request) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.append(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.append(name: "Content-Security-Policy", value: contentSecurityPolicy(peers: peers))
        return HTTPResponse(status: .ok, headers: headers, body: bytes)
    }

    /// What the page may do, for the browser to enforce: its own inline script and style, a WebSocket
    /// back to the server it came from, and nothing from anywhere else (no script, style, image, frame or
    /// connection elsewhere), nor may another site frame it.
    public static let contentSecurityPolicy = contentSecurityPolicy(peers: [])

    /// The policy, with WebSockets also to `peers`, origins (`http://HOST:PORT`, `https://...`) written as the
    /// sockets' sources (`ws://HOST:PORT`, `wss://...`). The trust goes both ways on purpose: the instances of
    /// a cluster list each other with `--allow-origin`, and each one's page follows redirects to the others.
    public static func contentSecurityPolicy(peers: [String]) -> String {
        let sockets = peers.compactMap { origin -> String? in
            if origin.hasPrefix("http://") { return "ws://" + origin.dropFirst("http://".count) }
            if origin.hasPrefix("https://") { return "wss://" + origin.dropFirst("https://".count) }
            return nil
        }
        let connect = (["'self'"] + sockets).joined(separator: " ")
        return "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src \(connect); base-uri 'none'; frame-ancestors 'none'"
    }

    /// Whether the request's `If-None-Match` lists this page's ETag, or `*` (RFC 9110 §13.1.2).
    private static func isCached(by request: HTTPRequest) -> Bool {
        request.headers.values(named: "If-None-Match").contains { value in
            value.split(separator: ",").contains { tag in
                let tag = tag.utf8.trimmingOptionalWhitespace()
                return tag.elementsEqual("*".utf8) || tag.elementsEqual(etag.utf8) || tag.elementsEqual(("W/" + etag).utf8)
            }
        }
    }
}
