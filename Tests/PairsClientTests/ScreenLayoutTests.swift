import Foundation
@testable import PairsClient
import PairsRules
import PairsWire
import Testing

// The screen of `pairs play` at every size from 40x12 up: nothing wraps, the prompt keeps its row, and the
// rows there are go to the event log.

private let colors = TextStyle(usesEscapes: true, usesColor: true)

/// The terminal sizes the screen is checked at, columns x rows: the smallest, the standard, a wide and
/// tall one, a narrow and tall one.
private let sizes: [(columns: Int, rows: Int)] = [(40, 12), (80, 24), (100, 35), (45, 50), (200, 70)]

/// Ann's model in seat 2 of room kitchen (16 cards, 8 pairs), with `events` lines of history, in each of
/// the situations the screen has.
private func situations(events: Int = 30) -> [(String, PlayModel)] {
    let now = Moment(milliseconds: 0)
    func seated(_ states: [WireState]) -> PlayModel {
        var model = PlayModel(endpoint: ServerEndpoint(host: "localhost", port: 7777))
        _ = model.apply(.ready(Welcome(server: "pairs test", session: "c1", hint: "")), at: now)
        _ = model.apply(.message(.joined(Joined(room: "kitchen", seat: .second, token: "t"))), at: now)
        for index in 0..<events {
            _ = model.apply(.message(.chat(ChatMessage(room: "kitchen", from: "robo", seat: .first, text: "line \(index)"))), at: now)
        }
        for (seq, state) in states.enumerated() {
            var state = state
            state.seq = seq + 1
            _ = model.apply(.message(stateMessage(state)), at: now)
        }
        return model
    }
    let down = Array(repeating: CardView.down, count: 16)
    // A long game's worth of events: flips of cards 0 and 1, over and over.
    var flips: [WireState] = []
    for index in 0..<events {
        var cards = down
        cards[index % 2] = .up(face: "cat")
        flips.append(makeState(cards: cards, names: ["robo", "ann"], turn: .first, event: .flip(.first, card: index % 2)))
    }
    let myTurn = flips + [makeState(cards: down, names: ["robo", "ann"], turn: .second, event: .hide(cards: [0, 1]))]
    let players: [String?] = ["robo", "ann"]
    var noticed = seated(myTurn)
    noticed.show(["room kitchen plays other rules: 8 pairs; your --pairs 2 was ignored, and this line is long enough to wrap"],
                 isError: false)
    var erred = seated(myTurn)
    erred.show(["it is robo's turn"], isError: true)
    var asking = seated(myTurn)
    asking.ask(.quit)
    var watching = PlayModel(endpoint: ServerEndpoint(host: "localhost", port: 7777))
    _ = watching.apply(.ready(Welcome(server: "pairs test", session: "c1", hint: "")), at: now)
    _ = watching.apply(.message(.joined(Joined(room: "kitchen", seat: nil, token: nil))), at: now)
    _ = watching.apply(.message(.state(StateMessage(room: "kitchen", spectators: 3, state: makeState(cards: down, names: players), rules: .standard))), at: now)
    var lobby = PlayModel(endpoint: ServerEndpoint(host: "localhost", port: 7777))
    _ = lobby.apply(.ready(Welcome(server: "pairs test", session: "c1", hint: "")), at: now)
    var reconnecting = seated(myTurn)
    _ = reconnecting.apply(.connectionLost(.endOfStream), at: now)
    let longNames = seated([makeState(cards: down, names: ["名前がとても長いプレイヤーの名前です", "annabelle-the-very-long-1"])])
    let biggest = seated([makeState(cards: Array(repeating: .down, count: 64), names: players)])
    return [
        ("my turn", seated(myTurn)), ("waiting", seated([makeState(phase: .waiting, cards: down, names: [nil, "ann"], turn: nil)])),
        ("a long notice", noticed), ("an error", erred), ("asking before forfeiting", asking), ("watching", watching),
        ("the lobby", lobby), ("reconnecting", reconnecting), ("long names", longNames),
        ("over", seated([makeState(phase: .over, cards: down, names: players, turn: nil, outcome: .win(.second), event: .over(.second, cards: [0, 1], points: 1))])),
        ("the largest board", biggest),
    ]
}

