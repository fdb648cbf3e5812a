import PairsRules

/// How protocol.md spells the rules' enumerations: the one place the wire names of phases, decks and
/// scorings live, for the encoders to write and the decoders to read.
public protocol WireNamed: CaseIterable {
    /// The name protocol.md gives the value.
    var wireName: String { get }
}

extension WireNamed {
    /// The value protocol.md calls `wireName`, or nil.
    public init?(wireName: String) {
        guard let value = Self.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = value
    }

    /// Every value's wire name, for error messages that list them.
    public static var wireNames: [String] { allCases.map(\.wireName) }
}

extension Phase: WireNamed {
    public var wireName: String {
        switch self {
        case .waiting: "waiting"
        case .peek: "peek"
        case .playing: "playing"
        case .reveal: "reveal"
        case .over: "over"
        }
    }
}

extension Deck: WireNamed {
    public var wireName: String {
        switch self {
        case .words: "words"
        case .cards: "cards"
        }
    }
}

extension Scoring.Kind: WireNamed {
    public var wireName: String {
        switch self {
        case .classic: "classic"
        case .matchismo: "matchismo"
        }
    }
}
