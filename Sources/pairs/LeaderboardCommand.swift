import PairsClient
import PairsWire

/// `pairs leaderboard`: asks a server for the best of one ladder and prints them as a table.
enum LeaderboardCommand {
    static let usage = """
    usage: pairs leaderboard [options]

    \(QueryCommand.serverUsage)
      --limit K       how many places (1-100, default 20)
      --by time|flips a solo ladder's order: the best time to clear the board, or the fewest flips
                      (default time)
      --json          print the server's answer lines as they came (one JSON object a line), for scripts

    \(RuleFlags.usage(heading: "  The ladder: the variant these rules make (default: the classic game). The board size, turn clock, reveal and --again-on-match do not make another ladder:"))

    Prints the ladder's places, best first: rank, name, rating (Glicko-2, rounded; a "?" marks a
    provisional rating, whose deviation is above 110: too few games to trust it), games, won, lost, drawn.
    A solo ladder (--solo) has no ratings: the games played and cleared, the best time and the fewest flips.
    Only games between claimed names count (pairs play --password, pairs bot --password).
    Exits 1 if the server cannot be asked or keeps no games (pairs serve --data none), 2 on a bad option.
    """

    static func run(_ arguments: [String]) -> Int32 {
        QueryCommand.run("leaderboard", arguments, usage: usage, parse: parse) { answer in
            if case .leaderboard(let board) = answer { LeaderboardTable.lines(board) } else { [] }
        }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> QueryCommand.Options {
        let flags = try Flags(arguments, known: QueryCommand.serverFlags.union(["limit", "by"]).union(RuleFlags.names),
                              switches: RuleFlags.switches.union(["json"]))
        let rules = try flags.ruleChoices()
        var by: SoloRankingKind?
        if let text = flags.string("by") {
            guard let kind = SoloRankingKind(wireName: text) else { throw UsageError("--by must be time or flips, not '\(text)'") }
            by = kind
        }
        let query = LeaderboardQuery(rules: rules.isEmpty ? nil : rules, limit: try flags.integer("limit", in: StorageLimits.limitRange), by: by)
        return QueryCommand.Options(endpoint: try flags.endpoint(), request: .leaderboard(query), json: flags.isSet("json"))
    }
}
