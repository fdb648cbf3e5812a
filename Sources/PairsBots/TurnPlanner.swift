import PairsRules

/// The card a player with perfect memory flips next, under any rules: the mind of `MemoryStrategy`, and
/// of the load client's bots on every board but pairs of words (which they play by a copy of the same
/// rules, kept in step by a test).
///
/// A turn is as many flips as a set has cards. On each flip, in order:
/// 1. **A sure set.** With cards up this turn, a known face-down card that completes a set with them;
///    at the start of a turn, a whole set of known face-down cards. The most valuable first (with playing
///    cards, a rank match is worth 4 and a suit match 1); among suit matches, the cards least likely to
///    find a rank partner later. Once every face-down card is known, the sets are chosen from a plan for
///    the whole rest of the board (`SetPartition`), so that no card is stranded.
/// 2. **Otherwise explore**: an unseen card, at random (two bots do not explore in lockstep). It is the
///    only chance of completing the set, and teaches a face either way. With no unseen card left, any
///    face-down card.
///
/// When a sure set is not worth its cards (playing cards only: sets of words never overlap):
/// - **Solo without a game clock**, only clearing the board wins, and sets of playing cards overlap, so
///   taking them as they come strands cards: in 16-card games the last pair failed to match three times
///   in four. Nothing is lost by waiting, so the bot takes no set until it has seen every card, then
///   plans the whole board. It explores one unseen card a turn and makes the turn's last flip one that
///   cannot complete a set (a known card of another rank and suit), or another unseen card when the cards
///   up already cannot make one. (About 19 deals of 20 of 16 cards can be cleared; of triples, one in 10.)
/// - **Solo against the clock** it takes every sure set at once: time is what it lacks.
/// - **With two players**, a set left on the table is the opponent's next turn. When a match earns another
///   turn, taking it first loses nothing. Otherwise, with Matchismo, the bot explores instead of taking a
///   sure suit match only when the expected score of one unseen card (a rank match, a suit match, or a
///   mismatch and its penalty, the chances counted from the cards not seen yet, the costs from the rules)
///   beats the sure set by more than the set itself, which the opponent would then take. With classic
///   scoring every set is worth one point, and a sure one wins.
public struct TurnPlanner: Sendable {
    /// Which game is played.
    public let variant: Variant
    /// Whether a match earns another turn.
    public let againOnMatch: Bool

    /// A planner for a room of `rules`; nil for a room that sent none, which plays the classic game.
    public init(rules: RuleSet?) {
        variant = rules?.variant ?? .classic
        againOnMatch = rules?.againOnMatch ?? RuleSet.standard.againOnMatch
    }

    /// The card to flip on `board`, or nil when no card is face down.
    public func chooseCard<Board: BoardKnowledge, Generator: RandomNumberGenerator>(
        on board: Board, using generator: inout Generator
    ) -> Int? {
        let survey = Survey(board)
        guard survey.down > 0 else { return nil }
        if let card = sureCard(on: board, survey: survey) { return card }
        // Every face-down card is known only late in a game, or when the memory missed a state: any will do.
        let unseenOnly = survey.unseen > 0
        var pick = Int.random(in: 0..<(unseenOnly ? survey.unseen : survey.down), using: &generator)
        for card in 0..<board.cardCount {
            let known = board.knowledge(of: card)
            guard known.side == .down, !unseenOnly || known.face == nil else { continue }
            if pick == 0 { return card }
            pick -= 1
        }
        return nil
    }

    // MARK: Sure sets

    private var setSize: Int { variant.setSize.rawValue }

    private func sureCard<Board: BoardKnowledge>(on board: Board, survey: Survey) -> Int? {
        // More cards up than a turn has flips: a board this planner cannot read (a server's mistake).
        guard survey.upCount < setSize else { return nil }
        switch variant.deck {
        case .words: return sureWord(on: board, up: survey.up)
        case .cards: return sureCard(ofCards: board, survey: survey)
        }
    }

