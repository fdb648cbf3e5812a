/// What the faces on a board are, and so what makes a set and what it is worth.
///
/// "What matches" lives here and nowhere else: the match asks its deck whether the cards of a turn make a
/// set, and whether any set is left among the cards still face down.
public enum Deck: Sendable, Hashable, CaseIterable {
    /// Words (`Faces`): the board holds each of `pairs` words once per card of a set; a set is cards with
    /// the same word, worth 1.
    case words
    /// Playing cards: `pairs` x set size distinct cards from a shuffled 52-card deck; a set is cards of one
    /// rank (worth 4) or of one suit (worth 1).
    case cards

    /// A rank match of a playing-card deck is rarer than a suit match (3 others of a rank, 12 of a suit),
    /// so it is worth four times as much: Matchismo's values.
    public static let rankMatchValue = 4
    public static let suitMatchValue = 1
    public static let wordMatchValue = 1

    /// The faces of a new board for `rules`, before shuffling: sets of identical words, or the first cards
    /// of a deck (the shuffle that follows picks which cards take part).
    func faces(for rules: RuleSet) -> [Face] {
        switch self {
        case .words:
            return Faces.all.prefix(rules.pairs).flatMap { word in
                Array(repeating: Face(text: word, card: nil), count: rules.variant.setSize.rawValue)
            }
        case .cards:
            return PlayingCard.deck.map { Face(text: $0.face, card: $0) }
        }
    }

    /// What kind of set `faces` make, or nil when they make none (fewer than two make none): the one test of
    /// "what matches", for the rules and for clients reading the faces they were shown. `word` tells a
    /// face's word apart from others (its text, or any key standing for it), `card` the playing card it
    /// shows, if it shows one.
    public func kind<Faces: Collection, Word: Equatable>(
        of faces: Faces, word: (Faces.Element) -> Word, card: (Faces.Element) -> PlayingCard?
    ) -> SetKind? {
        guard let first = faces.first, faces.count >= 2 else { return nil }
        switch self {
        case .words:
            let firstWord = word(first)
            return faces.allSatisfy { word($0) == firstWord } ? .sameWord : nil
        case .cards:
            guard let firstCard = card(first) else { return nil }
            if faces.allSatisfy({ card($0)?.rank == firstCard.rank }) { return .sameRank }
            if faces.allSatisfy({ card($0)?.suit == firstCard.suit }) { return .sameSuit }
            return nil
        }
    }

    /// What the cards of `set` are worth as a set, or nil when they are not one; `face` tells each card's face.
    func value(of set: CardSet, face: (Int) -> Face) -> Int? {
        kind(of: set, word: { face($0).text }, card: { face($0).card })?.value
    }

    /// What the cards showing `faces` are worth as a set under this deck, or nil when they are not one.
    public func value(ofFaces faces: [String]) -> Int? {
        kind(of: faces, word: { $0 }, card: PlayingCard.init(face:))?.value
    }

    /// Whether some `size` of `faces` make a set. Words always do while any are left, since a board holds
    /// whole sets; playing cards do while `size` of them share a rank or a suit.
    func holdsSet(among faces: some Sequence<Face>, size: Int) -> Bool {
        switch self {
        case .words:
            var counts: [String: Int] = [:]
            for face in faces {
                counts[face.text, default: 0] += 1
                if counts[face.text]! >= size { return true }
            }
            return false
        case .cards:
            var ranks = [Int](repeating: 0, count: PlayingCard.Rank.allCases.count + 1)
            var suits = [Int](repeating: 0, count: PlayingCard.Suit.allCases.count)
            for face in faces {
                guard let card = face.card else { continue }
                ranks[card.rank.rawValue] += 1
                suits[card.suit.rawValue] += 1
                if ranks[card.rank.rawValue] >= size || suits[card.suit.rawValue] >= size { return true }
            }
            return false
        }
    }
}

/// Why the cards of a set belong together.
public enum SetKind: Sendable, Hashable, CaseIterable {
    /// Identical words.
    case sameWord
    /// Playing cards of one rank.
    case sameRank
    /// Playing cards of one suit (and not of one rank).
    case sameSuit

    /// What the set is worth: Matchismo multiplies it by its bonus.
    public var value: Int {
        switch self {
        case .sameWord: Deck.wordMatchValue
        case .sameRank: Deck.rankMatchValue
        case .sameSuit: Deck.suitMatchValue
        }
    }
}

/// A face as the rules hold it: its text, and for a playing card the card it shows.
struct Face: Sendable, Hashable {
    let text: String
    let card: PlayingCard?
}