@Test("at every size from 40x12 up, in every situation, no line is wider than the terminal less one column and the screen is as tall as it less the prompt's two rows")
func screenFitsEverySize() {
    for (name, model) in situations() {
        for size in sizes {
            let lines = ScreenRenderer(style: colors, rows: size.rows, columns: size.columns).render(model, at: Moment(milliseconds: 0))
            let tooWide = lines.filter { TerminalText.width($0) > size.columns - 1 }.map(visible)
            #expect(tooWide.isEmpty, "\(name) at \(size.columns)x\(size.rows): \(tooWide)")
            // The largest board (8 rows of 8, or 16 of 4) does not fit the shortest terminals: it is cut,
            // saying so, and the screen is never taller than the terminal.
            #expect(lines.count <= size.rows - ScreenRenderer.rowsBelowPicture, "\(name) at \(size.columns)x\(size.rows)")
            if name != "the largest board" {
                #expect(lines.count == size.rows - ScreenRenderer.rowsBelowPicture, "\(name) at \(size.columns)x\(size.rows)")
            }
            #expect(visible(lines[0]).hasPrefix("Pairs"), "\(name) at \(size.columns)x\(size.rows)")
        }
    }
}

@Test("at 40x12 the title, both names, the whole board, the last event and what to type all show")
func smallestTerminalShowsWhatMatters() throws {
    let (_, model) = try #require(situations().first { $0.0 == "my turn" })
    let lines = ScreenRenderer(style: .plain, rows: 12, columns: 40).render(model, at: Moment(milliseconds: 0))
    #expect(lines[0] == "Pairs · room kitchen · game 1")
    #expect(lines[1] == "  robo¹ 0  ▶ ann² (you) 0")
    #expect(lines[2].hasPrefix("▶ YOUR TURN"))
    #expect(lines[3...6].map { $0.trimmingCharacters(in: .whitespaces) } == [
        "0 ···     1 ···     2 ···     3 ···", "4 ···     5 ···     6 ···     7 ···",
        "8 ···     9 ···    10 ···    11 ···", "12 ···    13 ···    14 ···    15 ···",
    ])
    #expect(lines.contains("  cards 0 and 1 turned back"))
    #expect(lines.last == "card number + Enter · /say TEXT · /help")
}

@Test("a taller terminal shows more of the event log: every row left over goes to it")
func eventLogUsesTheRows() throws {
    let (_, model) = try #require(situations(events: 60).first { $0.0 == "my turn" })
    var shown: [Int] = []
    for rows in [24, 35, 60] {
        let lines = ScreenRenderer(style: .plain, rows: rows, columns: 100).render(model, at: Moment(milliseconds: 0))
        let events = lines.filter { $0.hasPrefix("  robo flipped") || $0 == "  cards 0 and 1 turned back" }
        // Between the board and the chat, no row stays empty while there are events to show.
        let firstEvent = try #require(lines.firstIndex { $0.hasPrefix("  robo flipped") })
        let chat = try #require(lines.firstIndex { $0.contains("robo¹: line") })
        #expect(chat - firstEvent == events.count, "\(rows) rows:\n\(lines.joined(separator: "\n"))")
        shown.append(events.count)
    }
    // Every row more is an event more (the chat keeps its three, the rest stays where it was).
    #expect(shown == [shown[0], shown[0] + 11, shown[0] + 36])
    #expect(shown[0] >= 6)
}

