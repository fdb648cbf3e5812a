import PairsBots
import PairsRules
import PairsWire

/// Tells what happened in a game in words, as a person at the table would say it: "bob flipped 7: cat",
/// "no match", "ann found a pair", "bob scored +14: rank match K♠ K♥, 16 less 2 for the flips".
///
/// The player reading is "you" (with the verb to match); everyone else goes by name. The narration only
/// uses what the states and the room's rules say, so a spectator and a player see the same story.
public struct Narrator: Sendable {
    /// The reader's seat; nil for a spectator.
    public var me: Seat?
    /// The room's rules as its messages carry them; nil for a room of the classic game.
    public var rules: RuleSet?
    /// How long the game that just ended was played, from its start to its end by the client's clock, when
    /// the client saw both: a solo player is told how fast the board was cleared.
    public var playMilliseconds: Int?

    public init(me: Seat?, rules: RuleSet? = nil, playMilliseconds: Int? = nil) {
        self.me = me
        self.rules = rules
        self.playMilliseconds = playMilliseconds
    }

    /// The lines that describe how `state` came about, given the state before it (for the name of a player
    /// who has just left). `room` names the room in the first line a player sees.
    ///
    /// Only the event's kind is certain: protocol.md lets a server leave out its seat and cards, so what it
    /// leaves out is read from the states where they show it (whose turn it is, the cards that turned, who
    /// took them), and otherwise left unsaid. A kind this client does not know is not told at all.
    public func describe(_ state: WireState, previous: WireState?, room: String) -> [String] {
        let event = state.event
        func who(_ seat: Seat?) -> Subject {
            seat.map { subject($0, in: state, previous: previous) } ?? Subject(name: "a player", isReader: false)
        }
        func face(_ card: Int) -> String { Self.face(of: card, in: state) ?? "?" }
        /// "bob flipped 7: cat", when the card is known.
        func flipped(_ seat: Seat?, _ card: Int?) -> [String] {
            card.map { ["\(who(seat).name) flipped \($0): \(face($0))"] } ?? []
        }
        /// The cards of a set that turned from `before` to `after` since the previous state, when the event
        /// does not say which.
        func turned(_ change: (_ before: CardView, _ after: CardView) -> Bool) -> [Int]? {
            guard let previous, previous.cards.count == state.cards.count else { return nil }
            let cards = state.cards.indices.filter { change(previous.cards[$0], state.cards[$0]) }
            return cards.count >= 2 ? cards : nil
        }
        func taken(_ before: CardView, _ after: CardView) -> Bool {
            if case .matched = after, !Self.isMatched(before) { true } else { false }
        }
        // The card flipped last, only if the server said: the flip order is not on the board.
        let last = event.card ?? event.cards?.last
        switch event.kind {
        case .join:
            if let seat = event.seat, seat == me { return ["you joined room \(room) as player \(seat.index + 1)"] }
            return ["\(who(event.seat).name) joined"]
        case .peek:
            let peek = rules.map { " for \(Self.duration(milliseconds: $0.variant.peekMilliseconds))" } ?? " for a moment"
            return ["game \(state.game): every card is face up\(peek): remember them"]
        case .start:
            if state.players.count == 1 {
                let clock = state.gameMillisecondsLeft.map { " within \(Self.clock(milliseconds: $0))" } ?? ""
                return ["game \(state.game) started: \(who(.first).says("clear", "clears")) the board\(clock)"]
            }
            guard let first = event.seat ?? state.turn else { return ["game \(state.game) started"] }
            return ["game \(state.game) started: \(who(first).says("go", "goes")) first"]
        case .flip:
            let seat = event.seat ?? state.turn
            // Without the card, the one up now that was down before (or the only one up).
            let newlyUp = state.cardsUp.filter { previous?.cards.indices.contains($0) == true && previous?.cards[$0] == .down }
            let card = event.card ?? (newlyUp.count == 1 ? newlyUp.first : nil) ?? (state.cardsUp.count == 1 ? state.cardsUp.first : nil)
            return card == nil ? ["\(who(seat).name) flipped a card"] : flipped(seat, card)
        case .match:
            let set = event.cards ?? turned(taken)
            let seat = event.seat ?? set.flatMap { $0.last.flatMap { Self.taker(of: $0, in: state) } }
            return flipped(seat, last) + [took(set, points: event.points, by: who(seat), last: false, faces: face)]
        case .mismatch:
            // During the reveal the turn is still the flipper's, and the cards are the ones face up.
            let seat = event.seat ?? state.turn
            let faces = (event.cards ?? state.cardsUp).map(face)
            let what = faces.count >= 2 ? " (\(Self.list(faces)))" : ""
            if let points = event.points, let costs = matchismoCosts {
                var parts: [String] = []
                let flips = faces.count * costs.flipCost
                if flips > 0 { parts.append("\(flips) for the flips") }
                if costs.mismatchPenalty > 0 { parts.append("\(costs.mismatchPenalty) for the mismatch") }
                // Said only when it adds up: a server with other arithmetic gets its figure alone.
                let why = parts.isEmpty || -(flips + costs.mismatchPenalty) != points ? "" : ", " + parts.joined(separator: " and ")
                return flipped(seat, last) + ["\(who(seat).name) scored \(Self.signed(points)): no match \(faces.joined(separator: " "))\(why)"]
            }
            return flipped(seat, last) + ["no match\(what)\(Self.pointsSuffix(event.points))"]
        case .hide:
            let hidden = event.cards ?? turned { before, after in
                if case .up = before, after == .down { true } else { false }
            }
            guard let cards = hidden else { return ["the cards turned back"] }
            return ["cards \(Self.list(cards.map(String.init))) turned back"]
        case .timeout:
            // A turn of three cards can leave two up: the server then says which.
            let hidden = event.cards ?? event.card.map { [$0] } ?? []
            let rest = hidden.isEmpty ? ""
                : "; \(hidden.count == 1 ? "card" : "cards") \(Self.list(hidden.map(String.init))) turned back"
            return ["\(who(event.seat ?? previous?.turn).name) ran out of time\(rest)"]
        case .over:
            let set = event.cards ?? turned(taken)
            let seat = event.seat ?? set.flatMap { $0.last.flatMap { Self.taker(of: $0, in: state) } }
            return flipped(seat, last) + [took(set, points: event.points, by: who(seat), last: true, faces: face), result(of: state)]
        case .timeUp:
            return ["time's up", result(of: state)]
        case .exhausted:
            return ["no set can be made of the cards face down", result(of: state)]
        case .forfeit:
            // Whoever forfeits loses: the winner's opponent, or a solo player.
            let seat = event.seat ?? (state.players.count == 1 ? .first : state.outcome?.winner?.opponent)
            return ["\(who(seat).name) forfeited the game", result(of: state)]
        case .leave:
            return ["\(who(event.seat).name) left"]
        case .disconnect:
            // The server does not say its grace period; a server started without --grace-seconds keeps the
            // seat as long as this client keeps trying to reconnect.
            let grace = ReconnectPolicy.standardWindowMilliseconds / 1000
            return ["\(who(event.seat).says("lose", "lost")) the connection; the seat is kept for the server's grace period (\(grace) s by default)"]
        case .reconnect:
            return ["\(who(event.seat).says("are", "is")) back"]
        case .rematch:
            if event.seat == me, me != nil { return ["you asked for a rematch"] }
            return ["\(who(event.seat).name) wants a rematch"]
        case .unknown:
            return []
        }
    }

