import PairsWire

/// One tournament as every shard sees it: where it runs, who made it, and what `tournament_list` shows.
struct TournamentEntry {
    let shard: Int
    /// The creator's address, for `TournamentHosting.maxUnfinishedPerAddress`.
    let address: String
    /// As its shard last filed it.
    var summary: TournamentSummary
}

/// Tournaments have names of their own, apart from rooms': a tournament runs on the shard that made it,
/// and every request about it is handed there, so its players and its games' rooms are on one shard and
/// nothing of it crosses loops while games are played. The table is touched when a tournament is made,
/// listed, looked up, or when what its listing shows changes (status, entrants), never per flip.
extension LobbyDirectory {
    /// Whether a tournament may be made, and if not, why.
    enum TournamentClaim: Equatable {
        case claimed
        case exists
        /// The server holds as many tournaments as it may.
        case serverFull(Int)
        /// The address has as many unfinished tournaments as it may.
        case addressFull(Int)
    }

    /// Claims `summary.name` for a new tournament on `shard`, made from `address`.
    func claimTournament(_ summary: TournamentSummary, on shard: Int, address: String, limits: TournamentHosting) -> TournamentClaim {
        locked { table in
            guard table.tournaments[summary.name] == nil else { return .exists }
            guard table.tournaments.count < limits.maxTournaments else { return .serverFull(limits.maxTournaments) }
            let unfinished = table.tournaments.values.filter { $0.address == address && $0.summary.status != .finished }.count
            guard unfinished < limits.maxUnfinishedPerAddress else { return .addressFull(limits.maxUnfinishedPerAddress) }
            table.tournaments[summary.name] = TournamentEntry(shard: shard, address: address, summary: summary)
            return .claimed
        }
    }

    /// The shard running the tournament called `name`, if there is one.
    func shard(ofTournament name: String) -> Int? {
        locked { $0.tournaments[name]?.shard }
    }

    /// Files what the tournament's listing shows now.
    func fileTournament(_ summary: TournamentSummary) {
        locked { table in table.tournaments[summary.name]?.summary = summary }
    }

    /// Forgets a tournament (finished, and kept as long as it is kept).
    func removeTournament(named name: String) {
        _ = locked { $0.tournaments.removeValue(forKey: name) }
    }

    /// Every tournament's listing, open ones first (then running, finishing, finished), by name within each.
    func tournamentSummaries() -> [TournamentSummary] {
        let order: [TournamentPhase: Int] = [.open: 0, .running: 1, .finishing: 2, .finished: 3]
        return locked { table in table.tournaments.values.map(\.summary) }.sorted {
            (order[$0.status]!, $0.name) < (order[$1.status]!, $1.name)
        }
    }

    /// Tournaments on every shard.
    public var tournamentCount: Int { locked { $0.tournaments.count } }
}
