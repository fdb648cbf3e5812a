@testable import PairsRules
import Testing

/// Rules of `variant` with no turn clock, a one-second reveal, and `pairs` sets.
private func rules(_ variant: Variant, pairs: Int = 4, turnSeconds: Int = 0, againOnMatch: Bool = true) -> RuleSet {
    RuleSet(variant: variant, pairs: pairs, turnSeconds: turnSeconds, revealMilliseconds: 1000, againOnMatch: againOnMatch)
}

private func variant(
    seats: SeatCount = .two, setSize: SetSize = .pair, deck: Deck = .words, scoring: Scoring = .classic,
    gameSeconds: Int = 0, peekMilliseconds: Int = 0
) -> Variant {
    Variant(seats: seats, setSize: setSize, deck: deck, scoring: scoring, gameSeconds: gameSeconds, peekMilliseconds: peekMilliseconds)
}

/// A match of `rules` with every seat taken and the first game dealt.
private func seated(_ rules: RuleSet, seed: UInt64 = 7) throws -> (Match, [PublicState]) {
    var match = Match(rules: rules, graceMilliseconds: 60_000, seed: seed)
    var states: [PublicState] = []
    for name in ["ann", "bob"].prefix(rules.variant.seats.rawValue) {
        states += try match.join(name: name, at: at(0)).states
    }
    return (match, states)
}

extension Match {
    /// The face-down cards of the board as playing cards, by index.
    var downCards: [(index: Int, card: PlayingCard)] {
        cards.indices.compactMap { index in
            guard cards[index].status == .down, let card = cards[index].face.card else { return nil }
            return (index, card)
        }
    }

    /// Face-down cards that make a set of `size` under `rule`, if the board has one.
    func downSet(_ size: Int, where rule: ([PlayingCard]) -> Bool) -> [Int]? {
        let down = downCards
        func search(_ start: Int, _ chosen: [Int]) -> [Int]? {
            if chosen.count == size { return rule(chosen.map { down[$0].card }) ? chosen.map { down[$0].index } : nil }
            guard start < down.count else { return nil }
            for next in start..<down.count {
                if let found = search(next + 1, chosen + [next]) { return found }
            }
            return nil
        }
        return search(0, [])
    }
}

private func sameRank(_ cards: [PlayingCard]) -> Bool { Set(cards.map(\.rank)).count == 1 }
private func sameSuitOtherRanks(_ cards: [PlayingCard]) -> Bool {
    Set(cards.map(\.suit)).count == 1 && Set(cards.map(\.rank)).count == cards.count
}
private func mixed(_ cards: [PlayingCard]) -> Bool {
    Set(cards.map(\.suit)).count > 1 && Set(cards.map(\.rank)).count > 1
}

@Suite("The variants")
struct VariantTests {
    @Test("a solo game starts as the player sits down, with one seat, and every turn is that player's")
    func soloStartsAtOnce() throws {
        let (match, states) = try seated(rules(variant(seats: .one)))
        #expect(states.map(\.event) == [.join(.first), .start(turn: .first)])
        #expect(states.last?.players.count == 1)
        #expect(states.last?.series.wins == [0])
        #expect(match.turn == .first)
        #expect(match.freeSeat == nil)
    }

    @Test("a solo player who clears the board in time wins; the series counts it")
    func soloClearedInTime() throws {
        var (match, _) = try seated(rules(variant(seats: .one, gameSeconds: 60), pairs: 2))
        var last: [PublicState] = []
        for _ in 0..<2 {
            let pair = match.knownPair
            _ = try match.flip(card: pair[0], by: .first, at: at(1000))
            last = try match.flip(card: pair[1], by: .first, at: at(2000))
        }
        #expect(last.last?.phase == .over)
        #expect(last.last?.outcome == .win(.first))
        #expect(last.last?.series.wins == [1])
        #expect(match.nextDeadline == nil, "the game clock stops when the board is cleared")
    }