@Test("a spectator's header says they are watching and how many others are, never counting them twice")
func spectatorHeader() throws {
    let (_, model) = try #require(situations().first { $0.0 == "watching" })
    let header = ScreenRenderer(style: .plain, rows: 24, columns: 100).render(model, at: Moment(milliseconds: 0))[0]
    #expect(header == "Pairs · room kitchen · game 1 · watching with 2 others · connected to localhost:7777")
    var alone = PlayModel(endpoint: ServerEndpoint(host: "localhost", port: 7777))
    _ = alone.apply(.ready(Welcome(server: "pairs test", session: "c1", hint: "")), at: Moment(milliseconds: 0))
    _ = alone.apply(.message(.joined(Joined(room: "den", seat: nil, token: nil))), at: Moment(milliseconds: 0))
    _ = alone.apply(.message(.state(StateMessage(room: "den", spectators: 1, state: makeState(), rules: .standard))), at: Moment(milliseconds: 0))
    #expect(ScreenRenderer(style: .plain).render(alone, at: Moment(milliseconds: 0))[0] == "Pairs · room den · game 1 · watching · connected to localhost:7777")
}

@Test("while a seat is empty the players line says so and has no series naming 'player 2'")
func waitingHasNoSeries() throws {
    let (_, model) = try #require(situations().first { $0.0 == "waiting" })
    let lines = ScreenRenderer(style: .plain, rows: 24, columns: 80).render(model, at: Moment(milliseconds: 0))
    #expect(lines[2] == "  (waiting for a player)      ann² (you) 0")
    #expect(!lines.joined().contains("player 2"))
}

@Test("long and wide names are cut with an ellipsis before the scores are, and only as far as the width needs")
func longNamesAreCut() throws {
    let (_, model) = try #require(situations().first { $0.0 == "long names" })
    let wide = ScreenRenderer(style: .plain, rows: 24, columns: 120).render(model, at: Moment(milliseconds: 0))[2]
    #expect(wide.contains("名前がとても長いプレイヤーの名前です¹ 0") && wide.contains("annabelle-the-very-long-1² (you) 0"))
    let narrow = try #require(ScreenRenderer(style: .plain, rows: 12, columns: 40).render(model, at: Moment(milliseconds: 0))
        .first { $0.contains("(you)") })
    #expect(narrow.contains("…¹ 0") && narrow.contains("…² (you) 0"), "\(narrow)")
    #expect(TerminalText.width(narrow) <= 39)
}

@Test("the footer says what can be typed where the player is")
func footerFollowsThePlace() throws {
    let hints = Dictionary(uniqueKeysWithValues: situations().map { ($0.0, FooterHint.items(for: $0.1)) })
    #expect(hints["the lobby"]?.prefix(5) == ["/join [ROOM] to play", "/watch ROOM", "/list rooms", "/who", "/stats"])
    #expect(hints["my turn"]?.first == "card number + Enter")
    #expect(hints["waiting"]?.contains("card number + Enter") == false)
    #expect(hints["watching"]?.first == "/say TEXT")
    #expect(hints["over"]?.first == "/rematch")
    #expect(hints["reconnecting"]?.first == "reconnecting…")
    #expect(hints["asking before forfeiting"]?.first == "y + Enter: leave and forfeit")
    let (_, lobby) = try #require(situations().first { $0.0 == "the lobby" })
    #expect(FooterHint.line(for: lobby, columns: 39) == "/join [ROOM] to play · /help")
    #expect(FooterHint.line(for: lobby, columns: 200).hasSuffix(" · /quit · /help"))
}

