/// One named value of a log line, as every log format writes it: `room=kitchen` in text, `"room":"kitchen"`
/// in JSON.
///
/// Keys are fixed by the code (snake_case, never `time`, `level` or `event`, which every line has anyway);
/// text values may come from a client (names, rooms) and are escaped by the formatter, never here.
public struct LogField: Sendable, Hashable {
    public var key: String
    public var value: LogValue

    public init(_ key: String, _ value: LogValue) {
        self.key = key
        self.value = value
    }
}

/// A log field's value, typed so that JSON lines carry numbers as numbers.
public enum LogValue: Sendable, Hashable {
    case text(String)
    case integer(Int)
    /// A rate or a duration, written in its shortest exact form.
    case decimal(Double)
    /// `true` or `false`, a JSON boolean in JSON lines.
    case boolean(Bool)
}