    @Test("a solo player loses when the game clock runs out, at exactly game_seconds, with the unfinished turn turned back")
    func soloLosesOnTime() throws {
        var (match, states) = try seated(rules(variant(seats: .one, gameSeconds: 30)))
        #expect(states.last?.gameMillisecondsLeft == 30_000)
        let first = try match.flip(card: match.knownPair[0], by: .first, at: at(20_000))
        #expect(first.last?.gameMillisecondsLeft == 10_000)
        #expect(match.advance(to: at(29_999)).isEmpty)
        let end = match.advance(to: at(30_000))
        #expect(end.map(\.event) == [.timeUp])
        #expect(end.last?.phase == .over)
        #expect(end.last?.outcome == .loss)
        #expect(end.last?.outcome?.winner == nil)
        #expect(end.last?.cards.contains { if case .up = $0 { true } else { false } } == false)
        #expect(end.last?.gameMillisecondsLeft == nil)
        // Every card is still face down, and the game over lists all their faces, in board order; no state
        // before it listed any.
        #expect(end.last?.cards.allSatisfy { $0 == .down } == true)
        #expect(end.last?.downFaces == match.deal)
        #expect(first.allSatisfy { $0.downFaces == nil } && states.allSatisfy { $0.downFaces == nil })
    }

    @Test("with two players the game clock ends the game by score, and keeps running through a reveal")
    func gameClockScoresTwoPlayers() throws {
        var (match, _) = try seated(rules(variant(gameSeconds: 10)))
        let pair = match.knownPair
        _ = try match.flip(card: pair[0], by: .first, at: at(1000))
        _ = try match.flip(card: pair[1], by: .first, at: at(2000))
        let miss = match.knownMismatch
        _ = try match.flip(card: miss[0], by: .first, at: at(9000))
        let shown = try match.flip(card: miss[1], by: .first, at: at(9500))
        #expect(shown.last?.phase == .reveal)
        #expect(shown.last?.gameMillisecondsLeft == 500)
        let end = match.advance(to: at(10_000))
        #expect(end.map(\.event) == [.timeUp])
        #expect(end.last?.outcome == .win(.first))
        // The faces never found: every card but the pair matched, the mismatch turned back among them.
        let neverFound = match.deal.indices.filter { !pair.contains($0) }.map { match.deal[$0] }
        #expect(end.last?.downFaces == neverFound)
    }

