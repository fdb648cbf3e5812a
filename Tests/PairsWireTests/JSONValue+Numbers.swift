import PairsWire

// Number accessors only the tests read: the decoders take integers (`integerValue`) and nothing else.

extension JSONValue {
    /// The number, if this is a number.
    var numberValue: JSONNumber? {
        if case .number(let value) = self { value } else { nil }
    }
}

extension JSONNumber {
    /// The number as a `Double`, rounding integers beyond 2^53 to the nearest representable value.
    var doubleValue: Double {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        }
    }
}
