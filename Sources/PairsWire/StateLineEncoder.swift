import PairsRules

/// Writes `state` messages, the one message sent for every change in every room, straight into bytes.
///
/// The general path (`JSONWriter`) checks capacity and uniqueness on every append; for the state, whose
/// shape never changes, this one computes an upper bound of the line's size once, allocates once, and
/// writes through a pointer, copying the constant parts (`{"state":"down"}`) whole. Profiles of the
/// server under load showed state encoding as the largest cost of its own; this is what the hot path
/// uses. The tests check its output parses to exactly what the general writer produces, for every
/// shape of state.
enum StateLineEncoder {
    /// Bytes a JSON string can grow to: every byte escaped as `\u00XX` is six, plus the quotes.
    @inline(__always)
    static func quotedBound(_ text: String) -> Int { text.utf8.count * 6 + 2 }

    /// Enough for the longest decimal Int64 and a sign.
    static let integerBound = 20

    /// The size of a state line can be at most.
    static func bound(of state: PublicState, room: String, id: RequestID?) -> Int {
        var size = 420 + quotedBound(room) + integerBound * 10
        for card in state.cards {
            switch card {
            case .down: size += 16
            case .up(let face): size += 26 + quotedBound(face)
            case .matched(let face, _): size += 40 + quotedBound(face)
            }
        }
        for case let player? in state.players { size += 50 + quotedBound(player.name) + integerBound }
        size += 5 * integerBound
        switch id {
        case .string(let id)?: size += 8 + quotedBound(id)
        case .integer?: size += 8 + integerBound
        case nil: break
        }
        return size
    }

    /// The states of one change in one room as consecutive lines, each ending in `\n`. Takes the room's
    /// fields apart rather than as `StateMessage`s, so the hot path copies no state into a wrapper.
    static func encode(_ states: [PublicState], room: String, spectators: Int, id: RequestID?) -> [UInt8] {
        let capacity = states.reduce(0) { $0 + bound(of: $1, room: room, id: id) }
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var out = ByteCursor(base: buffer.baseAddress!)
            for state in states { write(state, room: room, spectators: spectators, id: id, to: &out) }
            count = out.offset
            precondition(count <= capacity, "state line longer than its bound")
        }
    }

    private static func write(_ state: PublicState, room: String, spectators: Int, id: RequestID?, to out: inout ByteCursor) {
        out.append(#"{"type":"state","room":"#)
        out.appendQuoted(room)
        out.append(#","game":"#)
        out.appendDecimal(state.game)
        out.append(#","seq":"#)
        out.appendDecimal(state.seq)
        out.append(#","phase":"#)
        out.appendQuoted(state.phase.rawValue)
        out.append(#","rows":"#)
        out.appendDecimal(state.layout.rows)
        out.append(#","cols":"#)
        out.appendDecimal(state.layout.columns)
        out.append(#","cards":["#)
        for (index, card) in state.cards.enumerated() {
            if index > 0 { out.append(",") }
            switch card {
            case .down:
                out.append(#"{"state":"down"}"#)
            case .up(let face):
                out.append(#"{"state":"up","face":"#)
                out.appendQuoted(face)
                out.append("}")
            case .matched(let face, let seat):
                out.append(#"{"state":"matched","face":"#)
                out.appendQuoted(face)
                out.append(seat == .first ? #","by":0}"# : #","by":1}"#)
            }
        }
        out.append(#"],"players":["#)
        for (index, player) in state.players.enumerated() {
            if index > 0 { out.append(",") }
            guard let player else { out.append("null"); continue }
            out.append(#"{"name":"#)
            out.appendQuoted(player.name)
            out.append(#","score":"#)
            out.appendDecimal(player.score)
            out.append(player.connected ? #","connected":true}"# : #","connected":false}"#)
        }
        out.append(#"],"spectators":"#)
        out.appendDecimal(spectators)
        out.append(#","turn":"#)
        out.appendSeat(state.turn)
        out.append(#","turn_ms_left":"#)
        if let left = state.turnMillisecondsLeft { out.appendDecimal(left) } else { out.append("null") }
        out.append(#","winner":"#)
        out.appendSeat(state.outcome?.winner)
        out.append(#","series":{"wins":["#)
        out.appendDecimal(state.series.wins[0])
        out.append(",")
        out.appendDecimal(state.series.wins[1])
        out.append(#"],"draws":"#)
        out.appendDecimal(state.series.draws)
        out.append(#"},"event":{"kind":"#)
        let event = state.event
        out.appendQuoted(EventKind(event).wireName)
        if let seat = event.seat {
            out.append(#","seat":"#)
            out.appendSeat(seat)
        }
        if let card = event.card {
            out.append(#","card":"#)
            out.appendDecimal(card)
        }
        if let cards = event.cards {
            out.append(#","cards":["#)
            out.appendDecimal(cards.first)
            out.append(",")
            out.appendDecimal(cards.second)
            out.append("]")
        }
        switch id {
        case .integer(let id)?:
            out.append(#","id":"#)
            out.appendDecimal(id)
        case .string(let id)?:
            out.append(#","id":"#)
            out.appendQuoted(id)
        case nil:
            break
        }
        out.append("}}\n")
    }
}

/// A write position in a buffer known to be large enough (the caller computed the bound).
private struct ByteCursor {
    let base: UnsafeMutablePointer<UInt8>
    var offset = 0

    init(base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        (base + offset).update(from: text.utf8Start, count: count)
        offset += count
    }

    @inline(__always)
    mutating func appendByte(_ byte: UInt8) {
        base[offset] = byte
        offset += 1
    }

    mutating func appendSeat(_ seat: Seat?) {
        switch seat {
        case .first?: appendByte(UInt8(ascii: "0"))
        case .second?: appendByte(UInt8(ascii: "1"))
        case nil: append("null")
        }
    }

    mutating func appendDecimal(_ value: some BinaryInteger) {
        var magnitude = UInt64(value.magnitude)
        if value < 0 { appendByte(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // scratch for up to 20 digits, written backwards
        withUnsafeMutableBytes(of: &digits) { scratch in
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            let count = scratch.count - index
            (base + offset).update(from: scratch.baseAddress!.assumingMemoryBound(to: UInt8.self) + index, count: count)
            offset += count
        }
    }

    /// `text` as a JSON string, escaped exactly as `JSONWriter` escapes it.
    mutating func appendQuoted(_ text: String) {
        appendByte(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): append(#"\""#)
                case UInt8(ascii: "\\"): append(#"\\"#)
                case 0x0A: append(#"\n"#)
                case 0x0D: append(#"\r"#)
                case 0x09: append(#"\t"#)
                case 0x08: append(#"\b"#)
                case 0x0C: append(#"\f"#)
                case 0..<0x20, 0x7F:
                    let hex: StaticString = "0123456789abcdef"
                    append(#"\u00"#)
                    appendByte(hex.utf8Start[Int(byte >> 4)])
                    appendByte(hex.utf8Start[Int(byte & 0xF)])
                default:
                    appendByte(byte)
                }
            }
        }
        appendByte(UInt8(ascii: "\""))
    }
}
