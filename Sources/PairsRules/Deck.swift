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

    /// What the cards of `set` are worth as a set, or nil when they are not one; `face` tells each card's face.
    func value(of set: CardSet, face: (Int) -> Face) -> Int? {
        guard let firstCard = set.first else { return nil }
        let first = face(firstCard)
        switch self {
        case .words:
            return set.allSatisfy { face($0).text == first.text } ? Self.wordMatchValue : nil
        case .cards:
            guard let card = first.card else { return nil }
            if set.allSatisfy({ face($0).card?.rank == card.rank }) { return Self.rankMatchValue }
            if set.allSatisfy({ face($0).card?.suit == card.suit }) { return Self.suitMatchValue }
            return nil
        }
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

/// A face as the rules hold it: its text, and for a playing card the card it shows.
struct Face: Sendable, Hashable {
    let text: String
    let card: PlayingCard?
}
