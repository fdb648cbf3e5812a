import PairsRules

/// Why some faces make a set, as a player says it: the same word, one rank, or one suit. Its `value` is
/// the rules' (`Deck.rankMatchValue` and the others), so a client values a set as the server scores it.
///
/// The rules keep "what matches" to themselves (`Deck`); this is the client's reading of the faces it
/// was shown, for choosing moves and for telling them.
public enum SetMatch: Sendable, Hashable {
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

    /// How the event lines name it: "rank match", "suit match", "same word".
    public var name: String {
        switch self {
        case .sameWord: "same word"
        case .sameRank: "rank match"
        case .sameSuit: "suit match"
        }
    }

    /// The match `faces` make with a board of `deck`, or nil when they make none. Fewer than two faces make
    /// no set.
    public static func of(_ faces: some Collection<FaceKey>, deck: Deck) -> SetMatch? {
        guard let first = faces.first, faces.count >= 2 else { return nil }
        switch deck {
        case .words:
            return faces.allSatisfy { $0.id == first.id } ? .sameWord : nil
        case .cards:
            guard let card = first.card else { return nil }
            if faces.allSatisfy({ $0.card?.rank == card.rank }) { return .sameRank }
            if faces.allSatisfy({ $0.card?.suit == card.suit }) { return .sameSuit }
            return nil
        }
    }

    /// The match faces written as the wire writes them make (`"K♠"`, `"cat"`), or nil.
    public static func of(faces: [String], deck: Deck) -> SetMatch? {
        of(faces.map { FaceKey(text: $0, among: faces) }, deck: deck)
    }
}

extension FaceKey {
    /// The key of `text` among `faces`: numbered by the first face equal to it.
    init(text: String, among faces: [String]) {
        self.init(id: Int32(faces.firstIndex(of: text) ?? faces.count), card: PlayingCard(face: text))
    }
}
