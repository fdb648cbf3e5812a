import PairsClient
import PairsWire

/// What the commands that ask a server and print its answer share (`pairs history`, `leaderboard`,
/// `profile`, `replay`): the server flags, a positional argument, and the question.
enum QueryCommand {
    /// The usage lines of the flags every one of them takes.
    static let serverUsage = """
      --host HOST     server to ask: a name, an IPv4 or an IPv6 address (default localhost)
      --port N        server port (default 7777)
    """
    /// The flags that take a value, in every one of them.
    static let serverFlags: Set<String> = ["host", "port"]

    /// What one of them was asked: the server, the request, and whether to print its lines as they came.
    struct Options {
        var endpoint: ServerEndpoint
        var request: ClientMessage
        var json: Bool
    }

    /// The whole of a command that asks and prints: the flags (`parse`), the question, and the answer as
    /// `lines` show it, or as the server's own lines with `--json`.
    static func run(_ command: String, _ arguments: [String], usage: String,
                    parse: ([String]) throws(UsageError) -> Options, lines: (ServerMessage) -> [String]) -> Int32 {
        let options: Options
        switch invocation(of: command, arguments, usage: usage, parse: parse) {
        case .exit(let status): return status
        case .run(let parsed): options = parsed
        }
        switch ask(command, options.request, at: options.endpoint) {
        case .failure(let status):
            return status.code
        case .success(let answer):
            if options.json {
                printLines(of: answer)
            } else {
                for line in lines(answer.message) { StandardStream.writeLine(line) }
            }
            return 0
        }
    }

    /// The one argument that is not a flag (a name, a game number), and the flags around it. `valueFlags`
    /// are the flags whose value follows them, so that value is not taken for the argument.
    static func positional(_ arguments: [String], what: String, valueFlags: Set<String>) throws(UsageError) -> (String, [String]) {
        var found: [String] = []
        var flags: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                found.append(argument)
                continue
            }
            flags.append(argument)
            if !argument.contains("="), valueFlags.contains(String(argument.dropFirst(2))), index < arguments.count {
                flags.append(arguments[index])
                index += 1
            }
        }
        guard let first = found.first else { throw UsageError("which \(what)? give it after the command") }
        guard found.count == 1 else { throw UsageError("one \(what) at a time, not '\(found.joined(separator: " "))'") }
        return (first, flags)
    }

    /// Asks the server and returns its whole answer; on failure says why in one line and returns the exit
    /// status (1).
    static func ask(_ command: String, _ request: ClientMessage, at endpoint: ServerEndpoint) -> Result<ServerQuery.Answer, ExitStatus> {
        do {
            return .success(try ServerQuery.ask(request, at: endpoint))
        } catch {
            printError("pairs \(command): \(error)")
            return .failure(ExitStatus(code: 1))
        }
    }

    /// The answer's lines as the server sent them, but for what could drive a terminal, escaped by the
    /// connection (`NetworkText.printable(line:)`).
    static func printLines(of answer: ServerQuery.Answer) {
        for line in answer.lines { StandardStream.writeLine(String(decoding: line, as: UTF8.self)) }
    }
}

/// A process exit status, as an error a command's steps can pass up.
struct ExitStatus: Error {
    var code: Int32
}
