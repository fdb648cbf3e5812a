/// The header fields of a request or response, in the order they came, looked up by name without regard to
/// ASCII case (RFC 9110 §5.1: field names are case-insensitive).
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One field: a name and its value, the value without the whitespace around it. Made with `append` or
    /// a dictionary literal.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    /// Every field, in order, duplicates included.
    public private(set) var fields: [Field]

    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Adds a field after the others.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// The values of every field called `name`, in order.
    public func values(named name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// The value of the only field called `name`; nil when there is none, or more than one (a header that
    /// must appear once and appears twice is as good as missing).
    public subscript(name: String) -> String? {
        let values = values(named: name)
        return values.count == 1 ? values[0] : nil
    }

    /// Whether a field called `name` holds `token` in its comma-separated list, compared without regard to
    /// ASCII case: `Connection: keep-alive, Upgrade` holds `upgrade` (RFC 9110 §5.6.1).
    public func contains(token: String, inFieldNamed name: String) -> Bool {
        values(named: name).contains { value in
            value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).contains { element in
                Self.bytesMatch(element.trimmingOptionalWhitespace(), token.utf8)
            }
        }
    }

    /// Whether two names are the same but for ASCII case.
    static func namesMatch(_ first: String, _ second: String) -> Bool {
        bytesMatch(first.utf8, second.utf8)
    }

    private static func bytesMatch(_ first: some Sequence<UInt8>, _ second: some Sequence<UInt8>) -> Bool {
        first.elementsEqual(second) { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

extension BidirectionalCollection<UInt8> {
    /// The bytes without the spaces and tabs HTTP allows around field values and list elements (OWS,
    /// RFC 9110 §5.6.3).
    func trimmingOptionalWhitespace() -> SubSequence {
        let isWhitespace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let start = firstIndex { !isWhitespace($0) } ?? endIndex
        let end = self[start...].lastIndex { !isWhitespace($0) }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
