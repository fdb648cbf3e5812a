/// The cards of one turn, in the order they were flipped: two or three, or fewer for a turn cut short.
///
/// Held inline (at most `capacity` indices), so a turn in progress and the events that resolve it cost no
/// allocation on the path every flip takes.
public struct CardSet: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
    /// The most cards a set holds (a triple).
    public static let capacity = 3

    private var storage: (Int, Int, Int) = (0, 0, 0)
    public private(set) var count = 0

    public init() {}

    public init(_ cards: some Sequence<Int>) {
        for card in cards { append(card) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Int {
        precondition(position >= 0 && position < count, "card set index out of range")
        switch position {
        case 0: return storage.0
        case 1: return storage.1
        default: return storage.2
        }
    }

    /// Adds the next card flipped.
    public mutating func append(_ card: Int) {
        precondition(count < Self.capacity, "a set holds at most \(Self.capacity) cards")
        switch count {
        case 0: storage.0 = card
        case 1: storage.1 = card
        default: storage.2 = card
        }
        count += 1
    }

    public static func == (lhs: CardSet, rhs: CardSet) -> Bool { lhs.elementsEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for card in self { hasher.combine(card) }
    }

    public var description: String { "[" + map(String.init).joined(separator: ",") + "]" }
}

extension CardSet: ExpressibleByArrayLiteral {
    public init(arrayLiteral cards: Int...) {
        self.init(cards)
    }
}