    /// The line for a set taken: "ann found a pair (cat)", "bob found a pair (rank match K♠ K♥)" or, where
    /// Matchismo scores, "bob scored +14: rank match K♠ K♥, 16 less 2 for the flips".
    private func took(_ set: [Int]?, points: Int?, by player: Subject, last: Bool, faces face: (Int) -> String) -> String {
        let faces = set?.map(face) ?? []
        let deck = rules?.variant.deck ?? .words
        let match = SetMatch.of(faces: faces, deck: deck)
        // "rank match K♠ K♥" with playing cards, where the kind of match is the news.
        let cardsTaken = match.map { $0 == .sameWord ? nil : "\($0.name) \(faces.joined(separator: " "))" } ?? nil
        if let points, let costs = matchismoCosts, let match {
            let gain = costs.matchBonus * match.value
            let flips = faces.count * costs.flipCost
            let what = cardsTaken ?? "a \(Self.setName(set)) (\(Self.list(faces)))"
            // Said only when it adds up: a server with other arithmetic gets its figure alone.
            let why = gain - flips != points ? "" : flips > 0 ? ", \(gain) less \(flips) for the flips" : ", \(gain)"
            let lastSet = last ? " with the last set" : ""
            return "\(player.name) scored \(Self.signed(points))\(lastSet): \(what)\(why)"
        }
        let what = cardsTaken.map { " (\($0))" } ?? (set.map { _ in " (\(Self.list(faces)))" } ?? "")
        return "\(player.name) found \(last ? "the last" : "a") \(Self.setName(set))\(what)\(Self.pointsSuffix(points))"
    }

    /// Matchismo's constants, in a room that scores by them.
    private var matchismoCosts: MatchismoCosts? {
        if case .matchismo(let costs)? = rules?.variant.scoring { costs } else { nil }
    }

