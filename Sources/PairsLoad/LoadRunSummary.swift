#if canImport(Glibc)
import Glibc
#endif
import PairsWire

/// Why a run's JSON (`pairs load --json`) could not be read back for a report.
public enum LoadRunFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read: the call and its errno.
    case unreadable(path: String, errno: Int32)
    /// Larger than `LoadRunSummary.maxFileBytes`.
    case tooLarge(path: String)
    /// Not JSON, or nested deeper than a run's JSON is.
    case notJSON(JSONError)
    /// JSON, but not an object with this key holding the kind of value `pairs load --json` writes there.
    case badKey(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let errno): "cannot read \(path): \(String(cString: strerror(errno)))"
        case .tooLarge(let path): "\(path) is larger than \(LoadRunSummary.maxFileBytes / 1_048_576) MiB, more than any run's JSON"
        case .notJSON(let error): "not JSON: \(error)"
        case .badKey(let key): "not the JSON of pairs load --json: '\(key)' is missing or of the wrong kind"
        }
    }
}

/// A run as `pairs load --json` wrote it, read back: what the HTML report shows. The report is always drawn
/// from this, whether just after the run or later from its file, so both draw the same page, and every
/// number on it is one of the JSON's.
public struct LoadRunSummary: Sendable, Equatable {
    /// Runs of days write tens of megabytes of JSON at most; a larger file is not one.
    public static let maxFileBytes = 256 * 1_048_576

    public var target: String
    public var transport: String
    public var concurrency: Int
    /// The event loops the run's connections were spread over; nil for a run's JSON from before loops.
    public var loops: Int?
    public var strategy: String
    public var thinkMilliseconds: Int
    public var durationSeconds: Double
    /// What the server called itself; nil when the run read no welcome, or predates the key.
    public var server: String?
    public var games: Int
    public var gamesPerSecond: Double
    public var gamesForfeited: Int
    public var gamesAbandoned: Int
    public var flips: Int
    public var flipsPerSecond: Double
    public var flipsRefused: Int
    public var resends: Int
    /// `p50`, `p90`, `p99`, `p999`, `max` in milliseconds, in that order.
    public var latency: [(name: String, milliseconds: Double)]
    public var latencySamples: Int
    public var errorsTotal: Int
    /// By code, sorted by code.
    public var errors: [(name: String, count: Int)]
    public var connectionsRequested: Int
    public var connectionsOpened: Int
    public var connectionsFailed: Int
    public var connectionsDropped: Int
    public var connectionFailures: [(name: String, count: Int)]
    public var connectionDrops: [(name: String, count: Int)]
    public var cpuSeconds: Double
    public var serverCPUSeconds: Double?
    /// The timeline; nil for a run's JSON from before it was written.
    public var series: Series?
    /// The whole run's latency histogram: (low, high) milliseconds and a count, ascending.
    public var histogram: [(low: Double, high: Double, count: Int)]

    /// Every figure of a run second by second.
    public struct Series: Sendable, Equatable {
        public var flips: [Int]
        public var games: [Int]
        public var errors: [Int]
        public var dropped: [Int]
        public var failed: [Int]
        /// `p50`, `p90`, `p99`, `max` per second, in milliseconds; nil in a second with no latency.
        public var latency: [(name: String, values: [Double?])]
        public var samples: [Int]
        public var cpuSeconds: [Double?]
        public var serverCPUSeconds: [Double?]?

        public var count: Int { flips.count }

        public static func == (a: Series, b: Series) -> Bool {
            a.flips == b.flips && a.games == b.games && a.errors == b.errors && a.dropped == b.dropped
                && a.failed == b.failed && a.samples == b.samples && a.cpuSeconds == b.cpuSeconds
                && a.serverCPUSeconds == b.serverCPUSeconds
                && a.latency.map(\.name) == b.latency.map(\.name) && a.latency.map(\.values) == b.latency.map(\.values)
        }
    }

    public static func == (a: LoadRunSummary, b: LoadRunSummary) -> Bool {
        a.json == b.json
    }

    /// The JSON this was read from, kept to compare summaries whole.
    private var json: JSONValue

