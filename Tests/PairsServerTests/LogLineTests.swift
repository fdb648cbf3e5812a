import Foundation
import PairsLobby
import PairsRules
@testable import PairsServer
import PairsStorage
import PairsWire
import PairsTestSupport
import Testing

/// The log's two formats, for every event and the worst text a client could send.
@Suite("Log lines", .ownThread)
struct LogLineTests {
    static let time = WallClockTime(unixMilliseconds: 1_795_290_699_042) // 2026-11-21T19:51:39.042Z

    /// What a field's value reads back as from a text line.
    private func text(of value: LogValue) -> String {
        switch value {
        case .text(let text): text
        case .integer(let integer): String(integer)
        case .decimal(let decimal): decimal.description
        case .boolean(let boolean): boolean ? "true" : "false"
        }
    }

    @Test("the sample events cover every event the log has")
    func samplesCoverEveryEvent() {
        #expect(Set(everyEvent(with: "x").map(\.name)) == everyEventName)
    }

    @Test("a text line is TIME LEVEL EVENT and key=value pairs, values bare when plain and quoted as JSON strings otherwise")
    func textLineShape() {
        let who = LoggedConnection(id: ConnectionID(7, slot: 0), name: "ann b", peer: "192.168.1.5:50312")
        let event = LobbyEvent.joined(who, room: "kitchen", seat: .first)
        let line = LogLine.format(.text, time: Self.time, level: .info, event: event.name, fields: event.fields)
        #expect(String(decoding: line, as: UTF8.self)
            == "2026-11-21T19:51:39.042Z info join conn=c7 name=\"ann b\" room=kitchen seat=0 peer=192.168.1.5:50312\n")
        let summary = ServerEvent.summary(LogSummary.Report(connections: 2, rooms: 1, gamesActive: 1, gamesFinished: 30,
                                                            flipsPerSecond: 12.5, gameLinesHeld: 10, seconds: 10))
        #expect(String(decoding: LogLine.format(.text, time: Self.time, level: .info, event: summary.name, fields: summary.fields), as: UTF8.self)
            == "2026-11-21T19:51:39.042Z info summary connections=2 rooms=1 games_active=1 games_finished=30 flips_per_second=12.5 game_lines_held=10 seconds=10.0\n")
    }

    @Test("every event with hostile text makes one text line with no raw control, and every field reads back as written",
          arguments: hostileTexts)
    func textLinesReadBack(text hostile: String) throws {
        for sample in everyEvent(with: hostile) {
            let line = LogLine.format(.text, time: Self.time, level: sample.level, event: sample.name, fields: sample.fields)
            #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1, "one line: \(sample.name)")
            let shown = String(decoding: line, as: UTF8.self)
            #expect(!containsRawControl(line) as Bool, "no raw control in \(sample.name): \(shown.debugDescription)")
            let read = try ReadTextLine(line)
            #expect(read.time == "2026-11-21T19:51:39.042Z")
            #expect(read.level == sample.level.name)
            #expect(read.event == sample.name)
            #expect(read.fields.map(\.key) == sample.fields.map(\.key))
            #expect(read.fields.map(\.value) == sample.fields.map { text(of: $0.value) }, "\(sample.name)")
        }
    }

    @Test("every event with hostile text makes one JSON object a line: time, level, event, then every field with its type",
          arguments: hostileTexts)
    func jsonLinesParse(text hostile: String) throws {
        for sample in everyEvent(with: hostile) {
            let line = LogLine.format(.json, time: Self.time, level: sample.level, event: sample.name, fields: sample.fields)
            #expect(line.last == UInt8(ascii: "\n") && line.filter { $0 == UInt8(ascii: "\n") }.count == 1)
            let shown = String(decoding: line, as: UTF8.self)
            #expect(!containsRawControl(line) as Bool, "no raw control in \(sample.name): \(shown.debugDescription)")
            let object = try #require(try JSONParser.parse(line.dropLast()).objectValue)
            #expect(object.keys == ["time", "level", "event"] + sample.fields.map(\.key), "\(sample.name)")
            #expect(object["time"]?.stringValue == "2026-11-21T19:51:39.042Z")
            #expect(object["level"]?.stringValue == sample.level.name)
            #expect(object["event"]?.stringValue == sample.name)
            for field in sample.fields {
                switch field.value {
                case .text(let text): #expect(object[field.key]?.stringValue == text, "\(sample.name).\(field.key)")
                case .integer(let integer): #expect(object[field.key]?.integerValue == Int64(integer), "\(sample.name).\(field.key)")
                case .decimal(let decimal): #expect(object[field.key] == .number(.double(decimal)), "\(sample.name).\(field.key)")
                case .boolean(let boolean): #expect(object[field.key] == .bool(boolean), "\(sample.name).\(field.key)")
                }
            }
        }
    }

    @Test("no event repeats a key or uses time, level or event, which every line has already")
    func keysAreUnique() {
        for sample in everyEvent(with: "x") {
            let keys = sample.fields.map(\.key)
            #expect(Set(keys).count == keys.count, "\(sample.name): \(keys)")
            #expect(Set(keys).isDisjoint(with: ["time", "level", "event"]), "\(sample.name)")
        }
    }

    /// A line's text after its time and level, without the newline.
    private func body(_ event: String, _ fields: [LogField]) -> String {
        let line = LogLine.format(.text, time: Self.time, level: .info, event: event, fields: fields)
        return String(String(decoding: line, as: UTF8.self).dropFirst("2026-11-21T19:51:39.042Z info ".count).dropLast())
    }

    @Test("a room_open line says every rule the room plays by: seats, match, deck, scoring (with Matchismo's constants), board and clocks")
    func roomOpenSaysTheRules() {
        let classic = LobbyEvent.roomOpened(room: "kitchen", rules: .standard)
        #expect(body(classic.name, classic.fields) == "room_open room=kitchen seats=2 match=2 deck=words scoring=classic pairs=8 "
            + "turn_seconds=30 game_seconds=0 reveal_ms=1000 peek_ms=0 again_on_match=true")
        let variant = Variant(seats: .one, setSize: .triple, deck: .cards, scoring: .matchismo(.standard), gameSeconds: 90, peekMilliseconds: 3000)
        let solo = LobbyEvent.roomOpened(room: "s", rules: RuleSet(variant: variant, pairs: 9, turnSeconds: 0, revealMilliseconds: 500,
                                                                    againOnMatch: false))
        let costs = MatchismoCosts.standard
        #expect(body(solo.name, solo.fields) == "room_open room=s seats=1 match=3 deck=cards scoring=matchismo flip_cost=\(costs.flipCost) "
            + "mismatch_penalty=\(costs.mismatchPenalty) match_bonus=\(costs.matchBonus) pairs=9 turn_seconds=0 game_seconds=90 "
            + "reveal_ms=500 peek_ms=3000 again_on_match=false")
    }

    @Test("an HTTP line says method, path, status and peer, or why no request could be read; a silent connection's end names no player")
    func httpAndSilentLines() {
        let page = ServerEvent.http(ConnectionID(44, slot: 3), peer: "192.168.1.31:41120", request: .read(method: "GET", path: "/"), status: 200)
        #expect(body(page.name, page.fields) == "http conn=c44 method=GET path=/ status=200 peer=192.168.1.31:41120")
        let timeout = ServerEvent.http(ConnectionID(45, slot: 3), peer: "10.0.0.2:1234", request: .unread("no head within 10000 ms"), status: 408)
        #expect(body(timeout.name, timeout.fields) == "http conn=c45 status=408 error=\"no head within 10000 ms\" peer=10.0.0.2:1234")
        let silent = LobbyEvent.silentClosed(ConnectionID(46, slot: 3), peer: "192.168.1.31:41122", .lost(.resetByPeer))
        #expect(body(silent.name, silent.fields) == "silent_close conn=c46 reason=reset_by_peer peer=192.168.1.31:41122")
    }

    @Test("a summary under churn counts the lines held of each kind, by name, before its length")
    func churnSummaryLine() {
        let report = LogSummary.Report(connections: 3, rooms: 1, gamesActive: 0, gamesFinished: 0, flipsPerSecond: 0, gameLinesHeld: 0,
                                       seconds: 10, connectionLinesHeld: ["join": 19_850, "disconnect": 19_850])
        let summary = ServerEvent.summary(report)
        #expect(body(summary.name, summary.fields) == "summary connections=3 rooms=1 games_active=0 games_finished=0 flips_per_second=0.0 "
            + "game_lines_held=0 disconnect_lines_held=19850 join_lines_held=19850 seconds=10.0")
    }

    @Test("README's log section names every event the log has, and every reason a disconnect line can give")
    func readmeNamesEveryEventAndReason() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let readme = try String(contentsOf: url, encoding: .utf8)
        let operating = try #require(readme.range(of: "## Operating a server").map { String(readme[$0.lowerBound...]) })
        for name in everyEventName {
            #expect(operating.contains("`\(name)`"), "\(name)")
        }
        let who = LoggedConnection(id: ConnectionID(1, slot: 0), name: "ann", peer: "p")
        let departures: [Departure] = [.quitAfterLeave, .lost(.closedByPeer), .lost(.resetByPeer), .lost(.readFailed("x")),
                                       .lost(.writeFailed("x")), .lost(.brokeFraming("x")), .lost(.tooSlow)]
            + ByeReason.allCases.filter { $0 != .serverFull && $0 != .shutdown }.map { .closed($0) }
        for departure in departures {
            let reason = LobbyEvent.disconnected(who, from: .lobby, departure).fields.first { $0.key == "reason" }?.value
            guard case .text(let word)? = reason else { Issue.record("no reason for \(departure)"); continue }
            #expect(operating.contains("`\(word)`"), "\(word)")
        }
    }

    @Test("a game over line names winner and loser with their scores, or both players of a draw, or the solo player")
    func gameOverNamesThePlayers() {
        let players = [FinishedPlayer(name: "ann", claimed: false, score: 3), FinishedPlayer(name: "bob", claimed: false, score: 5)]
        func line(_ game: GameOverLog) -> String {
            let event = LobbyEvent.gameOver(game)
            let line = LogLine.format(.text, time: Self.time, level: .info, event: event.name, fields: event.fields)
            return String(String(decoding: line, as: UTF8.self).dropFirst("2026-11-21T19:51:39.042Z info ".count).dropLast())
        }
        #expect(line(GameOverLog(room: "r", game: 2, players: players, outcome: .win(.second), end: .cleared))
            == "game_over room=r game=2 end=cleared result=win winner=bob winner_score=5 loser=ann loser_score=3")
        #expect(line(GameOverLog(room: "r", game: 2, players: players, outcome: .win(.first), end: .forfeit(.away)))
            == "game_over room=r game=2 end=forfeit forfeit_reason=away result=win winner=ann winner_score=3 loser=bob loser_score=5")
        #expect(line(GameOverLog(room: "r", game: 3, players: players, outcome: .draw, end: .exhausted))
            == "game_over room=r game=3 end=exhausted result=draw first=ann first_score=3 second=bob second_score=5")
        #expect(line(GameOverLog(room: "s", game: 1, players: [players[0]], outcome: .loss, end: .timeUp))
            == "game_over room=s game=1 end=time_up result=loss player=ann player_score=3")
    }
}
