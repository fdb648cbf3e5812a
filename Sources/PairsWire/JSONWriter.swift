/// Appends JSON to a byte buffer, for the server's hand-written message encoders.
///
/// Encoders call `beginObject()`, `key(_:)`, `string(_:)`... in document order and the writer inserts the
/// commas and colons, so an encoder reads like the message it writes. Nothing is built in between: no
/// `JSONValue` tree, no intermediate `String`, integers are written digit by digit. That matters because
/// the server encodes a state message for every move of every game.
///
/// The writer trusts its caller to produce a well-formed document: keys only inside objects, each `begin`
/// matched by its `end`. Tests of the encoders parse their output back, which catches any slip.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("type"); writer.string("welcome")
/// writer.key("protocol"); writer.integer(1)
/// writer.endObject()
/// // writer.bytes == Array(#"{"type":"welcome","protocol":1}"#.utf8)
/// ```
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8]

    /// Whether the container being written already holds a value, so the next one needs a comma first.
    private var needsComma = false

    /// Whether a key was just written, so the next value follows its colon without a comma.
    private var afterKey = false

    /// An empty writer whose buffer can take `capacity` bytes before it has to grow.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Ends the current document with a newline, so the next one starts a new line: JSON lines, several
    /// messages in one buffer that goes to the socket in one write.
    public mutating func newline() {
        bytes.append(ASCII.newline)
        needsComma = false
        afterKey = false
    }

    // MARK: - Structure

    public mutating func beginObject() {
        prepareForValue()
        bytes.append(ASCII.leftBrace)
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(ASCII.rightBrace)
        // The container just closed is itself a value of the enclosing one.
        needsComma = true
    }

    public mutating func beginArray() {
        prepareForValue()
        bytes.append(ASCII.leftBracket)
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(ASCII.rightBracket)
        needsComma = true
    }

    /// Writes the key of the next object member, followed by its colon.
    public mutating func key(_ name: String) {
        if needsComma { bytes.append(ASCII.comma) }
        appendQuoted(name)
        bytes.append(ASCII.colon)
        afterKey = true
    }

    // MARK: - Values

    public mutating func string(_ value: String) {
        prepareForValue()
        appendQuoted(value)
    }

    /// Writes an integer in decimal, straight into the buffer.
    public mutating func integer(_ value: some BinaryInteger) {
        prepareForValue()
        if let small = Int64(exactly: value) {
            appendDecimal(small.magnitude, isNegative: small < 0)
        } else if let large = UInt64(exactly: value) {
            appendDecimal(large, isNegative: false)
        } else {
            // Wider than 64 bits: rare enough to go through String.
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    /// Writes a finite double in the shortest form that reads back as the same value.
    ///
    /// JSON has no spelling for infinity or NaN; they are written as `null` rather than producing a
    /// document no parser accepts. The parser never produces them.
    public mutating func double(_ value: Double) {
        prepareForValue()
        if value.isFinite {
            bytes.append(contentsOf: value.description.utf8)
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }

    public mutating func bool(_ value: Bool) {
        prepareForValue()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    public mutating func null() {
        prepareForValue()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes bytes that already are one complete JSON value, such as a part of a message encoded once and
    /// sent to many players. They are not checked.
    public mutating func raw(_ json: some Collection<UInt8>) {
        prepareForValue()
        bytes.append(contentsOf: json)
    }

    /// Writes `value` and everything in it.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null:
            null()
        case .bool(let bool):
            self.bool(bool)
        case .number(.integer(let integer)):
            self.integer(integer)
        case .number(.double(let double)):
            self.double(double)
        case .string(let string):
            self.string(string)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    /// The JSON text of `value`, without whitespace.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(value)
        return writer.bytes
    }

    // MARK: - Bytes

    private mutating func prepareForValue() {
        if afterKey {
            afterKey = false
        } else if needsComma {
            bytes.append(ASCII.comma)
        }
        needsComma = true
    }

    /// Appends the digits of `magnitude` most significant first, with a minus sign if `isNegative`.
    private mutating func appendDecimal(_ magnitude: UInt64, isNegative: Bool) {
        if isNegative { bytes.append(ASCII.minus) }
        // Digits come out least significant first; they are appended that way and then reversed in place.
        let start = bytes.count
        var rest = magnitude
        repeat {
            let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
            bytes.append(ASCII.zero + UInt8(truncatingIfNeeded: digit))
            rest = quotient
        } while rest != 0
        bytes[start...].reverse()
    }

    /// Appends `text` as a JSON string: quoted, with `"`, `\`, control characters and DEL escaped.
    private mutating func appendQuoted(_ text: String) {
        bytes.append(ASCII.quote)
        // Pieces are UTF-8 or ASCII bytes; typed, the append copies them whole.
        JSONEscape.forEachPiece(of: text) { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
        bytes.append(ASCII.quote)
    }
}
