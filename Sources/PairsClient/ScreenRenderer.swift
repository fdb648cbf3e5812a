import PairsRules
import PairsWire

/// Draws the `pairs play` screen from a `PlayModel`: a pure function from the model, the time and the
/// terminal's size to the lines to show, so it can be tested without a terminal.
///
/// ```
/// Pairs · room kitchen · game 2 · connected to localhost:7777
///
/// ▶ ann¹ (you) 3    bob² 1    series: ann 1, bob 0, draws 0
/// ▶ YOUR TURN  0:27 left
///
///  0 ···    1 ···    2 [cat]   3 ···
///  4 dog²   5 ···    6 dog²    7 ···
/// ```
///
/// Face-down cards show their number in bold (that is what the player types), a face-up card shows its
/// face in brackets, and a matched card shows its face with the mark of the player who took it (¹ or ²)
/// in that player's color.
public struct ScreenRenderer: Sendable {
    /// Lines of recent events shown, when the terminal is tall enough.
    public static let eventLines = 6
    /// Lines of chat shown, when the terminal is tall enough.
    public static let chatLines = 3
    /// The fewest event lines kept on a short terminal: the last move and its result.
    static let minimumEventLines = 2
    /// The turn clock turns red this close to running out, in milliseconds.
    static let hurryMilliseconds = 5_000
    /// The game clock turns red this close to running out, in milliseconds: time for a turn or two.
    static let gameHurryMilliseconds = 10_000
    /// Columns a face takes in a board cell: the three letters of a word, or the widest playing card
    /// (`10♥`). Narrower faces (`A♠`) are padded so the columns stay aligned.
    static let faceColumns = 3

    public var style: TextStyle
    /// The terminal's size in character cells.
    public var rows: Int
    public var columns: Int
    /// What the header and the hint line say on a screen that shows no live game (a replay); nil for
    /// `pairs play`.
    public var labels: ScreenLabels?

    public init(style: TextStyle, rows: Int = 24, columns: Int = 80) {
        self.style = style
        self.rows = rows
        self.columns = columns
    }

    /// The screen's lines, top to bottom; the input prompt goes on the line below them.
    public func render(_ model: PlayModel, at now: Moment) -> [String] {
        var top: [String] = [header(model), ""]
        if let state = model.state {
            top.append(players(state, model: model))
            top.append(status(state, model: model, now: now))
            top.append("")
            top += board(state)
        } else {
            top.append(lobbyStatus(model))
        }
        top.append("")
        let notice = model.notice.map { truncate($0) }
        let hint = style.paint(labels?.hint ?? "type a card number + Enter to flip · /say TEXT · /rematch · /leave · /quit · /help", .dim)
        // What is left of the terminal goes to events first, then chat.
        // Below events and chat: a blank line, the notice, the hint, the prompt, and a spare line for the
        // cursor to land on when Enter is pressed on the prompt, so the screen never scrolls.
        let fixed = top.count + 1 + max(1, notice.count) + 1 + 1 + 1
        var eventCount = Self.eventLines
        var chatCount = Self.chatLines
        while fixed + eventCount + chatCount > rows, chatCount > 0 { chatCount -= 1 }
        while fixed + eventCount + chatCount > rows, eventCount > Self.minimumEventLines { eventCount -= 1 }

        var lines = top
        lines += padded(model.history.suffix(eventCount).map { "  " + truncate($0) }, to: eventCount)
        if chatCount > 0 {
            lines += padded(model.chat.suffix(chatCount).map { chatLine($0) }, to: chatCount)
        }
        lines.append("")
        if notice.isEmpty {
            lines.append("")
        } else {
            for line in notice {
                lines.append(model.noticeIsError ? style.paint("! " + line, .bold, .red) : "» " + line)
            }
        }
        lines.append(hint)
        return lines
    }

    // MARK: Parts

