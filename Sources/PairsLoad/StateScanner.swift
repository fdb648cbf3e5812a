#if canImport(Glibc)
import Glibc
#endif
import PairsRules
import PairsWire

/// Reads the fields a load bot needs from a `state` line in one pass over its bytes, without building a
/// `JSONValue` tree or any string but new face names.
///
/// A `state` is by far the most frequent line a load client reads (one per change per room), and the
/// general decoder (`ServerMessageDecoder`) builds a dictionary per object and a string per value: at tens of
/// thousands of states a second that would make the load client cost more than the server it measures.
/// This scanner walks the JSON object, picks out `type`, `game`, `seq`, `phase`, `turn`, `cards` (state and
/// face), `event.kind` and `event.id`, and skips every other value, in any key order, unknown keys included.
///
/// It only handles what the server actually writes: anything unusual (an escape inside a string it reads, a
/// number with a fraction, a value of an unexpected type, a truncated line) makes `scan` return false, and
/// the caller falls back to `ServerMessageDecoder`, which is the reference: tests check that both agree on
/// every kind of state the rules produce.
public struct StateScanner: Sendable {
    /// The faces met so far, by number.
    public var faces = FaceTable()

    /// The most cards a state may have for the scanner: twice the largest board, so a state from a newer
    /// server with bigger boards still reads, but a broken line cannot make the card array grow unbounded.
    public static let maxCards = 4 * RuleSet.pairsLimits.upperBound

    public init() {}

    /// Whether `line` starts the way every `state` line of the server does (`{"type":"state"`), a cheap test
    /// to tell states from other messages before scanning or decoding.
    @inline(__always)
    public static func looksLikeState(_ line: UnsafeRawBufferPointer) -> Bool {
        hasPrefix(line, Self.statePrefix)
    }

    /// Whether `line` starts with `prefix`.
    @inline(__always)
    public static func hasPrefix(_ line: UnsafeRawBufferPointer, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard line.count >= count, let base = line.baseAddress else { return false }
        return memcmp(base, prefix.utf8Start, count) == 0
    }

    static let statePrefix: StaticString = #"{"type":"state""#

    /// Reads `line` (one line without its newline) into `state`. False when the line is not a `state` or
    /// holds something this scanner leaves to the general decoder; `state` is then unspecified.
    public mutating func scan(_ line: UnsafeRawBufferPointer, into state: inout ScannedState) -> Bool {
        guard let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        var cursor = Cursor(base: base, end: line.count)
        var sawType = false, sawGame = false, sawSeq = false, sawPhase = false, sawCards = false, sawEvent = false
        state.turn = nil
        state.eventID = nil
        guard cursor.consume(ASCII.leftBrace) else { return false }
        if cursor.consume(ASCII.rightBrace) { return false }
        repeat {
            guard let key = cursor.rawString(), cursor.consume(ASCII.colon) else { return false }
            switch key.count {
            case 3 where key.equals("seq"):
                guard let value = cursor.integer() else { return false }
                state.seq = value
                sawSeq = true
            case 4 where key.equals("type"):
                guard let value = cursor.rawString(), value.equals("state") else { return false }
                sawType = true
            case 4 where key.equals("game"):
                guard let value = cursor.integer() else { return false }
                state.game = value
                sawGame = true
            case 4 where key.equals("turn"):
                if cursor.consumeNull() {
                    state.turn = nil
                } else {
                    guard let value = cursor.integer(), let seat = Seat(index: value) else { return false }
                    state.turn = seat
                }
            case 5 where key.equals("phase"):
                guard let value = cursor.rawString(), let phase = Self.phase(value) else { return false }
                state.phase = phase
                sawPhase = true
            case 5 where key.equals("cards"):
                guard scanCards(&cursor, into: &state.cards) else { return false }
                sawCards = true
            case 5 where key.equals("event"):
                guard scanEvent(&cursor, into: &state) else { return false }
                sawEvent = true
            default:
                guard cursor.skipValue() else { return false }
            }
        } while cursor.consume(ASCII.comma)
        guard cursor.consume(ASCII.rightBrace), cursor.atEnd else { return false }
        return sawType && sawGame && sawSeq && sawPhase && sawCards && sawEvent
    }

