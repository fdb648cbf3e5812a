import PairsRules

extension GameReplay {
    /// Why a replay could not be played again.
    public enum ReplayError: Error, Sendable, Hashable {
        /// The deal is not a board of the game's rules.
        case badDeal
        /// A move was refused by the rules: the record is not of a game these rules played.
        case refusedMove(index: Int, MoveError)
    }

    /// A state of a replayed game and the moment the game reached it: milliseconds from the game's first
    /// state, as the moves count them.
    public struct TimedState: Sendable, Hashable {
        public var moment: Moment
        public var state: PublicState
    }

    /// The game played again from its deal and moves with the real rules: every state it went through, in
    /// order, from its first (the seats taken) to its last. A replay is exact when its last state is the
    /// board the game ended with.
    public func states() throws(ReplayError) -> [PublicState] {
        try timedStates().map(\.state)
    }

    /// The states of `states()`, each with its moment, so a client can show the game at its own pace.
    ///
    /// Flips, dropped connections, returns and forfeits by leaving are played at their moments; timeouts,
    /// reveals ending, the peek, the game clock and forfeits for time or absence follow from the rules and
    /// those moments, as they did in the game, and take the moment their clock ran out.
    public func timedStates() throws(ReplayError) -> [TimedState] {
        let rules = summary.rules
        // A grace period longer than any game: a forfeit for absence is in the moves, and is played as the
        // leave it amounts to.
        // A room's later games start with either seat: the first to flip or to let the clock run out is the
        // one that started.
        let starter = moves.first { move in
            switch move.action {
            case .flip, .timeout: true
            case .disconnect, .reconnect, .forfeit: false
            }
        }?.seat ?? .first
        guard var match = Match(rules: rules, graceMilliseconds: .max / 4, deal: deal, starter: starter) else { throw .badDeal }
        var timed: [TimedState] = []
        func add(_ states: [PublicState], at moment: Moment) {
            timed += states.map { TimedState(moment: moment, state: $0) }
        }
        /// What the clocks do up to `now`, each deadline at its own moment.
        func runClocks(until now: Moment) {
            while let due = match.nextDeadline, due <= now {
                add(match.advance(to: due), at: due)
            }
        }
        let start = Moment(milliseconds: 0)
        for seat in match.seats {
            add((try? match.join(name: summary.players[seat.index].name, at: start).states) ?? [], at: start)
        }
        for (index, move) in moves.enumerated() {
            let now = Moment(milliseconds: move.milliseconds)
            runClocks(until: now)
            do throws(MoveError) {
                switch move.action {
                case .flip(let card): add(try match.flip(card: card, by: move.seat, at: now), at: now)
                case .disconnect: add(try match.disconnect(seat: move.seat, at: now), at: now)
                case .reconnect: add(try match.reconnect(seat: move.seat, at: now), at: now)
                case .forfeit(.left), .forfeit(.away): add(try match.leave(seat: move.seat, at: now), at: now)
                case .timeout, .forfeit(.timeouts): break // the turn clock does these by itself
                }
            } catch {
                throw .refusedMove(index: index, error)
            }
            if match.phase == .over || match.phase == .waiting { break }
        }
        // The game may end by a clock after the last move: play time on until it has.
        if match.phase != .over, match.phase != .waiting, let last = moves.last {
            var now = Moment(milliseconds: last.milliseconds)
            while match.phase != .over, match.phase != .waiting, let deadline = match.nextDeadline {
                now = max(now, deadline)
                add(match.advance(to: now), at: now)
            }
        }
        return timed
    }
}
