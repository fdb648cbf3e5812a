import PairsRecords

/// A finished tournament as the store keeps it: who ran it, by what rules, and its final standings (one row
/// each, as the director ranked them: the store ranks no one). Its games are in history, each naming it by
/// `key` (`GameSummary.tournament`).
public struct TournamentRecord: Sendable, Hashable {
    /// The caller's name for this tournament, unique over time (a tournament's name is unique only while it
    /// runs: a weekly cup reuses it): what its games carry and what history filters by.
    public var key: String
    /// Its name as players knew it.
    public var name: String
    /// Its format, as the caller names it (`swiss`, `arena`).
    public var format: String
    /// Who created it.
    public var creator: String
    /// The rules of every game of it.
    public var rules: StoredRules
    /// When it started and ended, on the wall clock.
    public var started: WallClockTime
    public var ended: WallClockTime
    /// The final standings, best first.
    public var standings: [TournamentStanding]

    public init(key: String, name: String, format: String, creator: String, rules: StoredRules,
                started: WallClockTime, ended: WallClockTime, standings: [TournamentStanding]) {
        self.key = key
        self.name = name
        self.format = format
        self.creator = creator
        self.rules = rules
        self.started = started
        self.ended = ended
        self.standings = standings
    }

    /// The most standings rows kept: four times the 1,024 entrants a tournament takes, so the store never
    /// refuses one the server ran, and a record stays bounded whatever a caller sends.
    public static let maxStandings = 4096

    /// Fails when the record contradicts itself or a text is out of its bounds (checked before it is queued).
    public func validate() throws(GameRecordError) {
        guard started <= ended else { throw .endedBeforeStarted }
        guard standings.count <= Self.maxStandings else { throw .tooManyStandings(standings.count) }
        let texts = [(key, RecordText.tournament), (name, .tournament), (format, .tournament), (creator, .name),
                     (rules.json, .rules), (rules.ladder, .ladder)] + standings.map { ($0.name, RecordText.name) }
        for (text, kind) in texts {
            let bytes = text.utf8.count
            guard (1...kind.maxBytes).contains(bytes) else { throw .textLength(kind, bytes: bytes) }
        }
        guard Set(standings.map(\.name)).count == standings.count else { throw .standingsRepeatAName }
    }
}

/// A finished tournament in the store, with its number there.
public struct StoredTournament: Sendable, Hashable {
    /// Numbered by the store in the order tournaments are committed: pages of `tournaments` go back by it.
    public var id: Int64
    public var record: TournamentRecord
}