    @Test("a three-card turn is three flips: two flip events, then the set matches (or not) with all three cards")
    func threeCardTurns() throws {
        var (match, _) = try seated(rules(variant(setSize: .triple)))
        let faces = match.faces
        let set = faces.indices.filter { faces[$0] == faces[0] }
        #expect(set.count == 3)
        var events: [GameEvent] = []
        for card in set { events += try match.flip(card: card, by: .first, at: at(1)).map(\.event) }
        #expect(events == [.flip(.first, card: set[0]), .flip(.first, card: set[1]),
                           .match(.first, cards: CardSet(set), points: 1)])
        let other = faces.indices.filter { faces[$0] != faces[0] }
        let miss = [other[0], other.first { faces[$0] != faces[other[0]] }!, faces.indices.first { faces[$0] == faces[other[0]] && $0 != other[0] }!]
        events = []
        for card in miss { events += try match.flip(card: card, by: .first, at: at(2)).map(\.event) }
        #expect(events.last == .mismatch(.first, cards: CardSet(miss), points: 0))
        #expect(match.phase == .reveal)
    }

    @Test("Matchismo with playing cards: each flip costs as it turns, a rank set earns 4 x the bonus, a suit set 1 x, a mixed set costs the penalty, and scores go negative")
    func matchismoScores() throws {
        let costs = MatchismoCosts(flipCost: 1, mismatchPenalty: 2, matchBonus: 4)
        var (match, _) = try seated(rules(variant(deck: .cards, scoring: .matchismo(costs)), pairs: 26, againOnMatch: true))
        // A mismatch first: two flips and the penalty, -4, and every state shows the score as it is.
        let miss = try #require(match.downSet(2, where: mixed))
        let flipped = try match.flip(card: miss[0], by: .first, at: at(1))
        #expect(flipped.last?.players[0]?.score == -1)
        let missed = try match.flip(card: miss[1], by: .first, at: at(2))
        #expect(missed.first?.event == .mismatch(.first, cards: CardSet(miss), points: -4))
        #expect(missed.first?.players[0]?.score == -4)
        _ = match.advance(to: at(2000))
        // Bob takes a rank set: 4 x 4 less 2 flips, +14.
        let rank = try #require(match.downSet(2, where: sameRank))
        _ = try match.flip(card: rank[0], by: .second, at: at(3000))
        let ranked = try match.flip(card: rank[1], by: .second, at: at(3001))
        #expect(ranked.first?.event == .match(.second, cards: CardSet(rank), points: 14))
        #expect(ranked.first?.players[1]?.score == 14)
        // And, again on turn, a suit set: 1 x 4 less 2 flips, +2.
        let suit = try #require(match.downSet(2, where: sameSuitOtherRanks))
        _ = try match.flip(card: suit[0], by: .second, at: at(3002))
        let suited = try match.flip(card: suit[1], by: .second, at: at(3003))
        #expect(suited.first?.event.points == 2)
        #expect(suited.first?.players[1]?.score == 16)
    }

    @Test("a rank set of three playing cards is still worth 4")
    func rankTripleIsWorthFour() throws {
        var (match, _) = try seated(rules(variant(setSize: .triple, deck: .cards, scoring: .matchismo(.standard)), pairs: 17))
        let rank = try #require(match.downSet(3, where: sameRank))
        var states: [PublicState] = []
        for card in rank { states += try match.flip(card: card, by: .first, at: at(1)) }
        #expect(states.last?.event == .match(.first, cards: CardSet(rank), points: 4 * 4 - 3))
    }

    @Test("with playing cards, the game ends as exhausted once no set can be made of the cards face down")
    func playingCardsRunOut() throws {
        // Deals of three-card sets from playing cards until one takes a set and leaves none behind.
        for seed in UInt64(0)..<500 {
            var (match, _) = try seated(rules(variant(setSize: .triple, deck: .cards), pairs: 2), seed: seed)
            guard let set = match.downSet(3, where: { sameRank($0) || Set($0.map(\.suit)).count == 1 }) else { continue }
            var rest = match
            for card in set { rest.cards[card].status = .matched(by: .first) }
            guard !rest.setsRemain else { continue }
            var states: [PublicState] = []
            for card in set { states += try match.flip(card: card, by: .first, at: at(1)) }
            #expect(states.suffix(2).map(\.event).last == .exhausted)
            #expect(states.last?.phase == .over)
            #expect(states.last?.outcome == .win(.first))
            #expect(states.last?.cards.contains(.down) == true)
            return
        }
        Issue.record("no deal of the first 500 seeds runs out of sets after one match")
    }

    @Test("a deal of playing cards always holds a set, however small the board")
    func dealsHoldASet() throws {
        for seed in UInt64(0)..<300 {
            for size in SetSize.allCases {
                let (match, _) = try seated(rules(variant(setSize: size, deck: .cards), pairs: 2), seed: seed)
                #expect(match.setsRemain, "seed \(seed), sets of \(size.rawValue)")
            }
        }
    }

    @Test("a peek shows every face to everyone, refuses flips, and after peek_ms turns them down and starts play")
    func peekShowsThenStarts() throws {
        var (match, states) = try seated(rules(variant(peekMilliseconds: 2500)))
        let peek = try #require(states.last)
        #expect(peek.event == .peek)
        #expect(peek.phase == .peek)
        #expect(peek.turn == nil)
        #expect(peek.cards.map { card -> String? in if case .up(let face) = card { face } else { nil } } == match.faces)
        #expect(throws: MoveError.notPlaying(.peek)) { try match.flip(card: 0, by: .first, at: at(100)) }
        #expect(match.advance(to: at(2499)).isEmpty)
        let start = match.advance(to: at(2500))
        #expect(start.map(\.event) == [.start(turn: .first)])
        #expect(start.last?.cards.allSatisfy { $0 == .down } == true)
    }

    @Test("a player who leaves during the peek forfeits the game")
    func leavingDuringPeekForfeits() throws {
        var (match, _) = try seated(rules(variant(peekMilliseconds: 2500)))
        let states = try match.leave(seat: .second, at: at(10))
        #expect(states.map(\.event) == [.forfeit(.second, .left), .leave(.second)])
        #expect(states.first?.outcome == .win(.first))
    }

    @Test("a solo player's timeouts give the turn back to the same player, and three in a row lose the game")
    func soloTimeouts() throws {
        var (match, _) = try seated(rules(variant(seats: .one), turnSeconds: 5))
        let states = match.advance(to: at(15_000))
        #expect(states.map(\.event) == [.timeout(.first, hidden: []), .timeout(.first, hidden: []), .timeout(.first, hidden: []),
                                        .forfeit(.first, .timeouts)])
        #expect(states.last?.outcome == .loss)
    }

    @Test("choices over defaults: unchosen rules are the defaults', Matchismo's constants count only under Matchismo")
    func choicesOverDefaults() throws {
        var choices = RuleChoices()
        choices.setSize = .triple
        choices.flipCost = 9
        let classic = try choices.rules(over: .standard)
        #expect(classic.variant.setSize == .triple)
        #expect(classic.variant.scoring == .classic)
        #expect(classic.pairs == 8)
        choices.scoring = .matchismo
        let matchismo = try choices.rules(over: .standard)
        #expect(matchismo.variant.scoring == .matchismo(MatchismoCosts(flipCost: 9, mismatchPenalty: 2, matchBonus: 4)))
        #expect(try RuleChoices(matchismo).rules(over: .standard) == matchismo)
    }

    @Test("a board too big for its sets or deck is refused, naming the field and the range", arguments: [
        (SetSize.pair, Deck.words, 33, 2...32), (.triple, .words, 22, 2...21), (.pair, .cards, 27, 2...26), (.triple, .cards, 18, 2...17),
    ])
    func boardSizeDependsOnTheVariant(size: SetSize, deck: Deck, pairs: Int, allowed: ClosedRange<Int>) {
        var choices = RuleChoices()
        choices.setSize = size
        choices.deck = deck
        choices.pairs = pairs
        do {
            _ = try choices.rules(over: .standard)
            Issue.record("\(pairs) sets were accepted")
        } catch {
            #expect(error.field == "pairs")
            #expect(error.description.hasPrefix("pairs must be \(allowed.lowerBound)...\(allowed.upperBound)"))
        }
        choices.pairs = allowed.upperBound
        #expect(throws: Never.self) { try choices.rules(over: .standard) }
    }

    @Test("rules out of range are refused, naming the field", arguments: [
        ("game_seconds", 3601), ("peek_ms", 10_001), ("flip_cost", 101), ("mismatch_penalty", -1), ("match_bonus", 101),
    ])
    func variantRulesAreValidated(field: String, value: Int) {
        var choices = RuleChoices()
        choices.scoring = .matchismo
        switch field {
        case "game_seconds": choices.gameSeconds = value
        case "peek_ms": choices.peekMilliseconds = value
        case "flip_cost": choices.flipCost = value
        case "mismatch_penalty": choices.mismatchPenalty = value
        default: choices.matchBonus = value
        }
        do {
            _ = try choices.rules(over: .standard)
            Issue.record("\(field) \(value) was accepted")
        } catch {
            #expect(error.field == field)
            #expect(error.description.contains("not \(value)"))
        }
    }

    @Test("playing-card faces read back as the cards they name, and nothing else does")
    func playingCardFaces() {
        #expect(PlayingCard.deck.count == 52)
        #expect(Set(PlayingCard.deck.map(\.face)).count == 52)
        for card in PlayingCard.deck { #expect(PlayingCard(face: card.face) == card) }
        #expect(PlayingCard(.ten, .hearts).face == "10♥")
        for text in ["", "1♥", "11♠", "A", "♠", "cat", "A♠ "] { #expect(PlayingCard(face: text) == nil) }
    }
}