    /// Reads the text `pairs load --json` printed.
    public init(json text: String) throws(LoadRunFileError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw .notJSON(error)
        }
        try self.init(value)
    }

    /// Reads the JSON file at `path`.
    public init(contentsOf path: String) throws(LoadRunFileError) {
        try self.init(json: try LoadRunFiles.read(path, limit: Self.maxFileBytes))
    }

    init(_ value: JSONValue) throws(LoadRunFileError) {
        guard let object = value.objectValue else { throw .badKey("(the whole)") }
        let fields = Fields(object: object)
        json = value
        target = try fields.string("target")
        transport = try fields.string("transport")
        concurrency = try fields.integer("concurrency")
        loops = object["loops"] == nil ? nil : try fields.integer("loops")
        strategy = try fields.string("strategy")
        thinkMilliseconds = try fields.integer("think_ms")
        durationSeconds = try fields.number("duration_s")
        server = object["server"]?.stringValue
        games = try fields.integer("games")
        gamesPerSecond = try fields.number("games_per_s")
        gamesForfeited = try fields.integer("games_forfeited")
        gamesAbandoned = try fields.integer("games_abandoned")
        flips = try fields.integer("flips")
        flipsPerSecond = try fields.number("flips_per_s")
        flipsRefused = try fields.integer("flips_refused")
        resends = try fields.integer("resends")
        let latencyFields = try fields.object("latency_ms")
        latency = try ["p50", "p90", "p99", "p999", "max"].map { name throws(LoadRunFileError) in (name, try latencyFields.number(name)) }
        latencySamples = try latencyFields.integer("samples")
        errorsTotal = try fields.integer("errors_total")
        errors = try fields.counts("errors")
        let connections = try fields.object("connections")
        connectionsRequested = try connections.integer("requested")
        connectionsOpened = try connections.integer("opened")
        connectionsFailed = try connections.integer("failed")
        connectionsDropped = try connections.integer("dropped")
        connectionFailures = try fields.counts("connection_failures")
        connectionDrops = try fields.counts("connections_dropped")
        let cpu = try fields.object("cpu_s")
        cpuSeconds = try cpu.number("load")
        serverCPUSeconds = try cpu.optionalNumber("server")
        if let seriesValue = object["series"], !seriesValue.isNull {
            series = try Self.series(Fields(object: try Fields.object(seriesValue, "series")))
        }
        histogram = []
        if let buckets = object["latency_histogram_ms"]?.arrayValue {
            for bucket in buckets {
                guard let parts = bucket.arrayValue, parts.count == 3, let low = parts[0].doubleValue,
                      let high = parts[1].doubleValue, let count = parts[2].integerValue
                else { throw .badKey("latency_histogram_ms") }
                histogram.append((low, high, Int(count)))
            }
        }
    }

    private static func series(_ fields: Fields) throws(LoadRunFileError) -> Series {
        let count = try fields.integer("seconds")
        func sized<T>(_ values: [T], _ key: String) throws(LoadRunFileError) -> [T] {
            guard values.count == count else { throw .badKey("series.\(key)") }
            return values
        }
        let latencyFields = try fields.object("latency_ms")
        let cpu = try fields.object("cpu_s")
        var server: [Double?]?
        if let value = cpu.object["server"], !value.isNull { server = try sized(cpu.numbers("server"), "cpu_s.server") }
        return Series(
            flips: try sized(fields.integers("flips"), "flips"),
            games: try sized(fields.integers("games"), "games"),
            errors: try sized(fields.integers("errors"), "errors"),
            dropped: try sized(fields.integers("dropped"), "dropped"),
            failed: try sized(fields.integers("failed"), "failed"),
            latency: try ["p50", "p90", "p99", "max"].map { name throws(LoadRunFileError) in
                (name, try sized(latencyFields.numbers(name), "latency_ms.\(name)"))
            },
            samples: try sized(latencyFields.integers("samples"), "latency_ms.samples"),
            cpuSeconds: try sized(cpu.numbers("load"), "cpu_s.load"),
            serverCPUSeconds: server)
    }
}

/// An object's members read as the kinds `pairs load --json` writes, or `badKey`.
private struct Fields {
    let object: JSONObject

    static func object(_ value: JSONValue, _ key: String) throws(LoadRunFileError) -> JSONObject {
        guard let object = value.objectValue else { throw .badKey(key) }
        return object
    }

    func object(_ key: String) throws(LoadRunFileError) -> Fields {
        guard let value = object[key] else { throw .badKey(key) }
        return Fields(object: try Self.object(value, key))
    }

    func string(_ key: String) throws(LoadRunFileError) -> String {
        guard let value = object[key]?.stringValue else { throw .badKey(key) }
        return value
    }

    func integer(_ key: String) throws(LoadRunFileError) -> Int {
        guard let value = object[key]?.integerValue, let int = Int(exactly: value) else { throw .badKey(key) }
        return int
    }

    func number(_ key: String) throws(LoadRunFileError) -> Double {
        guard let value = object[key]?.doubleValue else { throw .badKey(key) }
        return value
    }

    func optionalNumber(_ key: String) throws(LoadRunFileError) -> Double? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let number = value.doubleValue else { throw .badKey(key) }
        return number
    }

    func integers(_ key: String) throws(LoadRunFileError) -> [Int] {
        guard let values = object[key]?.arrayValue else { throw .badKey(key) }
        var result: [Int] = []
        for value in values {
            guard let int = value.integerValue else { throw .badKey(key) }
            result.append(Int(int))
        }
        return result
    }

    /// Numbers or nulls.
    func numbers(_ key: String) throws(LoadRunFileError) -> [Double?] {
        guard let values = object[key]?.arrayValue else { throw .badKey(key) }
        var result: [Double?] = []
        for value in values {
            if value.isNull {
                result.append(nil)
            } else {
                guard let number = value.doubleValue else { throw .badKey(key) }
                result.append(number)
            }
        }
        return result
    }

    /// `{NAME: count}`, sorted by name.
    func counts(_ key: String) throws(LoadRunFileError) -> [(name: String, count: Int)] {
        guard let members = object[key]?.objectValue?.members else { throw .badKey(key) }
        var result: [(name: String, count: Int)] = []
        for (name, value) in members {
            guard let count = value.integerValue else { throw .badKey(key) }
            result.append((name, Int(count)))
        }
        return result.sorted { $0.name < $1.name }
    }
}

extension JSONValue {
    /// Any number, as a Double (the JSON writes whole doubles as `3.0`, but a hand-edited file may not).
    var doubleValue: Double? {
        switch self {
        case .number(.integer(let value)): Double(value)
        case .number(.double(let value)): value
        default: nil
        }
    }
}
