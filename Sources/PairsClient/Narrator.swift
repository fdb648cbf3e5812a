import PairsRules
import PairsWire

/// Tells what happened in a game in words, as a person at the table would say it: "bob flipped 7: cat",
/// "no match", "ann found a pair".
///
/// The player reading is "you" (with the verb to match); everyone else goes by name. The narration only
/// uses what the states say, so a spectator and a player see the same story.
public struct Narrator: Sendable {
    /// The reader's seat; nil for a spectator.
    public var me: Seat?

    public init(me: Seat?) {
        self.me = me
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
        /// " (+14)" when the server said what the turn scored.
        let points = event.points.map { " (\($0 >= 0 ? "+" : "")\($0))" } ?? ""
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
            return ["game \(state.game): every card is face up for a moment: remember them"]
        case .start:
            guard let first = event.seat ?? state.turn else { return ["game \(state.game) started"] }
            return ["game \(state.game) started: \(who(first).says("go", "goes")) first"]
        case .flip:
            let seat = event.seat ?? state.turn
            let card = event.card ?? state.cardUp?.card
            return card == nil ? ["\(who(seat).name) flipped a card"] : flipped(seat, card)
        case .match:
            let set = event.cards ?? turned(taken)
            let seat = event.seat ?? set.flatMap { $0.last.flatMap { Self.taker(of: $0, in: state) } }
            let what = set.map { " (\(Self.list($0.map(face))))" } ?? ""
            return flipped(seat, last) + ["\(who(seat).name) found a \(Self.setName(set))\(what)\(points)"]
        case .mismatch:
            // During the reveal the turn is still the flipper's, and the cards are the ones face up.
            let seat = event.seat ?? state.turn
            let faces = (event.cards ?? Self.cardsUp(in: state)).map(face)
            let what = faces.count >= 2 ? " (\(Self.list(faces)))" : ""
            return flipped(seat, last) + ["no match\(what)\(points)"]
        case .hide:
            let hidden = event.cards ?? turned { before, after in
                if case .up = before, after == .down { true } else { false }
            }
            guard let cards = hidden else { return ["the cards turned back"] }
            return ["cards \(Self.list(cards.map(String.init))) turned back"]
        case .timeout:
            let rest = event.card.map { "; card \($0) turned back" } ?? ""
            return ["\(who(event.seat ?? previous?.turn).name) ran out of time\(rest)"]
        case .over:
            let set = event.cards ?? turned(taken)
            let seat = event.seat ?? set.flatMap { $0.last.flatMap { Self.taker(of: $0, in: state) } }
            let what = set.map { " (\(Self.list($0.map(face))))" } ?? ""
            return flipped(seat, last) + ["\(who(seat).name) found the last \(Self.setName(set))\(what)\(points)", result(of: state)]
        case .timeUp:
            return ["time is up", result(of: state)]
        case .exhausted:
            return ["no set is left among the cards face down", result(of: state)]
        case .forfeit:
            // Whoever forfeits loses: the winner's opponent, or a solo player.
            let seat = event.seat ?? (state.players.count == 1 ? .first : state.outcome?.winner?.opponent)
            return ["\(who(seat).name) forfeited the game", result(of: state)]
        case .leave:
            return ["\(who(event.seat).name) left"]
        case .disconnect:
            return ["\(who(event.seat).says("lose", "lost")) the connection; the seat is kept for a while"]
        case .reconnect:
            return ["\(who(event.seat).says("are", "is")) back"]
        case .rematch:
            if event.seat == me, me != nil { return ["you asked for a rematch"] }
            return ["\(who(event.seat).name) wants a rematch"]
        case .unknown:
            return []
        }
    }

    /// "game over: you win 5 to 3", "game over: ann wins by forfeit, 0 to 1", or "game over: a draw, 4 to 4";
    /// for a solo game, "game over: you cleared the board with 8 points" or "game over: you did not clear
    /// the board (8 points)".
    public func result(of state: WireState) -> String {
        let scores = state.players.map { $0?.score ?? 0 }
        if scores.count == 1 {
            let player = subject(.first, in: state, previous: nil)
            switch state.outcome {
            case .win?: return "game over: \(player.says("clear", "clears")) the board with \(scores[0]) points"
            case .loss?, .draw?: return "game over: \(player.says("did", "did")) not clear the board (\(scores[0]) points)"
            case nil: return "game over"
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

    /// "series: ann 2, bob 1, draws 0", or for a solo player "cleared: 2".
    public static func series(of state: WireState) -> String {
        guard state.players.count == 2, state.series.wins.count == 2 else {
            return "cleared: \(state.series.wins.first ?? 0)"
        }
        let names = Seat.allCases.map { name(of: $0, in: state, previous: nil) }
        return "series: \(names[0]) \(state.series.wins[0]), \(names[1]) \(state.series.wins[1]), draws \(state.series.draws)"
    }

    /// The player's name in `state`, or in `previous` if the seat has just been vacated, or "player N".
    public static func name(of seat: Seat, in state: WireState, previous: WireState?) -> String {
        if let player = state.players[seat.index] { return player.name }
        if let player = previous?.players[seat.index] { return player.name }
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

    /// The cards face up (and not matched), in board order.
    static func cardsUp(in state: WireState) -> [Int] {
        state.cards.indices.filter { if case .up = state.cards[$0] { true } else { false } }
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