    /// Words: the cards of one word. With cards up, the first known card of their word; otherwise the first
    /// card of the word whose last known card comes first on the board.
    private func sureWord<Board: BoardKnowledge>(on board: Board, up: CardSet) -> Int? {
        if let first = up.first {
            guard let face = board.knowledge(of: first).face,
                  up.allSatisfy({ board.knowledge(of: $0).face?.id == face.id }) else { return nil }
            var needed = setSize - up.count
            var firstFound: Int?
            for card in 0..<board.cardCount where board.isKnownDown(card, id: face.id) {
                firstFound = firstFound ?? card
                needed -= 1
                if needed == 0 { return firstFound }
            }
            return nil
        }
        for card in 0..<board.cardCount {
            guard let face = board.knownDownFace(of: card) else { continue }
            var earlier = 0
            var firstOfWord = card
            for other in 0..<card where board.isKnownDown(other, id: face.id) {
                if earlier == 0 { firstOfWord = other }
                earlier += 1
            }
            if earlier + 1 >= setSize { return firstOfWord }
        }
        return nil
    }

    /// Playing cards: a rank match before a suit match, or the plan once nothing is left unseen.
    private func sureCard<Board: BoardKnowledge>(ofCards board: Board, survey: Survey) -> Int? {
        if survey.unseen == 0 { return plannedCard(on: board, up: survey.up) }
        let upCards = survey.up.compactMap { board.knowledge(of: $0).face?.card }
        guard upCards.count == survey.up.count else { return nil }
        if variant.seats == .one, variant.gameSeconds == 0 { return safeCard(on: board, up: upCards) }
        let needed = setSize - upCards.count
        var rank: PlayingCard.Rank?
        var suit: PlayingCard.Suit?
        if let first = upCards.first {
            if upCards.allSatisfy({ $0.rank == first.rank }) { rank = first.rank }
            if upCards.allSatisfy({ $0.suit == first.suit }) { suit = first.suit }
        }
        // A rank match: the first known card of a rank with enough known cards (the rank of the cards up).
        for card in 0..<board.cardCount {
            guard let known = board.knownDownFace(of: card)?.card, rank == nil || known.rank == rank,
                  upCards.isEmpty ? rank == nil : rank != nil else { continue }
            if survey.knownDownRanks[known.rank.rawValue] >= needed { return card }
        }
        // A suit match: of the cards that would do, the one whose rank has the fewest copies unseen.
        var best: (card: Int, copiesUnseen: Int)?
        for card in 0..<board.cardCount {
            guard let known = board.knownDownFace(of: card)?.card, suit == nil || known.suit == suit,
                  upCards.isEmpty ? suit == nil : suit != nil,
                  survey.knownDownSuits[known.suit.rawValue] >= needed else { continue }
            let copiesUnseen = PlayingCard.Suit.allCases.count - Int(survey.seenRanks[known.rank.rawValue])
            if copiesUnseen < best?.copiesUnseen ?? .max { best = (card, copiesUnseen) }
        }
        guard let best else { return nil }
        if upCards.isEmpty, exploringBeatsSuitMatch(survey: survey) { return nil }
        return best.card
    }

    /// Solo without a clock, while cards are unseen: on the turn's last flip, a known card that cannot
    /// complete a set with the cards up; nil (explore) on the other flips, when the cards up cannot make a
    /// set whatever comes, or when every known card would complete one.
    private func safeCard<Board: BoardKnowledge>(on board: Board, up: [PlayingCard]) -> Int? {
        guard up.count == setSize - 1, let first = up.first else { return nil }
        let rank = up.allSatisfy { $0.rank == first.rank } ? first.rank : nil
        let suit = up.allSatisfy { $0.suit == first.suit } ? first.suit : nil
        guard rank != nil || suit != nil else { return nil }
        for card in 0..<board.cardCount {
            guard let known = board.knownDownFace(of: card)?.card else { continue }
            if known.rank != rank, known.suit != suit { return card }
        }
        return nil
    }

    /// Whether to explore rather than take a sure suit match at the start of a turn, with two players (see
    /// the type's notes).
    private func exploringBeatsSuitMatch(survey: Survey) -> Bool {
        guard variant.seats == .two, !againOnMatch, case .matchismo(let costs) = variant.scoring else { return false }
        // An unseen card is one of the deck's cards not seen yet: each would complete a rank match or a
        // suit match with known cards, or neither.
        let size = setSize
        var pool = 0, rankMatches = 0, suitMatches = 0
        for card in PlayingCard.deck where survey.seenCards & (1 << UInt64(card.deckIndex)) == 0 {
            pool += 1
            if survey.knownDownRanks[card.rank.rawValue] >= size - 1 {
                rankMatches += 1
            } else if survey.knownDownSuits[card.suit.rawValue] >= size - 1 {
                suitMatches += 1
            }
        }
        guard pool > 0 else { return false }
        let rankChance = Double(rankMatches) / Double(pool)
        let suitChance = Double(suitMatches) / Double(pool)
        let flips = Double(size * costs.flipCost)
        let sure = Double(costs.matchBonus * Deck.suitMatchValue) - flips
        let explore = rankChance * (Double(costs.matchBonus * Deck.rankMatchValue) - flips)
            + suitChance * sure
            + (1 - rankChance - suitChance) * (-flips - Double(costs.mismatchPenalty))
        return explore - sure > sure
    }

