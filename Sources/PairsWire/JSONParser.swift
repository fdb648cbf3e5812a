/// A strict RFC 8259 JSON parser: exactly one value, optional whitespace around it, nothing else.
///
/// Every line a client sends goes through here, so the parser is written for hostile input: any byte sequence
/// either parses or throws a `JSONError`; it never traps, and its work is linear in the input. It rejects what
/// lenient parsers let through (invalid UTF-8, raw control characters in strings, lone surrogates, duplicate
/// keys, leading zeros, trailing commas, comments, `NaN`) because each of those would otherwise reach the
/// server's logic or other players' terminals in a form nobody tested.
///
/// Nesting is parsed by recursion bounded by `Limits.maxDepth`, which keeps the code a plain reading of the
/// grammar while a deeply nested line fails fast instead of exhausting the stack.
public struct JSONParser {
    /// Members an object may have before duplicate keys are found with a hash set instead of a linear scan.
    ///
    /// Protocol objects have fewer than this, and scanning a few keys beats hashing; a 4 KiB line can hold
    /// about 800 keys, though, and scanning for each of those would be quadratic.
    private static let maxMembersForLinearKeyCheck = 16

    private let bytes: UnsafeRawBufferPointer
    private let limits: Limits
    private var offset = 0
    private var depth = 0

    /// Where strings containing escapes are assembled, reused so that each one does not allocate its own.
    private var scratch: [UInt8] = []