    private func header(_ model: PlayModel) -> String {
        var parts = [style.paint("Pairs", .bold)]
        if let room = model.room { parts.append("room \(room)") }
        if let state = model.state, state.game > 0 { parts.append("game \(state.game)") }
        if let rules = model.rules, !RuleWords.summary(of: rules.variant).isEmpty {
            parts.append(RuleWords.summary(of: rules.variant))
        }
        if model.isWatching { parts.append("watching") }
        if model.spectators > 0 { parts.append("\(model.spectators) watching") }
        if let labels { return (parts + [style.paint(labels.status, .bold)]).joined(separator: " · ") }
        switch model.link {
        case .connecting: parts.append("connecting to \(model.endpoint)")
        case .connected: parts.append(style.paint("connected to \(model.endpoint)", .dim))
        case .reconnecting(let attempt):
            let tries = attempt > 0 ? " (attempt \(attempt))" : ""
            parts.append(style.paint("connection lost, reconnecting\(tries)…", .bold, .yellow))
        case .closed(let reason): parts.append(style.paint("disconnected: \(reason)", .bold, .red))
        }
        return parts.joined(separator: " · ")
    }

    private func lobbyStatus(_ model: PlayModel) -> String {
        switch model.link {
        case .connecting: "connecting…"
        case .reconnecting: "waiting for the connection to come back…"
        case .closed: "not connected"
        case .connected: model.room == nil ? "in the lobby: type /join [ROOM] to play, or /watch ROOM" : "joining…"
        }
    }

    private func players(_ state: WireState, model: PlayModel) -> String {
        var parts: [String] = []
        // One entry per seat: two, or one in a solo room.
        for seat in Seat.allCases where state.players.indices.contains(seat.index) {
            guard let player = state.players[seat.index] else {
                parts.append(style.paint("(waiting for a player)", .dim))
                continue
            }
            let onTurn = (state.phase == .playing || state.phase == .reveal) && state.turn == seat
            var text = (onTurn ? "▶ " : "  ") + style.paint(player.name + TextStyle.mark(of: seat), .bold, TextStyle.color(of: seat))
            if seat == model.seat { text += " (you)" }
            text += " " + style.paint(String(player.score), .bold)
            if !player.connected { text += style.paint(" (away)", .yellow) }
            parts.append(text)
        }
        parts.append(style.paint(Narrator.series(of: state), .dim))
        return parts.joined(separator: "    ")
    }

    private func status(_ state: WireState, model: PlayModel, now: Moment) -> String {
        let narrator = model.narrator
        switch state.phase {
        case .waiting:
            return "  waiting for an opponent to join room \(model.room ?? "")"
        case .reveal:
            return "  " + style.paint("no match: the cards turn back in a moment", .yellow) + gameClock(model, now: now)
        case .peek:
            let left = model.peekMillisecondsLeft(at: now).map { ": \(Narrator.clock(milliseconds: $0)) left" } ?? " for a moment"
            return "  " + style.paint("every card is face up\(left): remember them", .bold, .yellow)
        case .over:
            let rematch = model.seat == nil ? "" : " · /rematch to play again"
            return "  " + style.paint(narrator.result(of: state).uppercasedFirstWords(), .bold) + rematch
        case .playing:
            guard let turn = state.turn else { return "" }
            var text: String
            if turn == model.seat {
                let ordinals = ["a card", "the second card", "the third card"]
                let up = state.cardsUp.count
                text = style.paint("▶ YOUR TURN", .bold, .reverse, .green) + ": pick " + (up < ordinals.count ? ordinals[up] : "a card")
            } else {
                text = "  " + narrator.turn(of: turn, in: state)
            }
            if let left = model.turnMillisecondsLeft(at: now) {
                // With a game clock too, the two are told apart.
                let clock = Narrator.clock(milliseconds: left) + (model.gameMillisecondsLeft(at: now) == nil ? " left" : " left in the turn")
                text += "   " + (left <= Self.hurryMilliseconds ? style.paint(clock, .bold, .red) : clock)
            }
            return text + gameClock(model, now: now)
        }
    }