    /// "game over: you win 5 to 3", "game over: ann wins by forfeit, 0 to 1", or "game over: a draw, 4 to 4";
    /// for a solo game, "game over: you cleared the board in 0:41 with 8 points", "game over: time's up, you
    /// did not clear the board (5 points)".
    public func result(of state: WireState) -> String {
        let scores = state.players.map { $0?.score ?? 0 }
        if scores.count == 1 {
            let player = subject(.first, in: state, previous: nil)
            let points = "\(scores[0]) point\(abs(scores[0]) == 1 ? "" : "s")"
            switch state.outcome {
            case .win?:
                let time = playMilliseconds.map { " in \(Self.clock(milliseconds: $0))" } ?? ""
                return "game over: \(player.name) cleared the board\(time) with \(points)"
            case .loss?, .draw?:
                let why: String =
                    switch state.event.kind {
                    case .timeUp: "time's up, "
                    case .exhausted: "no set left, "
                    case .forfeit: "given up, "
                    default: ""
                    }
                return "game over: \(why)\(player.name) did not clear the board (\(points))"
            case nil:
                return "game over"
            }
        }
        switch state.outcome {
        case .win(let winner)?:
            let loser = winner.opponent
            // A forfeit can hand the game to the player behind on points, and the score alone would
            // read as a mistake.
            let how = state.event.kind == .forfeit ? " by forfeit," : ""
            return "game over: \(subject(winner, in: state, previous: nil).says("win", "wins"))\(how) \(scores[winner.index]) to \(scores[loser.index])"
        case .draw?, .loss?:
            return "game over: a draw, \(scores[0]) to \(scores[1])"
        case nil:
            return "game over"
        }
    }

    /// "+14", "-4", "0".
    static func signed(_ points: Int) -> String {
        points > 0 ? "+\(points)" : "\(points)"
    }

    /// " (+14)" when a server said what a turn scored and the rules to explain it are missing; else "".
    static func pointsSuffix(_ points: Int?) -> String {
        points.map { " (\(signed($0)))" } ?? ""
    }

    /// "0:41", "12:05": minutes and seconds, rounded up (a clock showing 0:00 has run out).
    public static func clock(milliseconds: Int) -> String {
        let seconds = (max(0, milliseconds) + 999) / 1000
        return "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"
    }

    /// "2 seconds", "1.5 seconds", "a second".
    static func duration(milliseconds: Int) -> String {
        if milliseconds == 1000 { return "a second" }
        let tenths = (milliseconds + 50) / 100
        let text = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
        return "\(text) seconds"
    }

    /// "pair" or "triple", by the cards of a set when known.
    static func setName(_ cards: [Int]?) -> String {
        (cards?.count ?? 2) == 3 ? "triple" : "pair"
    }

    /// "a and b", "a, b and c"; a set of identical words once ("cat").
    static func list(_ items: [String]) -> String {
        guard items.count > 1, Set(items).count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// "your turn" or "ann's turn".
    public func turn(of seat: Seat, in state: WireState) -> String {
        seat == me ? "your turn" : "\(Self.name(of: seat, in: state, previous: nil))'s turn"
    }

    /// "series: ann 2, bob 1, draws 0", or for a solo player "cleared 2 of 3" ("first game" before any); nil
    /// while a seat of two is empty, since whoever sits down next starts a new series.
    public static func series(of state: WireState) -> String? {
        guard state.players.count == 2, state.series.wins.count == 2 else {
            let played = state.phase == .over ? state.game : max(0, state.game - 1)
            return played == 0 ? "first game" : "cleared \(state.series.wins.first ?? 0) of \(played)"
        }
        guard !state.players.contains(where: { $0 == nil }) else { return nil }
        let names = Seat.allCases.map { name(of: $0, in: state, previous: nil) }
        return "series: \(names[0]) \(state.series.wins[0]), \(names[1]) \(state.series.wins[1]), draws \(state.series.draws)"
    }

    /// The player's name in `state`, or in `previous` if the seat has just been vacated, or "player N".
    public static func name(of seat: Seat, in state: WireState, previous: WireState?) -> String {
        // A seat past the players is a server's mistake (a solo room has one): named, never indexed.
        if state.players.indices.contains(seat.index), let player = state.players[seat.index] { return player.name }
        if let previous, previous.players.indices.contains(seat.index), let player = previous.players[seat.index] {
            return player.name
        }
        return "player \(seat.index + 1)"
    }

    /// The face of `card` if the state shows it.
    public static func face(of card: Int, in state: WireState) -> String? {
        guard state.cards.indices.contains(card) else { return nil }
        switch state.cards[card] {
        case .up(let face), .matched(let face, _): return face
        case .down: return nil
        }
    }

    /// The seat that took `card`, if the state shows it matched.
    static func taker(of card: Int, in state: WireState) -> Seat? {
        guard state.cards.indices.contains(card), case .matched(_, let seat) = state.cards[card] else { return nil }
        return seat
    }

    private static func isMatched(_ card: CardView) -> Bool {
        if case .matched = card { true } else { false }
    }

    private func subject(_ seat: Seat, in state: WireState, previous: WireState?) -> Subject {
        seat == me ? Subject(name: "you", isReader: true)
            : Subject(name: Self.name(of: seat, in: state, previous: previous), isReader: false)
    }

    /// Who did something, so the verb can agree: "you win", "ann wins".
    private struct Subject {
        var name: String
        var isReader: Bool

        func says(_ secondPerson: String, _ thirdPerson: String) -> String {
            "\(name) \(isReader ? secondPerson : thirdPerson)"
        }
    }
}
