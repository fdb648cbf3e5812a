/// A card of the standard 52-card deck, written rank then suit: `A♠`, `10♥`, `K♦`.
public struct PlayingCard: Sendable, Hashable {
    /// A through K, in the order they are dealt from a new deck.
    public enum Rank: Int, Sendable, Hashable, CaseIterable {
        case ace = 1, two, three, four, five, six, seven, eight, nine, ten, jack, queen, king

        /// `A`, `2` ... `10`, `J`, `Q`, `K`.
        public var symbol: String {
            switch self {
            case .ace: "A"
            case .jack: "J"
            case .queen: "Q"
            case .king: "K"
            default: String(rawValue)
            }
        }
    }

    /// The four suits, spades and hearts first.
    public enum Suit: Int, Sendable, Hashable, CaseIterable {
        case spades, hearts, diamonds, clubs

        /// `♠`, `♥`, `♦`, `♣`.
        public var symbol: String {
            switch self {
            case .spades: "♠"
            case .hearts: "♥"
            case .diamonds: "♦"
            case .clubs: "♣"
            }
        }

        /// Hearts and diamonds, which card players see in red.
        public var isRed: Bool { self == .hearts || self == .diamonds }
    }

    /// Cards in a deck.
    public static let deckSize = 52

    public let rank: Rank
    public let suit: Suit

    public init(_ rank: Rank, _ suit: Suit) {
        self.rank = rank
        self.suit = suit
    }

    /// Every card of a deck, suit by suit.
    public static let deck: [PlayingCard] = Suit.allCases.flatMap { suit in Rank.allCases.map { PlayingCard($0, suit) } }

    /// The face as the wire and the screen show it.
    public var face: String { rank.symbol + suit.symbol }

    /// The card a face names (`"10♥"`), or nil for any other text.
    public init?(face: String) {
        guard let suit = Suit.allCases.first(where: { face.hasSuffix($0.symbol) }),
              let rank = Rank.allCases.first(where: { $0.symbol + suit.symbol == face }) else { return nil }
        self.init(rank, suit)
    }
}
