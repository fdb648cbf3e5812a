import PairsRules
import PairsWire

/// The parts of a `state` line a load bot needs, read by `StateScanner` without building a JSON tree.
///
/// Reused from line to line: `cards` keeps its storage, so reading a state allocates nothing once the
/// first one has been read.
public struct ScannedState: Sendable, Hashable {
    /// A card as the scanner saw it: what state it is in and, unless it is face down, its face as an index
    /// into the scanner's `FaceTable`.
    public struct Card: Sendable, Hashable {
        public enum Side: UInt8, Sendable, Hashable {
            case down, up, matched
        }

        public var side: Side
        /// The face's number in the `FaceTable`; `Card.noFace` when face down.
        public var face: Int32

        public static let noFace: Int32 = -1

        public init(side: Side, face: Int32) {
            self.side = side
            self.face = face
        }
    }

    public var game = 0
    public var seq = 0
    public var phase = Phase.waiting
    public var turn: Seat?
    public var cards: [Card] = []
    /// `event.kind`.
    public var eventKind = EventKind.join
    /// `event.id`: the request that caused the change, if one did.
    public var eventID: RequestID?

    public init() {}
}

extension ScannedState {
    /// Fills this state from one the general decoder read (the fallback when the scanner declines a line).
    public mutating func assign(_ message: StateMessage, faces: inout FaceTable) -> Bool {
        let state = message.state
        game = state.game
        seq = state.seq
        phase = state.phase
        turn = state.turn
        eventID = message.id
        eventKind = state.event.kind
        cards.removeAll(keepingCapacity: true)
        for card in state.cards {
            switch card {
            case .down:
                cards.append(Card(side: .down, face: Card.noFace))
            case .up(let face):
                guard let number = faces.number(of: face) else { return false }
                cards.append(Card(side: .up, face: number))
            case .matched(let face, _):
                guard let number = faces.number(of: face) else { return false }
                cards.append(Card(side: .matched, face: number))
            }
        }
        return true
    }
}
