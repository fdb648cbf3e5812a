import PairsRules

extension GameReplay {
    /// Why a replay could not be played again.
    public enum ReplayError: Error, Sendable, Hashable {
        /// The deal is not a board of the game's rules.
        case badDeal
        /// A move was refused by the rules: the record is not of a game these rules played.
        case refusedMove(index: Int, MoveError)
    }

    /// The game played again from its deal and moves with the real rules: every state it went through, in
    /// order, from its first (the seats taken) to its last. A replay is exact when its last state is the
    /// board the game ended with.
    ///
    /// Flips, dropped connections, returns and forfeits by leaving are played at their moments; timeouts,
    /// reveals ending, the peek, the game clock and forfeits for time or absence follow from the rules and
    /// those moments, as they did in the game.
    public func states() throws(ReplayError) -> [PublicState] {
        let rules = summary.rules
        // A grace period longer than any game: a forfeit for absence is in the moves, and is played as the
        // leave it amounts to.
        guard var match = Match(rules: rules, graceMilliseconds: .max / 4, deal: deal) else { throw .badDeal }
        var states: [PublicState] = []
        let start = Moment(milliseconds: 0)
        for seat in match.seats {
            states += (try? match.join(name: summary.players[seat.index].name, at: start).states) ?? []
        }
        for (index, move) in moves.enumerated() {
            let now = Moment(milliseconds: move.milliseconds)
            states += match.advance(to: now)
            do throws(MoveError) {
                switch move.action {
                case .flip(let card): states += try match.flip(card: card, by: move.seat, at: now)
                case .disconnect: states += try match.disconnect(seat: move.seat, at: now)
                case .reconnect: states += try match.reconnect(seat: move.seat, at: now)
                case .forfeit(.left), .forfeit(.away): states += try match.leave(seat: move.seat, at: now)
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
                states += match.advance(to: now)
            }
        }
        return states
    }
}