    private mutating func scanCards(_ cursor: inout Cursor, into cards: inout [ScannedState.Card]) -> Bool {
        cards.removeAll(keepingCapacity: true)
        guard cursor.consume(ASCII.leftBracket) else { return false }
        if cursor.consume(ASCII.rightBracket) { return true }
        repeat {
            guard cards.count < Self.maxCards, cursor.consume(ASCII.leftBrace) else { return false }
            var side: ScannedState.Card.Side?
            var face = ScannedState.Card.noFace
            if !cursor.consume(ASCII.rightBrace) {
                repeat {
                    guard let key = cursor.rawString(), cursor.consume(ASCII.colon) else { return false }
                    if key.count == 5, key.equals("state") {
                        guard let value = cursor.rawString() else { return false }
                        switch value.count {
                        case 4 where value.equals("down"): side = .down
                        case 2 where value.equals("up"): side = .up
                        case 7 where value.equals("matched"): side = .matched
                        default: return false
                        }
                    } else if key.count == 4, key.equals("face") {
                        guard let value = cursor.rawString(), let number = faces.number(of: value.bytes) else { return false }
                        face = number
                    } else {
                        guard cursor.skipValue() else { return false }
                    }
                } while cursor.consume(ASCII.comma)
                guard cursor.consume(ASCII.rightBrace) else { return false }
            }
            switch side {
            case .down?: face = ScannedState.Card.noFace
            case .up?, .matched?: guard face != ScannedState.Card.noFace else { return false }
            case nil: return false
            }
            cards.append(ScannedState.Card(side: side!, face: face))
        } while cursor.consume(ASCII.comma)
        return cursor.consume(ASCII.rightBracket)
    }

    private func scanEvent(_ cursor: inout Cursor, into state: inout ScannedState) -> Bool {
        guard cursor.consume(ASCII.leftBrace) else { return false }
        var sawKind = false
        if cursor.consume(ASCII.rightBrace) { return false }
        repeat {
            guard let key = cursor.rawString(), cursor.consume(ASCII.colon) else { return false }
            if key.count == 4, key.equals("kind") {
                guard let value = cursor.rawString(), let kind = EventKind(knownWireName: value.bytes) else { return false }
                state.eventKind = kind
                sawKind = true
            } else if key.count == 2, key.equals("id") {
                if cursor.peek == ASCII.quote {
                    guard let value = cursor.rawString() else { return false }
                    state.eventID = .string(String(decoding: value.bytes, as: UTF8.self))
                } else {
                    guard let value = cursor.integer64() else { return false }
                    state.eventID = .integer(value)
                }
            } else {
                guard cursor.skipValue() else { return false }
            }
        } while cursor.consume(ASCII.comma)
        return cursor.consume(ASCII.rightBrace) && sawKind
    }

    private static func phase(_ text: RawText) -> Phase? {
        switch text.count {
        case 7 where text.equals("waiting"): .waiting
        case 7 where text.equals("playing"): .playing
        case 4 where text.equals("peek"): .peek
        case 6 where text.equals("reveal"): .reveal
        case 4 where text.equals("over"): .over
        default: nil
        }
    }
}

/// The bytes of a JSON string without its quotes, which contained no escape.
struct RawText {
    let start: UnsafePointer<UInt8>
    let count: Int

    @inline(__always)
    func equals(_ literal: StaticString) -> Bool {
        count == literal.utf8CodeUnitCount && memcmp(start, literal.utf8Start, count) == 0
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }
}

/// A position in a line being scanned. Every read skips JSON whitespace first and never reads past `end`.
struct Cursor {
    let base: UnsafePointer<UInt8>
    let end: Int
    var offset = 0