    private init(bytes: UnsafeRawBufferPointer, limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// The single JSON value `bytes` hold.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, limits: Limits = .default
    ) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, limits: limits)
        parser.skipWhitespace()
        guard parser.offset < bytes.count else { throw .empty }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw .trailingData(offset: parser.offset) }
        return value
    }

    /// The single JSON value `bytes` hold, for callers holding an array, a slice or any other collection.
    public static func parse(
        _ bytes: some Collection<UInt8>, limits: Limits = .default
    ) throws(JSONError) -> JSONValue {
        let parsed = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONError) in try parse(UnsafeRawBufferPointer(buffer), limits: limits) }
        }
        if let parsed { return try parsed.get() }
        return try parse(Array(bytes), limits: limits)
    }

    /// The single JSON value `text` holds.
    public static func parse(_ text: String, limits: Limits = .default) throws(JSONError) -> JSONValue {
        var text = text
        let parsed = text.withUTF8 { buffer in
            Result { () throws(JSONError) in try parse(UnsafeRawBufferPointer(buffer), limits: limits) }
        }
        return try parsed.get()
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONError) -> JSONValue {
        guard offset < bytes.count else { throw .unexpectedEnd }
        switch bytes[offset] {
        case ASCII.leftBrace:
            return try parseObject()
        case ASCII.leftBracket:
            return try parseArray()
        case ASCII.quote:
            return .string(try parseString())
        case ASCII.lowerT:
            try expectLiteral("true")
            return .bool(true)
        case ASCII.lowerF:
            try expectLiteral("false")
            return .bool(false)
        case ASCII.lowerN:
            try expectLiteral("null")
            return .null
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return .number(try parseNumber())
        case ASCII.plus, ASCII.period:
            // Not JSON, but clearly meant as a number: say so rather than "unexpected character".
            throw .invalidNumber(offset: offset)
        default:
            throw .unexpectedByte(offset: offset)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        // StaticString's bytes are reached through a closure, which cannot throw a typed error, hence the
        // error is carried out as a value.
        let failure: JSONError? = literal.withUTF8Buffer { expected in
            for byte in expected {
                guard offset < bytes.count else { return .unexpectedEnd }
                guard bytes[offset] == byte else { return .unexpectedByte(offset: offset) }
                offset += 1
            }
            return nil
        }
        if let failure { throw failure }
    }

    private mutating func parseArray() throws(JSONError) -> JSONValue {
        try enterContainer()
        var elements: [JSONValue] = []
        if leaveContainerIfEmpty(closedBy: ASCII.rightBracket) { return .array(elements) }
        repeat {
            skipWhitespace()
            elements.append(try parseValue())
        } while try continueContainer(closedBy: ASCII.rightBracket)
        return .array(elements)
    }

    private mutating func parseObject() throws(JSONError) -> JSONValue {
        try enterContainer()
        var object = JSONObject()
        // Built only once an object outgrows the linear scan; most objects never need it.
        var keySet: Set<String>?
        if leaveContainerIfEmpty(closedBy: ASCII.rightBrace) { return .object(object) }
        repeat {
            skipWhitespace()
            guard offset < bytes.count else { throw .unexpectedEnd }
            guard bytes[offset] == ASCII.quote else { throw .unexpectedByte(offset: offset) }
            let key = try parseString()
            if object.members.count < Self.maxMembersForLinearKeyCheck {
                if object.members.contains(where: { $0.key == key }) { throw .duplicateKey(key) }
            } else {
                if keySet == nil { keySet = Set(object.members.map(\.key)) }
                if !keySet!.insert(key).inserted { throw .duplicateKey(key) }
            }
            skipWhitespace()
            guard offset < bytes.count else { throw .unexpectedEnd }
            guard bytes[offset] == ASCII.colon else { throw .unexpectedByte(offset: offset) }
            offset += 1
            skipWhitespace()
            object.members.append((key: key, value: try parseValue()))
        } while try continueContainer(closedBy: ASCII.rightBrace)
        return .object(object)
    }

    /// Steps over the opening bracket or brace, refusing to go deeper than the limit.
    private mutating func enterContainer() throws(JSONError) {
        guard depth < limits.maxDepth else { throw .tooDeep(offset: offset) }
        depth += 1
        offset += 1
    }

    /// Right after the opening bracket or brace: steps out of the container if `closing` comes first.
    private mutating func leaveContainerIfEmpty(closedBy closing: UInt8) -> Bool {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == closing else { return false }
        offset += 1
        depth -= 1
        return true
    }

    /// After an element or member: true past a comma (another one follows), false past `closing` (the
    /// container ends here).
    private mutating func continueContainer(closedBy closing: UInt8) throws(JSONError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw .unexpectedEnd }
        switch bytes[offset] {
        case ASCII.comma:
            offset += 1
            return true
        case closing:
            offset += 1
            depth -= 1
            return false
        default:
            throw .unexpectedByte(offset: offset)
        }
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case ASCII.space, ASCII.newline, ASCII.carriageReturn, ASCII.tab:
                offset += 1
            default:
                return
            }
        }
    }

    // MARK: - Strings

    /// The string whose opening quote is at `offset`, leaving `offset` after its closing quote.
    ///
    /// Strings without escapes, nearly all of them, become a `String` straight from the input bytes; only
    /// escapes send the string through the scratch buffer.
    private mutating func parseString() throws(JSONError) -> String {
        offset += 1
        let start = offset
        // Start of the bytes not yet copied to `scratch`; nil until the first escape.
        var pendingStart: Int?
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == ASCII.quote {
                let string: String
                if let pending = pendingStart {
                    scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[pending..<offset]))
                    string = String(decoding: scratch, as: UTF8.self)
                } else {
                    string = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                }
                offset += 1
                return string
            } else if byte == ASCII.backslash {
                if pendingStart == nil { scratch.removeAll(keepingCapacity: true) }
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(pendingStart ?? start)..<offset]))
                try decodeEscape()
                pendingStart = offset
            } else if byte < ASCII.space {
                throw .controlCharacterInString(offset: offset)
            } else if byte < 0x80 {
                offset += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        throw .unexpectedEnd
    }

    /// Decodes the escape whose backslash is at `offset` into `scratch`, leaving `offset` after it.
    private mutating func decodeEscape() throws(JSONError) {
        let escapeStart = offset
        guard offset + 1 < bytes.count else { throw .unexpectedEnd }
        let decoded: UInt8
        switch bytes[offset + 1] {
        case ASCII.quote: decoded = ASCII.quote
        case ASCII.backslash: decoded = ASCII.backslash
        case ASCII.slash: decoded = ASCII.slash
        case ASCII.lowerB: decoded = 0x08
        case ASCII.lowerF: decoded = 0x0C
        case ASCII.lowerN: decoded = ASCII.newline
        case ASCII.lowerR: decoded = ASCII.carriageReturn
        case ASCII.lowerT: decoded = ASCII.tab
        case ASCII.lowerU:
            try decodeUnicodeEscape()
            return
        default:
            throw .invalidEscape(offset: escapeStart)
        }
        scratch.append(decoded)
        offset += 2
    }

    /// Decodes a `\uXXXX` escape, or a surrogate pair of them, into `scratch` as UTF-8.
    private mutating func decodeUnicodeEscape() throws(JSONError) {
        let escapeStart = offset
        var value = try hexQuad(at: offset + 2, escapeStart: escapeStart)
        offset += 6
        switch value {
        case 0xD800...0xDBFF:
            // A high surrogate counts only as the first half of a pair written as two escapes.
            guard offset < bytes.count else { throw .unexpectedEnd }
            guard bytes[offset] == ASCII.backslash else { throw .unpairedSurrogate(offset: escapeStart) }
            guard offset + 1 < bytes.count else { throw .unexpectedEnd }
            guard bytes[offset + 1] == ASCII.lowerU else { throw .unpairedSurrogate(offset: escapeStart) }
            let low = try hexQuad(at: offset + 2, escapeStart: offset)
            guard (0xDC00...0xDFFF).contains(low) else { throw .unpairedSurrogate(offset: escapeStart) }
            offset += 6
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw .unpairedSurrogate(offset: escapeStart)
        default:
            break
        }
        // Not a surrogate, so always a valid scalar.
        scratch.append(contentsOf: UTF8.encode(Unicode.Scalar(value)!)!)
    }

    /// The value of the four hex digits at `position`.
    private func hexQuad(at position: Int, escapeStart: Int) throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for index in position..<(position + 4) {
            guard index < bytes.count else { throw .unexpectedEnd }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case ASCII.zero...ASCII.nine: digit = byte - ASCII.zero
            case ASCII.lowerA...ASCII.lowerF: digit = byte - ASCII.lowerA + 10
            case ASCII.upperA...ASCII.upperF: digit = byte - ASCII.upperA + 10
            default: throw .invalidEscape(offset: escapeStart)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Steps over the multi-byte UTF-8 sequence starting at `offset`, which must be well formed.
    ///
    /// Follows the table of well-formed byte sequences in the Unicode Standard (section 3.9, table 3-7),
    /// which rules out overlong forms, encoded surrogates and values above U+10FFFF by the ranges allowed
    /// for the second byte.
    private mutating func skipUTF8Sequence() throws(JSONError) {
        let lead = bytes[offset]
        let secondRange: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, secondRange) = (3, 0x80...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: throw .invalidUTF8(offset: offset)
        }
        guard offset + length <= bytes.count, secondRange.contains(bytes[offset + 1]) else {
            throw .invalidUTF8(offset: offset)
        }
        for index in (offset + 2)..<(offset + length) where bytes[index] & 0xC0 != 0x80 {
            throw .invalidUTF8(offset: offset)
        }
        offset += length
    }

    // MARK: - Numbers

    /// The number starting at `offset`, leaving `offset` after it.
    private mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = offset
        let isNegative = bytes[offset] == ASCII.minus
        if isNegative { offset += 1 }

        // The integer part is accumulated as a negative number while it is scanned, because Int64's range
        // reaches one further below zero than above it (so -9223372036854775808 still fits).
        var negatedValue: Int64 = 0
        var overflowed = false
        guard offset < bytes.count, ASCII.isDigit(bytes[offset]) else { throw .invalidNumber(offset: start) }
        if bytes[offset] == ASCII.zero {
            offset += 1
            if offset < bytes.count, ASCII.isDigit(bytes[offset]) { throw .invalidNumber(offset: start) }
        } else {
            while offset < bytes.count, ASCII.isDigit(bytes[offset]) {
                let digit = Int64(bytes[offset] - ASCII.zero)
                let (shifted, multiplyOverflow) = negatedValue.multipliedReportingOverflow(by: 10)
                let (next, subtractOverflow) = shifted.subtractingReportingOverflow(digit)
                overflowed = overflowed || multiplyOverflow || subtractOverflow
                negatedValue = next
                offset += 1
            }
        }

        var isInteger = true
        if offset < bytes.count, bytes[offset] == ASCII.period {
            isInteger = false
            offset += 1
            try skipDigits(numberStart: start)
        }
        if offset < bytes.count, bytes[offset] == ASCII.lowerE || bytes[offset] == ASCII.upperE {
            isInteger = false
            offset += 1
            if offset < bytes.count, bytes[offset] == ASCII.plus || bytes[offset] == ASCII.minus {
                offset += 1
            }
            try skipDigits(numberStart: start)
        }

        if isInteger, !overflowed {
            if isNegative { return .integer(negatedValue) }
            if negatedValue != .min { return .integer(-negatedValue) }
        }
        // The grammar has been checked above, so the standard library's conversion sees only JSON numbers;
        // it rounds to the nearest double, giving infinity beyond Double's range (or nil on some toolchains).
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw .numberOutOfRange(offset: start) }
        return .double(value)
    }

    /// Steps over one or more digits, as a fraction or exponent requires.
    private mutating func skipDigits(numberStart: Int) throws(JSONError) {
        guard offset < bytes.count, ASCII.isDigit(bytes[offset]) else { throw .invalidNumber(offset: numberStart) }
        repeat {
            offset += 1
        } while offset < bytes.count && ASCII.isDigit(bytes[offset])
    }
}
