import PairsRules

/// What kind of change a `state` reports: the `kind` of its `event`, spelled as protocol.md spells it.
///
/// The one place the wire names of events live: the encoders write them from the rules' `GameEvent`, the
/// decoder and the load client's scanner read them back. A later protocol version may add kinds, and a
/// client must carry on past them, so a kind this version does not know is kept by name as `unknown`.
public enum EventKind: Sendable, Hashable, CustomStringConvertible {
    case join, peek, start, flip, match, mismatch, hide, timeout, over, timeUp, exhausted, forfeit, leave, disconnect,
        reconnect, rematch
    /// A kind this version does not know, by its wire name. `init(wireName:)` never makes one of a known name.
    case unknown(String)

    /// Every kind this version knows, in protocol.md's order.
    public static let known: [EventKind] = [
        .join, .peek, .start, .flip, .match, .mismatch, .hide, .timeout, .over, .timeUp, .exhausted, .forfeit, .leave,
        .disconnect, .reconnect, .rematch,
    ]

    /// The kind of a change the rules made.
    public init(_ event: GameEvent) {
        switch event {
        case .join: self = .join
        case .peek: self = .peek
        case .start: self = .start
        case .flip: self = .flip
        case .match: self = .match
        case .mismatch: self = .mismatch
        case .hide: self = .hide
        case .timeout: self = .timeout
        case .over: self = .over
        case .timeUp: self = .timeUp
        case .exhausted: self = .exhausted
        case .forfeit: self = .forfeit
        case .leave: self = .leave
        case .disconnect: self = .disconnect
        case .reconnect: self = .reconnect
        case .rematch: self = .rematch
        }
    }

    /// The kind called `wireName`, or `unknown` if this version knows none by that name.
    public init(wireName: String) {
        self = Self.known.first { $0.wireName == wireName } ?? .unknown(wireName)
    }

    /// The known kind whose wire name is the UTF-8 `bytes`, or nil: for a scanner that reads a line's bytes
    /// in place and would rather not make a string of every kind it reads.
    public init?(knownWireName bytes: UnsafeRawBufferPointer) {
        guard let kind = Self.known.first(where: { $0.wireName.utf8.elementsEqual(bytes) }) else { return nil }
        self = kind
    }

    /// The name protocol.md gives the kind.
    public var wireName: String {
        switch self {
        case .join: "join"
        case .peek: "peek"
        case .start: "start"
        case .flip: "flip"
        case .match: "match"
        case .mismatch: "mismatch"
        case .hide: "hide"
        case .timeout: "timeout"
        case .over: "over"
        case .timeUp: "time_up"
        case .exhausted: "exhausted"
        case .forfeit: "forfeit"
        case .leave: "leave"
        case .disconnect: "disconnect"
        case .reconnect: "reconnect"
        case .rematch: "rematch"
        case .unknown(let name): name
        }
    }

    public var description: String { wireName }
}
