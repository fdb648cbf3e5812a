/// One parsed JSON value, the currency between the JSON codec and the message types built on it.
///
/// The accessors (`stringValue`, `integerValue`...) return `nil` for any other kind of value, so message
/// decoding can read `object["card"]?.integerValue` and treat a missing member and a wrong type alike.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The integer, only if this is a number written as an integer that fits `Int64`.
    ///
    /// Strict on purpose: `1.0` or `1e0` is not accepted where the protocol expects an integer, so clients
    /// learn the right form instead of relying on a lenient conversion.
    public var integerValue: Int64? {
        if case .number(.integer(let value)) = self { value } else { nil }
    }

    /// The Boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { value } else { nil }
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

// Literals make hand-built values in clients and tests read like the JSON they stand for.

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .number(.integer(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(.double(value)) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}
