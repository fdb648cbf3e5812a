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
        default: [] // a replay is for `pairs replay`
        }
    }
}
