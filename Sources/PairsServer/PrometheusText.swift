/// Prometheus's text exposition format, version 0.0.4: metric families, each with `# HELP` and `# TYPE`
/// lines, then its samples. Pure: it writes what it is given, so tests and `promtool` can read its output.
struct PrometheusText {
    /// The Content-Type a scraper expects for this format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    enum Kind: String {
        case counter, gauge, histogram
    }

    private(set) var text = ""

    /// Starts a family: every sample written until the next family is one of it.
    mutating func family(_ name: String, _ kind: Kind, help: String) {
        text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
    }

    /// One sample, `name{label="value",...} value`.
    mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String> = [:], _ value: Int) {
        write(name, labels, value: String(value))
    }

    /// A whole histogram family: its cumulative buckets (`+Inf` last, which is also `_count`), `_sum` and
    /// `_count`. `bounds` are the buckets' upper bounds, in the unit of `sum`.
    mutating func histogram(_ name: String, help: String, bounds: [Double], cumulativeCounts: [Int], sum: Double) {
        precondition(cumulativeCounts.count == bounds.count + 1, "a histogram has one count per bound and +Inf")
        family(name, .histogram, help: help)
        for (bound, count) in zip(bounds, cumulativeCounts) {
            write(name + "_bucket", ["le": Self.number(bound)], value: String(count))
        }
        let total = cumulativeCounts.last ?? 0
        write(name + "_bucket", ["le": "+Inf"], value: String(total))
        write(name + "_sum", [:], value: Self.number(sum))
        write(name + "_count", [:], value: String(total))
    }

    private mutating func write(_ name: String, _ labels: KeyValuePairs<String, String>, value: String) {
        text += name
        if !labels.isEmpty {
            text += "{"
            text += labels.map { "\($0.key)=\"\(Self.escapedLabel($0.value))\"" }.joined(separator: ",")
            text += "}"
        }
        text += " \(value)\n"
    }

    /// A float as Go's `ParseFloat` reads it (`0.00005` prints as `5e-05`, which it reads too).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    /// A label value: backslash, double quote and newline escaped, as the format requires.
    static func escapedLabel(_ value: String) -> String { escaped(value, quotes: true) }

    /// A help text: backslash and newline escaped.
    static func escapedHelp(_ value: String) -> String { escaped(value, quotes: false) }

    private static func escaped(_ value: String, quotes: Bool) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"" where quotes: escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