    /// With every face-down card known: the next card of the best plan for the rest of the board, the
    /// cards up included; nil when no set can be made.
    private func plannedCard<Board: BoardKnowledge>(on board: Board, up: CardSet) -> Int? {
        var indices: [Int] = []
        var cards: [PlayingCard] = []
        for card in 0..<board.cardCount {
            guard let known = board.knownDownFace(of: card)?.card else { continue }
            indices.append(card)
            cards.append(known)
        }
        var partition = SetPartition(cards: cards, size: setSize)
        guard !up.isEmpty else {
            return partition.bestFirstSet(of: partition.all).map { indices[$0.set.trailingZeroBitCount] }
        }
        let upFaces = up.compactMap { board.knowledge(of: $0).face }
        guard upFaces.count == up.count else { return nil }
        // Each way to complete the cards up, with the best plan for what it leaves.
        var best: (card: Int, score: Int)?
        func consider(_ completion: [Int]) {
            let faces = upFaces + completion.map { FaceKey(id: -1, card: cards[$0]) }
            guard let match = SetMatch.of(faces, deck: .cards) else { return }
            let taken = completion.reduce(UInt64(0)) { $0 | 1 << UInt64($1) }
            let score = match.value + partition.best(partition.all & ~taken)
            if score > best?.score ?? .min { best = (indices[completion[0]], score) }
        }
        switch setSize - up.count {
        case 1:
            for first in cards.indices { consider([first]) }
        default:
            for first in cards.indices {
                for second in cards.indices where second > first { consider([first, second]) }
            }
        }
        return best?.card
    }
}

/// One pass over a board: how many cards are down and unseen, which are up, and counts of the ranks and
/// suits seen, for the planner's questions. Fixed-size counters, so a survey allocates nothing.
private struct Survey {
    var down = 0
    var unseen = 0
    /// The cards up (the first `CardSet.capacity` of them), and how many there are.
    var up = CardSet()
    var upCount = 0
    /// Cards whose face is known, anywhere on the board.
    var seen = 0
    /// By rank (1-13): every card seen; by rank and by suit: the known face-down ones.
    var seenRanks = SIMD16<Int16>()
    var knownDownRanks = SIMD16<Int16>()
    var knownDownSuits = SIMD4<Int16>()
    /// The playing cards seen, one bit each (`PlayingCard.deckIndex`).
    var seenCards: UInt64 = 0

    init<Board: BoardKnowledge>(_ board: Board) {
        for card in 0..<board.cardCount {
            let known = board.knowledge(of: card)
            switch known.side {
            case .down:
                down += 1
                if known.face == nil { unseen += 1 }
            case .up:
                upCount += 1
                if up.count < CardSet.capacity { up.append(card) }
            case .gone:
                break
            }
            guard let face = known.face else { continue }
            seen += 1
            guard let playing = face.card else { continue }
            seenRanks[playing.rank.rawValue] += 1
            seenCards |= 1 << UInt64(playing.deckIndex)
            if known.side == .down {
                knownDownRanks[playing.rank.rawValue] += 1
                knownDownSuits[playing.suit.rawValue] += 1
            }
        }
    }
}

extension BoardKnowledge {
    /// The face of `card` if it is face down and known.
    func knownDownFace(of card: Int) -> FaceKey? {
        let known = knowledge(of: card)
        return known.side == .down ? known.face : nil
    }

    /// Whether `card` is face down and known to show the face numbered `id`.
    func isKnownDown(_ card: Int, id: Int32) -> Bool {
        knownDownFace(of: card)?.id == id
    }
}

extension PlayingCard {
    /// The card's place in a new deck (`PlayingCard.deck`), 0 to 51.
    var deckIndex: Int { suit.rawValue * Rank.allCases.count + rank.rawValue - 1 }
}
