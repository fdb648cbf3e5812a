#if canImport(Glibc)
import Glibc
#endif

/// `--name value` and `--name=value` flags of one subcommand, checked against the flags it knows, and the
/// short forms of the common ones (`-h HOST`, `-p PORT`, `-r ROOM`, `-n NAME`, as nc and redis-cli have).
///
/// Every problem is a `UsageError` with a sentence for the user; the caller prints it and exits 2 before
/// doing anything else (in particular, before the server listens).
struct Flags {
    /// The one-letter forms of the common options, for the commands that take the long ones. `-h` is the
    /// host, as in nc and redis-cli; `-h` with no host after it still asks for help (`asksForHelp`).
    static let shortNames: [Character: String] = ["h": "host", "p": "port", "r": "room", "n": "name"]

    private var values: [String: String] = [:]
    /// Every value given for each name, in order, for the flags that may be repeated.
    private var everyValue: [String: [String]] = [:]

    init(_ arguments: [String], known: Set<String>, switches: Set<String> = []) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            var name: String
            var value: String?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    value = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
            } else if argument.hasPrefix("-"), let letter = argument.dropFirst().first {
                // `-p 9000` or, as getopt allows, `-p9000`.
                guard let long = Self.shortNames[letter], known.contains(long) else {
                    throw UsageError("unknown option -\(letter)")
                }
                name = long
                let attached = argument.dropFirst(2)
                if !attached.isEmpty { value = String(attached) }
            } else {
                throw UsageError("unexpected argument '\(argument)'")
            }
            if switches.contains(name), value == nil {
                values[name] = "true"
                index += 1
                continue
            }
            guard known.contains(name) else { throw UsageError("unknown option --\(name)") }
            if value == nil {
                guard index + 1 < arguments.count else { throw UsageError("\(argument) needs a value") }
                index += 1
                value = arguments[index]
            }
            values[name] = value
            everyValue[name, default: []].append(value ?? "")
            index += 1
        }
    }

    func string(_ name: String) -> String? { values[name] }

    func isSet(_ name: String) -> Bool { values[name] != nil }

    /// Every value of a flag that may be given more than once, in order.
    func strings(_ name: String) -> [String] { everyValue[name] ?? [] }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// One of `Choice`'s cases by its name, in any case; nil when the flag is absent.
    func choice<Choice: CaseIterable & RawRepresentable<String>>(_ name: String, of _: Choice.Type) throws(UsageError) -> Choice? {
        guard let text = values[name] else { return nil }
        guard let choice = Choice(rawValue: text.lowercased()) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: " or ")
            throw UsageError("--\(name) must be \(names), not '\(text)'")
        }
        return choice
    }

    /// `--seed`, or a fresh random seed when it is absent, so a run can be repeated only when asked to.
    func seed() throws(UsageError) -> UInt64 {
        guard let text = values["seed"] else {
            var generator = SystemRandomNumberGenerator()
            return generator.next()
        }
        guard let value = UInt64(text) else { throw UsageError("--seed must be a whole number from 0 to \(UInt64.max), not '\(text)'") }
        return value
    }

    func bool(_ name: String) throws(UsageError) -> Bool? {
        switch values[name] {
        case nil: return nil
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        case let text?: throw UsageError("--\(name) must be true or false, not '\(text)'")
        }
    }
}

/// A mistake on the command line, said in a sentence.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Writes to stderr with one write call.
func printError(_ text: String) {
    var line = text.hasSuffix("\n") ? text : text + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// What a subcommand does with its arguments: run with what they say, or exit at once with a status.
enum Invocation<Configuration> {
    case run(Configuration)
    case exit(Int32)
}

extension Flags {
    /// Whether `arguments` ask for the usage: `--help` anywhere, or `-h` with no host after it (at the end,
    /// or followed by another option), which is what a habit of `-h` for help types.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.indices.contains { index in
            arguments[index] == "--help"
                || arguments[index] == "-h" && (index + 1 == arguments.count || arguments[index + 1].hasPrefix("-"))
        }
    }
}

/// The common start of every subcommand: `--help` prints its usage (exit 0); a bad option prints what is
/// wrong in one line and where to read more (exit 2), rather than burying the mistake above the whole
/// usage; anything else is parsed into the subcommand's configuration.
func invocation<Configuration>(
    of command: String, _ arguments: [String], usage: String,
    parse: ([String]) throws(UsageError) -> Configuration
) -> Invocation<Configuration> {
    if Flags.asksForHelp(arguments) {
        print(usage)
        return .exit(0)
    }
    do {
        return .run(try parse(arguments))
    } catch {
        printError(usageError(error, of: command))
        return .exit(2)
    }
}

/// What a bad option prints: the mistake, and where the options are described.
func usageError(_ error: UsageError, of command: String) -> String {
    "pairs \(command): \(error.message)\nsee pairs \(command) --help"
}
