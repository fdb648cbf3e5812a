import PairsClient
import PairsWire

/// `pairs history`: asks a server for its finished games and prints them as a table, or as the server's
/// own lines with `--json`.
enum HistoryCommand {
    static let usage = """
    usage: pairs history [options]

    \(QueryCommand.serverUsage)
      --name NAME     only the games NAME played
      --limit K       how many games (1-100, default 20)
      --before GAME   only games older than game number GAME: the next page
      --json          print the server's answer lines as they came (one JSON object a line), for scripts

    \(RuleFlags.usage(heading: "  Only the games of one variant (default: every game):"))

    Prints the finished games the server keeps, newest first: the game's number (for pairs replay), when it
    started (local time), the players and their scores, the result and how it ended, and the rules when
    they were not the classic game's.
    Exits 1 if the server cannot be asked or keeps no games (pairs serve --data none), 2 on a bad option.
    """

    static func run(_ arguments: [String]) -> Int32 {
        QueryCommand.run("history", arguments, usage: usage, parse: parse) { answer in
            if case .history(let page) = answer { HistoryTable.lines(page.games) } else { [] }
        }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> QueryCommand.Options {
        let flags = try Flags(arguments, known: QueryCommand.serverFlags.union(["name", "limit", "before"]).union(RuleFlags.names),
                              switches: RuleFlags.switches.union(["json"]))
        let rules = try flags.ruleChoices()
        let query = HistoryQuery(
            name: try flags.playerName(), rules: rules.isEmpty ? nil : rules,
            limit: try flags.integer("limit", in: StorageLimits.limitRange),
            before: try flags.integer("before", in: 1...Int.max).map(Int64.init))
        return QueryCommand.Options(endpoint: try flags.endpoint(), request: .history(query), json: flags.isSet("json"))
    }
}
