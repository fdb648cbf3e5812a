import PairsLobby
import PairsRules
@testable import PairsServer
import PairsWire

/// Text no terminal should ever receive raw, as client names could carry it if the server did not clean
/// them: ESC sequences (C0), an 8-bit CSI and NEL (C1), DEL, bidirectional overrides and isolates, a
/// right-to-left mark, a line separator, a language tag (a format character beyond the Basic Multilingual
/// Plane) and line breaks; and text a text line must quote: quotes, backslashes, `=`, spaces, nothing.
let hostileTexts = [
    "\u{1B}[2J\u{1B}]0;pwned\u{07}", "\u{9B}31m", "x\u{85}y", "del\u{7F}", "\u{202E}evil", "\u{2066}x\u{2069}", "a\u{200F}b",
    "line\u{2028}two", "\u{E0001}tag", "two\nlines\r\tand", "quote\"back\\slash", "a=b c", "", "émoji 👩‍💻 ok", "plain",
]

/// Whether `bytes` hold a character that acts on a terminal or on the layout of text, raw: a control
/// other than the line's own newline, a format character (but the zero-width joiner that holds emoji
/// together), a line or paragraph separator.
func containsRawControl(_ bytes: [UInt8]) -> Bool {
    String(decoding: bytes, as: UTF8.self).unicodeScalars.contains { scalar in
        switch scalar.properties.generalCategory {
        case .control: scalar != "\n"
        case .format: scalar != "\u{200D}"
        case .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}

/// One of every event the log writes, lobby's and transport's, with `text` wherever a client's text (or
/// any text) can go: what the format tests run through both formats.
func everyEvent(with text: String) -> [(level: LogLevel, name: String, fields: [LogField])] {
    let who = LoggedConnection(id: ConnectionID(7, slot: 0), name: text, peer: "192.168.1.5:50312")
    let players = [FinishedPlayer(name: text, claimed: true, score: 3), FinishedPlayer(name: "bob", claimed: false, score: 5)]
    let lobby: [LobbyEvent] = [
        .connected(ConnectionID(7, slot: 0), peer: "[::1]:40000"),
        .nameClaimed(who),
        .wrongPassword(who, name: text, inARow: 3),
        .passwordGuessing(address: "192.168.1.5", name: text, addressFailures: 4, nameFailures: 9, retryAfterMilliseconds: 1_000),
        .roomOpened(room: text, rules: .standard),
        .roomOpened(room: text, rules: RuleSet(variant: Variant(seats: .one, setSize: .triple, deck: .cards, scoring: .matchismo(.standard),
                                                                 gameSeconds: 90, peekMilliseconds: 3000),
                                               pairs: 9, turnSeconds: 0, revealMilliseconds: 500, againOnMatch: false)),
        .roomClosed(room: text),
        .tournament(name: text, status: "running", entrants: 8),
        .joined(who, room: text, seat: .second),
        .watching(who, room: text),
        .left(who, from: .watching(room: text)),
        .left(who, from: .seated(room: text, seat: .first)),
        .disconnected(who, from: .lobby, .closed(.idle)),
        .disconnected(who, from: .seated(room: text, seat: .first), .lost(.readFailed(text))),
        .disconnected(who, from: .seated(room: text, seat: .first), .lost(.writeFailed(text))),
        .disconnected(who, from: .lobby, .lost(.resetByPeer)),
        .disconnected(who, from: .lobby, .quitAfterLeave),
        .silentClosed(ConnectionID(8, slot: 2), peer: text, .lost(.resetByPeer)),
        .silentClosed(ConnectionID(8, slot: 2), peer: text, .closed(.idle)),
        .resumed(who, room: text, seat: .first),
        .forfeited(room: text, game: 4, seat: .first, player: text, .timeouts, connection: who),
        .forfeited(room: text, game: 4, seat: .first, player: text, .away, connection: nil),
        .gameOver(GameOverLog(room: text, game: 4, players: players, outcome: .win(.second), end: .forfeit(.left))),
        .gameOver(GameOverLog(room: text, game: 5, players: players, outcome: .draw, end: .cleared)),
        .gameOver(GameOverLog(room: text, game: 6, players: [players[0]], outcome: .loss, end: .timeUp)),
    ]
    let report = LogSummary.Report(connections: 2000, rooms: 1000, gamesActive: 998, gamesFinished: 15_764,
                                   flipsPerSecond: 39_964.2, gameLinesHeld: 15_744, seconds: 10.0,
                                   connectionLinesHeld: ["join": 19_850, "disconnect": 19_850, "http": 3])
    let server: [ServerEvent] = [
        .listening(address: "0.0.0.0:7777", pid: 4242, maxConnections: 19_984, data: text, loops: 2),
        .serverFull(connections: 100),
        .unwatchable(ConnectionID(9, slot: 1), peer: "10.0.0.2:1234", error: text),
        .http(ConnectionID(9, slot: 1), peer: text, request: .read(method: "GET", path: text), status: 200),
        .http(ConnectionID(9, slot: 1), peer: text, request: .unread(text), status: 408),
        .gameNotKept(room: text, error: text),
        .summary(report),
        .shuttingDown(connections: 3, gamesInProgress: 1),
        .stopped,
        .logReopened(path: text),
        .logNotReopened(path: text, error: text),
    ]
    return lobby.map { (.info, $0.name, $0.fields) } + server.map { (.warning, $0.name, $0.fields) }
}

/// Every event name the log has: `everyEvent` must name them all.
let everyEventName: Set<String> = [
    "connect", "name_claimed", "wrong_password", "password_guessing", "room_open", "room_close", "join", "watch", "leave", "disconnect",
    "silent_close", "resume", "forfeit", "game_over", "listening", "server_full", "accept_failed", "http", "game_not_kept", "summary",
    "shutdown", "stopped", "log_reopened", "log_reopen_failed", "tournament",
]

/// A text line read back the simple way: the time, level and event words, then `key=value` pairs whose
/// value is bare up to the next space, or a quoted JSON string.
struct ReadTextLine {
    var time = "", level = "", event = ""
    var fields: [(key: String, value: String)] = []

    init(_ line: [UInt8]) throws {
        var rest = line[...]
        guard rest.last == UInt8(ascii: "\n") else { throw Malformed(reason: "no newline at the end") }
        rest.removeLast()
        func word() -> String {
            let end = rest.firstIndex(of: UInt8(ascii: " ")) ?? rest.endIndex
            defer { rest = rest[end...].dropFirst() }
            return String(decoding: rest[..<end], as: UTF8.self)
        }
        time = word()
        level = word()
        event = word()
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: UInt8(ascii: "=")) else { throw Malformed(reason: "a field without =") }
            let key = String(decoding: rest[..<equals], as: UTF8.self)
            rest = rest[equals...].dropFirst()
            if rest.first == UInt8(ascii: "\"") {
                var index = rest.index(after: rest.startIndex)
                while index < rest.endIndex, rest[index] != UInt8(ascii: "\"") {
                    index = rest.index(index, offsetBy: rest[index] == UInt8(ascii: "\\") ? 2 : 1)
                }
                guard index < rest.endIndex else { throw Malformed(reason: "an unterminated quote") }
                guard let value = try JSONParser.parse(Array(rest[...index])).stringValue else { throw Malformed(reason: "not a string") }
                fields.append((key, value))
                rest = rest[index...].dropFirst()
                if !rest.isEmpty {
                    guard rest.first == UInt8(ascii: " ") else { throw Malformed(reason: "no space after a quoted value") }
                    rest = rest.dropFirst()
                }
            } else {
                fields.append((key, word()))
            }
        }
    }

    struct Malformed: Error {
        var reason: String
    }
}
