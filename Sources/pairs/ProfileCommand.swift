import PairsClient
import PairsWire

/// `pairs profile NAME`: asks a server about one name and prints its ratings, totals and last games.
enum ProfileCommand {
    static let usage = """
    usage: pairs profile NAME [options]

    \(QueryCommand.serverUsage)
      --json          print the server's answer lines as they came (one JSON object a line), for scripts

    Prints whether NAME is claimed, its games won, lost and drawn, its rating on every ladder it played
    (a "?" marks a provisional one), its solo records, and its last games.
    Exits 1 if the server cannot be asked or keeps no games (pairs serve --data none), 2 on a bad option.
    """

    static func run(_ arguments: [String]) -> Int32 {
        QueryCommand.run("profile", arguments, usage: usage, parse: parse) { answer in
            if case .profile(let profile) = answer { ProfileReport.lines(profile) } else { [] }
        }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> QueryCommand.Options {
        let (raw, rest) = try QueryCommand.positional(arguments, what: "name", valueFlags: QueryCommand.serverFlags)
        let flags = try Flags(rest, known: QueryCommand.serverFlags, switches: ["json"])
        guard let name = TextCleaner.cleanName(raw) else { throw UsageError("a name needs at least one printable character") }
        return QueryCommand.Options(endpoint: try flags.endpoint(), request: .profile(name: name), json: flags.isSet("json"))
    }
}
