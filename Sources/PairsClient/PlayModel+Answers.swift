import PairsRules
import PairsWire

extension PlayModel {
    /// Takes a line of the answer to /history, /top or /profile, and once the answer is whole returns the
    /// lines that show it in the event area.
    mutating func takeAnswerLine(_ line: ServerMessage) -> [TranscriptLine] {
        if pendingAnswer.isComplete { pendingAnswer = LongAnswer() }
        do {
            try pendingAnswer.append(line)
        } catch {
            // An answer cut short by another: the new one starts afresh.
            pendingAnswer = LongAnswer()
            try? pendingAnswer.append(line)
        }
        guard pendingAnswer.isComplete, let answer = pendingAnswer.message else { return [] }
        return Self.lines(showing: answer).map { TranscriptLine(.event, $0) }
    }

    /// An answer in the lines of the event area: the tables of `pairs history` and `pairs leaderboard`,
    /// and a short profile.
    static func lines(showing answer: ServerMessage) -> [String] {
        switch answer {
        case .history(let page): HistoryTable.lines(page.games)
        case .leaderboard(let board): LeaderboardTable.lines(board)
        case .profile(let profile): ProfileReport.summaryLines(profile)
        case .tournaments(let list): TournamentReport.lines(list)
        default: [] // a replay is for `pairs replay`
        }
    }
}

extension PlayModel {
    /// Takes a line of a `tournament` message, and once it is whole follows that tournament: the lines to
    /// add to the event area say what changed for the player (a round began, their next game, the end).
    mutating func takeTournamentLine(_ line: TournamentView, at now: Moment) -> [TranscriptLine] {
        if tournamentLines.isComplete { tournamentLines = LongAnswer() }
        do {
            try tournamentLines.append(.tournament(line))
        } catch {
            tournamentLines = LongAnswer()
            try? tournamentLines.append(.tournament(line))
        }
        guard tournamentLines.isComplete, case .tournament(let view)? = tournamentLines.message else { return [] }
        let before = tournament
        // Following one tournament at a time: the last one the player asked about.
        tournament = FollowedTournament(view, at: now)
        return TournamentNews.lines(from: before?.view.name == view.name ? before?.view : nil, to: view, me: me)
            .map { TranscriptLine(.event, $0) }
    }
}

/// What changed in a tournament, in the words of the event area.
enum TournamentNews {
    static func lines(from before: TournamentView?, to view: TournamentView, me: String?) -> [String] {
        var lines: [String] = []
        if before == nil {
            lines.append("following tournament \(view.name): \(view.format.rawValue), \(view.status.rawValue), \(view.entrants) entered")
        }
        if view.status != before?.status, before != nil {
            switch view.status {
            case .running: lines.append("\(view.name) has started")
            case .finishing: lines.append("\(view.name): time is up; the games under way finish and count")
            case .finished:
                let podium = view.standings.prefix(3).map { "\($0.rank). \($0.name) \($0.score)" }.joined(separator: ", ")
                lines.append("\(view.name) is over: \(podium)")
            case .open: break
            }
        }
        if view.format == .swiss, let round = view.round, round > (before?.round ?? 0), round > 0 {
            lines.append("\(view.name): round \(round)\(view.rounds.map { " of \($0)" } ?? "") begins")
        }
        if let me, let board = view.pairings.first(where: { $0.players.contains(me) }),
           before?.pairings.contains(board) != true {
            let opponent = board.players.first { $0 != me } ?? "?"
            lines.append("your next game: \(board.room) against \(opponent)")
        }
        if let me, view.bye == me, before?.bye != me { lines.append("you have the bye this round: it counts as a win") }
        return lines
    }
}