    /// "   1:43 left in the game" while a game clock runs, in red near the end; "" otherwise.
    private func gameClock(_ model: PlayModel, now: Moment) -> String {
        guard let left = model.gameMillisecondsLeft(at: now) else { return "" }
        let clock = Narrator.clock(milliseconds: left) + " left in the game"
        return "   " + (left <= Self.gameHurryMilliseconds ? style.paint(clock, .bold, .red) : style.paint(clock, .bold))
    }

    /// The board, one line per row. Every card shows its number; the rest of the cell shows what is known.
    func board(_ state: WireState) -> [String] {
        let labelWidth = String(max(0, state.cards.count - 1)).count
        var lines: [String] = []
        for row in 0..<state.layout.rows {
            var cells: [String] = []
            for column in 0..<state.layout.columns {
                let index = row * state.layout.columns + column
                guard state.cards.indices.contains(index) else { continue }
                let label = String(repeating: " ", count: labelWidth - String(index).count) + String(index)
                switch state.cards[index] {
                case .down:
                    cells.append(style.paint(label, .bold) + " " + style.paint("···", .dim) + "  ")
                case .up(let face) where state.phase == .peek:
                    // Every card is up for the peek: shown plainly, not as the cards of a turn.
                    let (text, pad) = Self.padded(face)
                    cells.append(style.paint(label, .dim) + " " + style.paint(text, .bold, Self.isRed(face) ? .red : .yellow) + pad + "  ")
                case .up(let face):
                    let (text, pad) = Self.padded(face)
                    cells.append(style.paint(label, .dim) + " " + style.paint("[\(text)]", .bold, .reverse, Self.isRed(face) ? .red : .yellow) + pad)
                case .matched(let face, let seat):
                    let (text, pad) = Self.padded(face)
                    let mark = TextStyle.mark(of: seat)
                    // A red card keeps its red; the mark keeps the color of who took it.
                    let shown = Self.isRed(face)
                        ? style.paint(text, .red) + style.paint(mark, TextStyle.color(of: seat))
                        : style.paint(text + mark, TextStyle.color(of: seat))
                    cells.append(style.paint(label, .dim) + " " + shown + pad + " ")
                }
            }
            lines.append(" " + cells.joined(separator: "  "))
        }
        return lines
    }

    /// A face and the spaces that make it `faceColumns` wide (`A♠` takes two columns, `10♥` three).
    static func padded(_ face: String) -> (face: String, padding: String) {
        (face, String(repeating: " ", count: max(0, faceColumns - face.count)))
    }

    /// Whether the face is a playing card of a red suit (♥ ♦), which card players see in red.
    static func isRed(_ face: String) -> Bool {
        PlayingCard(face: face)?.suit.isRed == true
    }

    private func chatLine(_ line: PlayModel.ChatLine) -> String {
        let from: String
        if let seat = line.seat {
            from = style.paint(line.from + TextStyle.mark(of: seat), .bold, TextStyle.color(of: seat))
        } else {
            from = style.paint(line.from + " (watching)", .bold)
        }
        return "  " + from + ": " + truncate(line.text)
    }

    private func padded(_ lines: [String], to count: Int) -> [String] {
        lines + Array(repeating: "", count: max(0, count - lines.count))
    }

    /// `text` cut to fit the terminal, so no line wraps and shifts the screen.
    private func truncate(_ text: String) -> String {
        let room = max(10, columns - 6)
        return text.count <= room ? text : String(text.prefix(room - 1)) + "…"
    }
}

extension String {
    /// "game over: you win 5 to 3" as "GAME OVER: you win 5 to 3": the words before the colon shout.
    func uppercasedFirstWords() -> String {
        guard let colon = firstIndex(of: ":") else { return self }
        return self[..<colon].uppercased() + self[colon...]
    }
}
