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
    /// Lines of chat shown at most, when there is chat and the terminal has the rows.
    public static let chatLines = 3
    /// The fewest event lines kept while anything else can give way: the last move and its result.
    static let minimumEventLines = 2
    /// Rows under the picture: the prompt, and a spare one for the cursor to land on when Enter is pressed
    /// on the prompt, so the screen never scrolls.
    public static let rowsBelowPicture = 2
    /// The smallest terminal everything fits on with the standard board (8 pairs): the issue's 40x12.
    public static let minimumRows = 12
    public static let minimumColumns = 40
    /// The turn clock turns red this close to running out, in milliseconds.
    static let hurryMilliseconds = 5_000
    /// The game clock turns red this close to running out, in milliseconds: time for a turn or two.
    static let gameHurryMilliseconds = 10_000
    /// Columns a face takes in a board cell: the three letters of a word, or the widest playing card
    /// (`10♥`). Narrower faces (`A♠`) are padded so the columns stay aligned.
    static let faceColumns = 3
    /// Columns between two board cells.
    static let cellGap = 2

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

    /// Columns a line may take: one less than the terminal has, since a line that reaches the last column
    /// leaves some terminals waiting to wrap, and the erase that follows it then takes its last character.
    var lineWidth: Int { max(1, columns - 1) }

    /// Lines the picture has: the terminal's rows less the prompt's.
    var pictureHeight: Int { max(1, rows - Self.rowsBelowPicture) }

    /// The screen's lines, top to bottom, exactly as many as `pictureHeight` (fewer only when the terminal is
    /// too small for the board), none wider than `lineWidth`; the input prompt goes on the line below them.
    ///
    /// Rows are handed out by what matters most: the header, the players, whose turn, the board and the
    /// footer always; then the answer to what the player typed, the last two events, blank lines between the
    /// parts, the chat, and everything left to the event log, so a taller terminal shows more of the game.
    public func render(_ model: PlayModel, at now: Moment) -> [String] {
        let header = [self.header(model, now: now)]
        var middle: [String]
        if let state = model.state {
            middle = [players(state, model: model), status(state, model: model, now: now)]
            middle += board(state, columns: lineWidth)
        } else {
            middle = [fitted(lobbyStatus(model))]
            if let tournament = model.tournament {
                middle += tournamentLines(tournament, model: model, now: now)
            }
        }
        let footer = [fitted(labels?.hint ?? FooterHint.line(for: model, columns: lineWidth), .dim)]
        let notice = noticeLines(model)

        var free = pictureHeight - header.count - middle.count - footer.count
        if free < 0, model.state != nil {
            // A board taller than the terminal: its last rows give way to a line that says so.
            let shown = max(0, middle.count + free - 1) - 2
            let hidden = middle.count - 2 - shown
            middle = Array(middle.prefix(2 + shown))
            middle.append(fitted("… \(hidden) more row\(hidden == 1 ? "" : "s") of cards: enlarge the terminal", .yellow))
            free = 0
        }
        func take(_ wanted: Int) -> Int {
            let given = max(0, min(wanted, free))
            free -= given
            return given
        }
        // Two lines of the notice come first: its start, and the rest or how much more there is.
        let firstNotice = take(min(notice.count, 2))
        var eventCount = take(Self.minimumEventLines)
        let moreNotice = take(notice.count - firstNotice)
        let noticeCount = firstNotice + moreNotice
        let blankAfterHeader = take(1)
        let blankAroundBoard = model.state == nil ? take(1) : take(2)
        let chatCount = model.chat.isEmpty ? 0 : take(Self.chatLines)
        // The notice keeps its line when there is one to spare, so the footer does not jump when it comes.
        let noticeLine = noticeCount == 0 ? take(1) : 0
        let blankBeforeNotice = take(1)
        eventCount += take(free)

        var lines = header
        if blankAfterHeader > 0 { lines.append("") }
        if model.state != nil {
            lines += middle.prefix(2)
            if blankAroundBoard > 0 { lines.append("") }
            lines += middle.dropFirst(2)
            if blankAroundBoard > 1 { lines.append("") }
        } else {
            lines += middle
            if blankAroundBoard > 0 { lines.append("") }
        }
        lines += padded(lastRows(of: model.history, count: eventCount) { $0 }, to: eventCount)
        lines += padded(lastRows(of: model.chat, count: chatCount, chatLine), to: chatCount)
        if blankBeforeNotice > 0 { lines.append("") }
        lines += noticeLines(model, wrapped: notice, count: noticeCount)
        if noticeLine > 0 { lines.append("") }
        lines += footer
        return lines
    }

    // MARK: Parts

    /// "Pairs · room kitchen · game 2 · …": the parts that matter most when the width runs short (where
    /// the player is, and a connection in trouble) stay; the rules and "connected to" go first.
    private func header(_ model: PlayModel, now: Moment) -> String {
        var parts: [(text: String, isOptional: Bool)] = [(style.paint("Pairs", .bold), false)]
        if let room = model.room { parts.append(("room \(room)", false)) }
        if let tournament = model.tournament, let room = model.room, tournament.isPlayed(in: room) || room.hasPrefix(tournament.view.name + "-") {
            parts.append((tournament.label(at: now), false))
        }
        if let state = model.state, state.game > 0 { parts.append(("game \(state.game)", false)) }
        if let rules = model.rules, !RuleWords.summary(of: rules.variant).isEmpty {
            parts.append((RuleWords.summary(of: rules.variant), true))
        }
        if model.isWatching {
            // The spectators counted by the server include this one.
            let others = model.spectators - 1
            parts.append((others > 0 ? "watching with \(others) other\(others == 1 ? "" : "s")" : "watching", false))
        } else if model.spectators > 0 {
            parts.append(("\(model.spectators) watching", true))
        }
        // A replay says which game and move instead of the connection.
        if let labels {
            parts.append((style.paint(labels.status, .bold), false))
        } else {
            switch model.link {
            case .connecting: parts.append(("connecting to \(model.endpoint)", false))
            case .connected: parts.append((style.paint("connected to \(model.endpoint)", .dim), true))
            case .reconnecting(let attempt):
                let tries = attempt > 0 ? " (attempt \(attempt))" : ""
                parts.append((style.paint("connection lost, reconnecting\(tries)…", .bold, .yellow), false))
            case .closed(let reason): parts.append((style.paint("disconnected: \(reason)", .bold, .red), false))
            }
        }
        // Drop optional parts from the last until the line fits; cut it if even the rest does not.
        var kept = parts
        while TerminalText.width(kept.map(\.text).joined(separator: " · ")) > lineWidth,
              let last = kept.lastIndex(where: \.isOptional) {
            kept.remove(at: last)
        }
        return fitted(kept.map(\.text).joined(separator: " · "))
    }

    /// The screen between a tournament's games: what the player waits for (their next game, the next round,
    /// the end), then the standings and the games under way, as many rows as leave the events a few lines.
    private func tournamentLines(_ tournament: FollowedTournament, model: PlayModel, now: Moment) -> [String] {
        var lines = [fitted(tournament.waitingLine(for: model.me, at: now), .bold)]
        var report = TournamentReport.lines(tournament.view)
        let room = max(Self.minimumTournamentLines, pictureHeight - Self.rowsKeptBesideTournament)
        if report.count > room {
            let hidden = report.count - (room - 1)
            report = Array(report.prefix(room - 1)) + ["… \(hidden) more line\(hidden == 1 ? "" : "s"): /tournament watch \(tournament.view.name) in a taller terminal"]
        }
        lines += report.map { fitted($0) }
        return lines
    }

    /// The fewest lines of a tournament's standings shown between games, however short the terminal.
    static let minimumTournamentLines = 4
    /// The lines left to the header, the lobby's status, the events and the footer beside a tournament's standings.
    static let rowsKeptBesideTournament = 10

    private func lobbyStatus(_ model: PlayModel) -> String {
        switch model.link {
        case .connecting: "connecting…"
        case .reconnecting: "waiting for the connection to come back…"
        case .closed: "not connected"
        case .connected:
            if model.room != nil { "joining…" }
            else if let tournament = model.tournament, tournament.view.standings.contains(where: { $0.name == model.me }) {
                "between games of \(tournament.view.name): the server seats you when your next game is made"
            } else if let tournament = model.tournament {
                "following \(tournament.view.name): /watch ROOM to see one of its games, /join [ROOM] to play"
            }
            else { "in the lobby: type /join [ROOM] to play, or /watch ROOM" }
        }
    }

    /// "▶ ann¹ (you) 3    bob² 1    series: ann 1, bob 0, draws 0". When it does not fit, the gaps narrow,
    /// the series goes, and then the names are cut (with "…") rather than the scores.
    private func players(_ state: WireState, model: PlayModel) -> String {
        func line(gap: Int, series: Bool, nameColumns: Int) -> String {
            var parts: [String] = []
            // One entry per seat: two, or one in a solo room.
            for seat in Seat.allCases where state.players.indices.contains(seat.index) {
                guard let player = state.players[seat.index] else {
                    parts.append("  " + style.paint("(waiting for a player)", .dim))
                    continue
                }
                let onTurn = (state.phase == .playing || state.phase == .reveal) && state.turn == seat
                let name = TerminalText.fit(player.name, columns: nameColumns)
                var text = (onTurn ? "▶ " : "  ") + style.paint(name + TextStyle.mark(of: seat), .bold, TextStyle.color(of: seat))
                if seat == model.seat { text += " (you)" }
                text += " " + style.paint(String(player.score), .bold)
                if !player.connected { text += style.paint(" (away)", .yellow) }
                parts.append(text)
            }
            if series, let tally = Narrator.series(of: state) { parts.append(style.paint(tally, .dim)) }
            return parts.joined(separator: String(repeating: " ", count: gap))
        }
        let longest = state.players.compactMap { $0.map { TerminalText.width($0.name) } }.max() ?? 0
        let candidates = [line(gap: 4, series: true, nameColumns: longest), line(gap: 2, series: true, nameColumns: longest)]
        if let fits = candidates.first(where: { TerminalText.width($0) <= lineWidth }) { return fits }
        for columns in stride(from: longest, through: 2, by: -1) {
            let short = line(gap: 2, series: false, nameColumns: columns)
            if TerminalText.width(short) <= lineWidth { return short }
        }
        return fitted(line(gap: 1, series: false, nameColumns: 2))
    }

    /// Whose turn it is and the clocks, in the longest form that fits.
    private func status(_ state: WireState, model: PlayModel, now: Moment) -> String {
        let narrator = model.narrator
        switch state.phase {
        case .waiting:
            return fitted("  waiting for an opponent to join room \(model.room ?? "")")
        case .reveal:
            return fitted("  " + style.paint("no match: the cards turn back in a moment", .yellow) + gameClock(model, now: now, short: false))
        case .peek:
            let left = model.peekMillisecondsLeft(at: now).map { ": \(Narrator.clock(milliseconds: $0)) left" } ?? " for a moment"
            return fitted("  " + style.paint("every card is face up\(left): remember them", .bold, .yellow))
        case .over:
            let result = "  " + style.paint(narrator.result(of: state).uppercasedFirstWords(), .bold)
            let rematch = model.seat == nil ? "" : " · /rematch to play again"
            return TerminalText.width(result + rematch) <= lineWidth ? result + rematch : fitted(result)
        case .playing:
            guard let turn = state.turn else { return "" }
            let long = playing(turn, state: state, model: model, now: now, short: false)
            return TerminalText.width(long) <= lineWidth ? long : fitted(playing(turn, state: state, model: model, now: now, short: true))
        }
    }

    /// "▶ YOUR TURN: pick the second card   0:25 left", or on a narrow terminal "▶ YOUR TURN 0:25".
    private func playing(_ turn: Seat, state: WireState, model: PlayModel, now: Moment, short: Bool) -> String {
        var text: String
        let up = state.cardsUp.count
        if turn == model.seat, up >= (model.rules?.variant ?? .classic).setSize.rawValue {
            // A whole set face up on the player's turn is a mismatch on show: nothing can be flipped until
            // it turns back and the turn passes, so the screen must not invite a flip.
            return "  no match: the cards turn back" + gameClock(model, now: now, short: short)
        }
        if turn == model.seat {
            let ordinals = ["a card", "the second card", "the third card"]
            text = style.paint("▶ YOUR TURN", .bold, .reverse, .green)
            if !short { text += ": pick " + (up < ordinals.count ? ordinals[up] : "a card") }
        } else {
            text = "  " + model.narrator.turn(of: turn, in: state)
        }
        if let left = model.turnMillisecondsLeft(at: now) {
            // With a game clock too, the two are told apart.
            let what = short ? "" : model.gameMillisecondsLeft(at: now) == nil ? " left" : " left in the turn"
            let clock = Narrator.clock(milliseconds: left) + what
            text += (short ? " " : "   ") + (left <= Self.hurryMilliseconds ? style.paint(clock, .bold, .red) : clock)
        }
        return text + gameClock(model, now: now, short: short)
    }

    /// "   1:43 left in the game" (short: " · game 1:43") while a game clock runs, in red near the end; ""
    /// otherwise.
    private func gameClock(_ model: PlayModel, now: Moment, short: Bool) -> String {
        guard let left = model.gameMillisecondsLeft(at: now) else { return "" }
        let clock = short ? "game " + Narrator.clock(milliseconds: left) : Narrator.clock(milliseconds: left) + " left in the game"
        return (short ? " · " : "   ") + (left <= Self.gameHurryMilliseconds ? style.paint(clock, .bold, .red) : style.paint(clock, .bold))
    }

    /// The board as its layout has it, one line per row. Every card shows its number; the rest of the cell
    /// shows what is known.
    func board(_ state: WireState) -> [String] {
        board(state, cardsPerLine: state.layout.columns)
    }

    /// The board in at most `columns` columns: its layout's rows when they fit, else as many cards a line
    /// as fit (the numbers still say which card is which).
    func board(_ state: WireState, columns: Int) -> [String] {
        let labelWidth = String(max(0, state.cards.count - 1)).count
        // A line is a leading space and cells of `cellWidth` with `cellGap` between them.
        let cellWidth = labelWidth + 1 + Self.faceColumns + 2
        let fitting = max(1, (columns - 1 + Self.cellGap) / (cellWidth + Self.cellGap))
        return board(state, cardsPerLine: min(state.layout.columns, fitting))
    }

    private func board(_ state: WireState, cardsPerLine: Int) -> [String] {
        let labelWidth = String(max(0, state.cards.count - 1)).count
        let perLine = max(1, cardsPerLine)
        var lines: [String] = []
        for first in stride(from: 0, to: state.cards.count, by: perLine) {
            var cells: [String] = []
            for index in first..<min(first + perLine, state.cards.count) {
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
            lines.append(" " + cells.joined(separator: String(repeating: " ", count: Self.cellGap)))
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
        return from + ": " + line.text
    }

    /// The last `count` rows that `entries` take, each entry as `text` words it, indented two columns and
    /// wrapped to the width with its further rows indented two more: an event or a chat line too long for
    /// the terminal ("… lost the connection; the seat is kept for the server's grace period (60 s by
    /// default)") goes on in the next row instead of being cut, so nothing a player must know is lost.
    /// Only the entries that can show are wrapped.
    private func lastRows<Entry>(of entries: [Entry], count: Int, _ text: (Entry) -> String) -> [String] {
        var rows: [String] = []
        for entry in entries.reversed() {
            guard rows.count < count else { break }
            rows.insert(contentsOf: wrapped(text(entry)), at: 0)
        }
        return Array(rows.suffix(count))
    }

    /// `text` after two columns, in rows no wider than the line, the rows after the first after four.
    private func wrapped(_ text: String) -> [String] {
        let first = "  ", more = "    "
        let rows = TerminalText.wrap(text, columns: max(1, lineWidth - first.count))
        // The rest goes on two columns further in, so it is rewrapped to the narrower rows; a first row
        // that is not where the text starts (a word too long for any row, cut) is kept as it is.
        guard rows.count > 1, let head = rows.first, text.hasPrefix(head) else { return rows.map { fitted(first + $0) } }
        let rest = text.dropFirst(head.count).drop { $0 == " " }
        return [fitted(first + head)] + TerminalText.wrap(String(rest), columns: max(1, lineWidth - more.count)).map { fitted(more + $0) }
    }

    /// The answer to what the player typed, wrapped to the width: "» " before a notice, "! " before an error.
    private func noticeLines(_ model: PlayModel) -> [String] {
        model.notice.flatMap { line in
            TerminalText.wrap(line, columns: lineWidth - 2).enumerated().map { index, part in
                noticeLine((index == 0 ? noticeMark(model) : "  ") + part, model: model)
            }
        }
    }

    /// The notice in `count` lines: whole when it fits; else its first line cut to one, or the lines that
    /// fit and one that says how many more there are.
    private func noticeLines(_ model: PlayModel, wrapped lines: [String], count: Int) -> [String] {
        guard lines.count > count else { return lines }
        guard count > 1 else {
            return count == 1 ? [noticeLine(fitted(noticeMark(model) + (model.notice.first ?? "")), model: model)] : []
        }
        let hidden = lines.count - count + 1
        return Array(lines.prefix(count - 1)) + [fitted("  … \(hidden) more line\(hidden == 1 ? "" : "s"): enlarge the terminal", .dim)]
    }

    private func noticeMark(_ model: PlayModel) -> String {
        model.noticeIsError ? "! " : "» "
    }

    private func noticeLine(_ text: String, model: PlayModel) -> String {
        model.noticeIsError ? style.paint(text, .bold, .red) : text
    }

    private func padded(_ lines: [String], to count: Int) -> [String] {
        lines + Array(repeating: "", count: max(0, count - lines.count))
    }

    /// `text` cut to the line's width, so no line wraps and shifts the screen; painted with `attributes`.
    private func fitted(_ text: String, _ attributes: TextStyle.Attribute...) -> String {
        style.paint(TerminalText.fit(text, columns: lineWidth), attributes)
    }
}

extension String {
    /// "game over: you win 5 to 3" as "GAME OVER: you win 5 to 3": the words before the colon shout.
    func uppercasedFirstWords() -> String {
        guard let colon = firstIndex(of: ":") else { return self }
        return self[..<colon].uppercased() + self[colon...]
    }
}
