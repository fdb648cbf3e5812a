import PairsRules

/// Why some faces make a set, as a player says it: the rules' own `SetKind`, so that a client reads the
/// faces it was shown as the server scores them.
public typealias SetMatch = SetKind

extension SetKind {
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
    public static func of(_ faces: some Collection<FaceKey>, deck: Deck) -> SetKind? {
        deck.kind(of: faces, word: \.id, card: \.card)
    }

    /// The match faces written as the wire writes them make (`"K♠"`, `"cat"`), or nil.
    public static func of(faces: [String], deck: Deck) -> SetKind? {
        deck.kind(of: faces, word: { $0 }, card: PlayingCard.init(face:))
    }
}