    init(base: UnsafePointer<UInt8>, end: Int) {
        self.base = base
        self.end = end
    }

    var atEnd: Bool {
        mutating get {
            skipSpaces()
            return offset == end
        }
    }

    /// The next byte after any whitespace, or 0 at the end.
    var peek: UInt8 {
        mutating get {
            skipSpaces()
            return offset < end ? base[offset] : 0
        }
    }

    @inline(__always)
    mutating func skipSpaces() {
        while offset < end {
            switch base[offset] {
            case ASCII.space, ASCII.tab, ASCII.newline, ASCII.carriageReturn: offset += 1
            default: return
            }
        }
    }

    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        skipSpaces()
        guard offset < end, base[offset] == byte else { return false }
        offset += 1
        return true
    }

    mutating func consumeNull() -> Bool {
        skipSpaces()
        guard end - offset >= 4, memcmp(base + offset, "null", 4) == 0 else { return false }
        offset += 4
        return true
    }

    /// A string without escapes; nil for anything else (an escaped string is left to the general decoder).
    @inline(__always)
    mutating func rawString() -> RawText? {
        guard consume(ASCII.quote) else { return nil }
        let start = offset
        while offset < end {
            let byte = base[offset]
            if byte == ASCII.quote {
                offset += 1
                return RawText(start: base + start, count: offset - 1 - start)
            }
            if byte == ASCII.backslash || byte < 0x20 { return nil }
            offset += 1
        }
        return nil
    }

    /// A JSON integer that fits an `Int`; nil for fractions, exponents and anything else.
    @inline(__always)
    mutating func integer() -> Int? {
        integer64().map(Int.init)
    }

    mutating func integer64() -> Int64? {
        skipSpaces()
        var negative = false
        if offset < end, base[offset] == ASCII.minus {
            negative = true
            offset += 1
        }
        let start = offset
        var value: Int64 = 0
        while offset < end, ASCII.isDigit(base[offset]) {
            let digit = Int64(base[offset] - ASCII.zero)
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            // Accumulated as a negative number so that Int64.min reads too.
            let (next, overflow2) = times10.subtractingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            offset += 1
        }
        let digits = offset - start
        guard digits > 0 else { return nil }
        // JSON allows no leading zeros; a fraction or exponent is not an integer.
        if digits > 1, base[start] == ASCII.zero { return nil }
        if offset < end {
            switch base[offset] {
            case ASCII.period, UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        if negative { return value }
        guard value != .min else { return nil }
        return -value
    }

    /// Skips one JSON value of any kind. Strings may hold escapes here: they are stepped over, not read.
    mutating func skipValue() -> Bool {
        skipSpaces()
        guard offset < end else { return false }
        switch base[offset] {
        case ASCII.quote:
            return skipString()
        case ASCII.leftBrace, ASCII.leftBracket:
            var depth = 0
            while offset < end {
                switch base[offset] {
                case ASCII.quote:
                    guard skipString() else { return false }
                    continue
                case ASCII.leftBrace, ASCII.leftBracket:
                    depth += 1
                case ASCII.rightBrace, ASCII.rightBracket:
                    depth -= 1
                    if depth == 0 {
                        offset += 1
                        return true
                    }
                default:
                    break
                }
                offset += 1
            }
            return false
        default:
            // A number, true, false or null: up to the next delimiter.
            let start = offset
            while offset < end {
                switch base[offset] {
                case ASCII.comma, ASCII.rightBrace, ASCII.rightBracket, ASCII.space, ASCII.tab, ASCII.newline,
                     ASCII.carriageReturn:
                    return offset > start
                default:
                    offset += 1
                }
            }
            return offset > start
        }
    }

    private mutating func skipString() -> Bool {
        offset += 1 // the opening quote
        while offset < end {
            switch base[offset] {
            case ASCII.quote:
                offset += 1
                return true
            case ASCII.backslash:
                offset += 2
            default:
                offset += 1
            }
        }
        return false
    }
}
