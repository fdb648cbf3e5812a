/// The keys `pairs replay` reads on a terminal, one at a time as they are pressed: space, Enter, `n` or →
/// step forward; `b`, `p` or ← step back; `g` and `G` go to the start and the end; `q` quits.
///
/// An arrow key arrives as an escape sequence (`ESC [ C`), possibly split over two reads, so the reader
/// keeps an unfinished one until the rest comes.
public struct ReplayKeys: Sendable, Hashable {
    public enum Key: Sendable, Hashable {
        case forward, back, first, last, quit
    }

    /// Bytes of an escape sequence not finished yet.
    private var pending: [UInt8] = []

    public init() {}

    /// The keys in `bytes`; anything else is ignored.
    public mutating func take(_ bytes: some Sequence<UInt8>) -> [Key] {
        var keys: [Key] = []
        for byte in bytes {
            if !pending.isEmpty {
                pending.append(byte)
                // ESC [ then a final byte: C is →, D is ←; anything else is a key this reader does not use.
                if pending.count == 2, byte != UInt8(ascii: "[") { pending = [] }
                if pending.count == 3 {
                    if byte == UInt8(ascii: "C") { keys.append(.forward) }
                    if byte == UInt8(ascii: "D") { keys.append(.back) }
                    pending = []
                }
                continue
            }
            switch byte {
            case 0x1B: pending = [byte]
            case UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "n"): keys.append(.forward)
            case UInt8(ascii: "b"), UInt8(ascii: "p"): keys.append(.back)
            case UInt8(ascii: "g"): keys.append(.first)
            case UInt8(ascii: "G"): keys.append(.last)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): keys.append(.quit)
            default: break
            }
        }
        return keys
    }
}
