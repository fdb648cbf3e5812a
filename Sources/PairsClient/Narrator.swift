import PairsRules

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
    public func describe(_ state: PublicState, previous: PublicState?, room: String) -> [String] {
        let event = state.event
        func who(_ seat: Seat) -> Subject { subject(seat, in: state, previous: previous) }
        func face(_ card: Int) -> String { Self.face(of: card, in: state) ?? "?" }
        switch event {
        case .join(let seat):
            if seat == me { return ["you joined room \(room) as player \(seat.index + 1)"] }
            return ["\(who(seat).name) joined"]
        case .start(let turn):
            return ["game \(state.game) started: \(who(turn).says("go", "goes")) first"]
        case .flip(let seat, let card):
            return ["\(who(seat).name) flipped \(card): \(face(card))"]
        case .match(let seat, let cards):
            return ["\(who(seat).name) flipped \(cards.second): \(face(cards.second))",
                    "\(who(seat).name) found a pair (\(face(cards.second)))"]
        case .mismatch(let seat, let cards):
            return ["\(who(seat).name) flipped \(cards.second): \(face(cards.second))",
                    "no match (\(face(cards.first)) and \(face(cards.second)))"]
        case .hide(let cards):
            return ["cards \(cards.first) and \(cards.second) turned back"]
        case .timeout(let seat, let hidden):
            let rest = hidden.map { "; card \($0) turned back" } ?? ""
            return ["\(who(seat).name) ran out of time\(rest)"]
        case .over(let seat, let cards):
            return ["\(who(seat).name) flipped \(cards.second): \(face(cards.second))",
                    "\(who(seat).name) found the last pair (\(face(cards.second)))",
                    result(of: state)]
        case .forfeit(let seat):
            return ["\(who(seat).name) forfeited the game", result(of: state)]
        case .leave(let seat):
            return ["\(who(seat).name) left"]
        case .disconnect(let seat):
            return ["\(who(seat).says("lose", "lost")) the connection; the seat is kept for a while"]
        case .reconnect(let seat):
            return ["\(who(seat).says("are", "is")) back"]
        case .rematch(let seat):
            if seat == me { return ["you asked for a rematch"] }
            return ["\(who(seat).name) wants a rematch"]
        }
    }

    /// "game over: you win 5 to 3", "game over: ann wins by forfeit, 0 to 1", or "game over: a draw, 4 to 4".
    public func result(of state: PublicState) -> String {
        let scores = state.players.map { $0?.score ?? 0 }
        switch state.outcome {
        case .win(let winner)?:
            let loser = winner.opponent
            // A forfeit can hand the game to the player behind on points, and the score alone would
            // read as a mistake.
            let how = if case .forfeit = state.event { " by forfeit," } else { "" }
            return "game over: \(subject(winner, in: state, previous: nil).says("win", "wins"))\(how) \(scores[winner.index]) to \(scores[loser.index])"
        case .draw?:
            return "game over: a draw, \(scores[0]) to \(scores[1])"
        case nil:
            return "game over"
        }
    }

    /// "your turn" or "ann's turn".
    public func turn(of seat: Seat, in state: PublicState) -> String {
        seat == me ? "your turn" : "\(Self.name(of: seat, in: state, previous: nil))'s turn"
    }

    /// "series: ann 2, bob 1, draws 0".
    public static func series(of state: PublicState) -> String {
        let names = Seat.allCases.map { name(of: $0, in: state, previous: nil) }
        return "series: \(names[0]) \(state.series.wins[0]), \(names[1]) \(state.series.wins[1]), draws \(state.series.draws)"
    }

    /// The player's name in `state`, or in `previous` if the seat has just been vacated, or "player N".
    public static func name(of seat: Seat, in state: PublicState, previous: PublicState?) -> String {
        if let player = state.players[seat.index] { return player.name }
        if let player = previous?.players[seat.index] { return player.name }
        return "player \(seat.index + 1)"
    }

    /// The face of `card` if the state shows it.
    public static func face(of card: Int, in state: PublicState) -> String? {
        guard state.cards.indices.contains(card) else { return nil }
        switch state.cards[card] {
        case .up(let face), .matched(let face, _): return face
        case .down: return nil
        }
    }

    private func subject(_ seat: Seat, in state: PublicState, previous: PublicState?) -> Subject {
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
