import PairsRecords
import PairsRules

/// Cuts the answers that can outgrow a line (`history`, `replay`, `leaderboard`, `profile`) into lines that
/// each fit the protocol's limit, every line but the last saying `more`, so that no line the server sends is
/// longer than `LineFramer.maxLineBytes`.
///
/// Lists are packed greedily, in order. The size of a line is the size of its empty form plus each item's
/// size and a comma, which is how JSON arrays add up, so each item is encoded once to be measured.
public enum LongAnswers {
    /// `message` as the messages of the lines it takes; any other message as itself.
    public static func lines(_ message: ServerMessage, limit: Int = LineFramer.maxLineBytes) -> [ServerMessage] {
        switch message {
        case .history(let page):
            return pack(page.games, limit: limit) { games, more in
                .history(HistoryPage(games: games, more: more, id: page.id))
            }
        case .leaderboard(let board):
            switch board.places {
            case .rated(let places):
                return pack(places, limit: limit) { places, more in
                    .leaderboard(Leaderboard(variant: board.variant, places: .rated(places), more: more, id: board.id))
                }
            case .solo(let places, let by):
                return pack(places, limit: limit) { places, more in
                    .leaderboard(Leaderboard(variant: board.variant, places: .solo(places, by: by), more: more, id: board.id))
                }
            }
        case .profile(let profile):
            enum Part { case rating(OnLadder<LadderStanding>), solo(OnLadder<SoloStanding>), game(FinishedGameSummary) }
            let parts = profile.ratings.map(Part.rating) + profile.solo.map(Part.solo) + profile.games.map(Part.game)
            return pack(parts, limit: limit) { parts, more in
                var line = profile
                line.ratings = parts.compactMap { if case .rating(let rating) = $0 { rating } else { nil } }
                line.solo = parts.compactMap { if case .solo(let record) = $0 { record } else { nil } }
                line.games = parts.compactMap { if case .game(let game) = $0 { game } else { nil } }
                line.more = more
                return .profile(line)
            }
        case .tournament(let view):
            // The standings, then the games in progress, as many of each as fit a line.
            enum Part { case standing(TournamentStanding), board(TournamentBoard) }
            let parts = view.standings.map(Part.standing) + view.pairings.map(Part.board)
            return pack(parts, limit: limit) { parts, more in
                var line = view
                line.standings = parts.compactMap { if case .standing(let row) = $0 { row } else { nil } }
                line.pairings = parts.compactMap { if case .board(let board) = $0 { board } else { nil } }
                line.more = more
                return .tournament(line)
            }
        case .tournaments(let list):
            return pack(list.tournaments, limit: limit) { tournaments, more in
                .tournaments(TournamentList(tournaments: tournaments, more: more, id: list.id))
            }
        case .replay(let replay):
            // The first line carries the game and its deal, then as many moves as fit; the rest follow in
            // `replay_moves` lines.
            var first = replay
            first.moves = []
            first.more = true
            // A line's bytes, its newline included, may be the limit plus one.
            let room = limit + 1 - ServerMessageEncoder.encode(.replay(first)).count
            let moveSizes = sizes(of: replay.moves) { .replay(with(first, moves: $0)) }
            var taken = 0, used = 0
            while taken < replay.moves.count, used + moveSizes[taken] + (taken == 0 ? 0 : 1) <= room {
                used += moveSizes[taken] + (taken == 0 ? 0 : 1)
                taken += 1
            }
            first.moves = Array(replay.moves[..<taken])
            first.more = taken < replay.moves.count
            let rest = Array(replay.moves[taken...])
            guard !rest.isEmpty else { return [.replay(first)] }
            return [.replay(first)] + pack(rest, limit: limit) { moves, more in
                .replayMoves(ReplayMoves(game: replay.summary.game, moves: moves, more: more, id: replay.id))
            }
        default:
            return [message]
        }
    }

    private static func with(_ replay: GameReplay, moves: [ReplayMove]) -> GameReplay {
        var copy = replay
        copy.moves = moves
        return copy
    }

    /// Each item's share of a line: the line with that item alone, less the line with none.
    private static func sizes<Item>(of items: [Item], _ line: ([Item]) -> ServerMessage) -> [Int] {
        let empty = ServerMessageEncoder.encode(line([])).count
        return items.map { ServerMessageEncoder.encode(line([$0])).count - empty }
    }

    /// `items` in as few lines as fit `limit`, each line made by `line(items, more)`.
    private static func pack<Item>(_ items: [Item], limit: Int, _ line: ([Item], Bool) -> ServerMessage) -> [ServerMessage] {
        let empty = ServerMessageEncoder.encode(line([], true)).count
        let itemSizes = sizes(of: items) { line($0, true) }
        var lines: [ServerMessage] = []
        var current: [Item] = []
        var used = empty
        for (item, size) in zip(items, itemSizes) {
            // Every item after the first of a line takes a comma too. A line's bytes, its newline included,
            // may be the limit plus one.
            if !current.isEmpty, used + size + 1 > limit + 1 {
                lines.append(line(current, true))
                current = []
                used = empty
            }
            used += current.isEmpty ? size : size + 1
            current.append(item)
        }
        lines.append(line(current, false))
        return lines
    }
}