@Test("a notice too long for the width wraps; one too tall for the rows left shows its start, or says how much more there is")
func noticesWrapAndCut() throws {
    let (_, model) = try #require(situations().first { $0.0 == "a long notice" })
    let wide = ScreenRenderer(style: .plain, rows: 24, columns: 60).render(model, at: Moment(milliseconds: 0))
    #expect(wide.contains("» room kitchen plays other rules: 8 pairs; your --pairs 2"))
    #expect(wide.contains("  was ignored, and this line is long enough to wrap"))
    let small = ScreenRenderer(style: .plain, rows: 12, columns: 40).render(model, at: Moment(milliseconds: 0))
    #expect(small.contains("» room kitchen plays other rules: 8"), "\(small)")
    #expect(small.contains("  … 2 more lines: enlarge the terminal"), "\(small)")
    // With a single row for it, the notice's start shows, cut.
    let tiny = ScreenRenderer(style: .plain, rows: 11, columns: 40).render(model, at: Moment(milliseconds: 0))
    let cutNotice = try #require(tiny.first { $0.hasPrefix("» room kitchen plays other rules:") }, "\(tiny)")
    #expect(cutNotice.hasSuffix("…") && TerminalText.width(cutNotice) == 39)
    var help = model
    help.show(InputCommand.helpLines, isError: false)
    let cut = ScreenRenderer(style: .plain, rows: 14, columns: 80).render(help, at: Moment(milliseconds: 0))
    #expect(cut.contains { $0.hasPrefix("  … ") && $0.contains("more lines: enlarge the terminal") }, "\(cut.joined(separator: "\n"))")
}

@Test("terminal widths: escapes take none, wide characters two; cutting keeps the escapes and marks the cut")
func terminalWidths() {
    #expect(TerminalText.width("\u{1B}[1;31mann\u{1B}[0m") == 3)
    #expect(TerminalText.width("名前") == 4)
    #expect(TerminalText.width("👩‍💻!") == 3)
    #expect(TerminalText.width("e\u{301}") == 1)
    #expect(TerminalText.width("▶ ·· ♠¹") == 7)
    #expect(TerminalText.fit("abcdef", columns: 4) == "abc…")
    #expect(TerminalText.fit("abc", columns: 3) == "abc")
    #expect(TerminalText.fit("名前名前", columns: 4) == "名…")
    #expect(TerminalText.fit("\u{1B}[1mabcdef\u{1B}[0m", columns: 4) == "\u{1B}[1mabc…\u{1B}[0m")
    #expect(TerminalText.wrap("one two three", columns: 7) == ["one two", "three"])
    #expect(TerminalText.wrap("abcdefghij", columns: 4) == ["abc…"])
}

@Test("an event or a chat line too long for the width goes on in the next row, indented, instead of being cut; the rows it takes come out of the event log's")
func longEventsAndChatWrap() {
    let now = Moment(milliseconds: 0)
    var model = PlayModel(endpoint: ServerEndpoint(host: "localhost", port: 7777))
    _ = model.apply(.ready(Welcome(server: "pairs test", session: "c1", hint: "")), at: now)
    _ = model.apply(.message(.joined(Joined(room: "kitchen", seat: .second, token: "t"))), at: now)
    _ = model.apply(.message(.chat(ChatMessage(room: "kitchen", from: "player107", seat: .first,
                                               text: "a chat line long enough that at eighty columns it cannot fit on one row"))), at: now)
    _ = model.apply(.message(stateMessage(makeState(seq: 1, names: ["player107", "ann"]))), at: now)
    _ = model.apply(.message(stateMessage(makeState(seq: 2, names: ["player107", "ann"], event: .disconnect(.first)))), at: now)
    let lines = ScreenRenderer(style: .plain, rows: 24, columns: 80).render(model, at: now)
    #expect(lines.contains("  player107 lost the connection; the seat is kept for the server's grace period"), "\(lines.joined(separator: "\n"))")
    #expect(lines.contains("    (60 s by default)"), "\(lines.joined(separator: "\n"))")
    #expect(lines.contains("  player107¹: a chat line long enough that at eighty columns it cannot fit on"))
    #expect(lines.contains("    one row"))
    #expect(!lines.contains { $0.hasSuffix("…") }, "\(lines.joined(separator: "\n"))")
    #expect(lines.count == 22 && lines.allSatisfy { TerminalText.width($0) <= 79 })
}
