import PairsRules
import PairsWire

/// How each event reads in the log: a name (`join`, `game_over`) and its fields, in the order a text line
/// writes them. Computed only for the lines that are written.
extension LobbyEvent {
    /// The event's name in the log: snake_case, stable, what an operator greps for.
    public var name: String {
        switch self {
        case .connected: "connect"
        case .nameClaimed: "name_claimed"
        case .wrongPassword: "wrong_password"
        case .passwordGuessing: "password_guessing"
        case .roomOpened: "room_open"
        case .roomClosed: "room_close"
        case .joined: "join"
        case .watching: "watch"
        case .left: "leave"
        case .disconnected: "disconnect"
        case .silentClosed: "silent_close"
        case .resumed: "resume"
        case .forfeited: "forfeit"
        case .gameOver: "game_over"
        case .tournament: "tournament"
        }
    }

    /// What the event says, field by field. A connection's peer address comes last: it is the longest.
    public var fields: [LogField] {
        var fields: [LogField] = []
        switch self {
        case .connected(let id, let peer):
            fields = [LogField("conn", .text(id.description)), LogField("peer", .text(peer))]
        case .nameClaimed(let connection):
            fields = connection.fields { _ in }
        case .wrongPassword(let connection, let name, let inARow):
            fields = [LogField("conn", .text(connection.id.description)), LogField("name", .text(name)),
                      LogField("in_a_row", .integer(inARow)), LogField("peer", .text(connection.peer))]
        case .passwordGuessing(let address, let name, let addressFailures, let nameFailures, let retryAfter):
            fields = [LogField("name", .text(name)), LogField("address_failures", .integer(addressFailures)),
                      LogField("name_failures", .integer(nameFailures)), LogField("retry_after_ms", .integer(Int(retryAfter))),
                      LogField("address", .text(address))]
        case .roomOpened(let room, let rules):
            fields = [LogField("room", .text(room))] + rules.fields
        case .roomClosed(let room):
            fields = [LogField("room", .text(room))]
        case .tournament(let name, let status, let entrants):
            fields = [LogField("tournament", .text(name)), LogField("status", .text(status)), LogField("entrants", .integer(entrants))]
        case .joined(let connection, let room, let seat), .resumed(let connection, let room, let seat):
            fields = connection.fields { $0 += LoggedPlace.seated(room: room, seat: seat).fields }
        case .watching(let connection, let room):
            fields = connection.fields { $0 += LoggedPlace.watching(room: room).fields }
        case .left(let connection, let place):
            fields = connection.fields { $0 += place.fields }
        case .disconnected(let connection, let place, let departure):
            fields = connection.fields { $0 += place.fields + departure.fields }
        case .silentClosed(let id, let peer, let departure):
            fields = [LogField("conn", .text(id.description))] + departure.fields + [LogField("peer", .text(peer))]
        case .forfeited(let room, let game, let seat, let player, let reason, let connection):
            fields = [LogField("room", .text(room)), LogField("game", .integer(game)), LogField("seat", .integer(seat.index)),
                      LogField("name", .text(player)), LogField("reason", .text(reason.wireName))]
            if let connection {
                fields += [LogField("conn", .text(connection.id.description)), LogField("peer", .text(connection.peer))]
            }
        case .gameOver(let game):
            fields = game.fields
        }
        return fields
    }
}

extension LoggedConnection {
    /// `conn` and `name`, then what `middle` adds, then `peer`.
    fileprivate func fields(_ middle: (inout [LogField]) -> Void) -> [LogField] {
        var fields = [LogField("conn", .text(id.description)), LogField("name", .text(name))]
        middle(&fields)
        fields.append(LogField("peer", .text(peer)))
        return fields
    }
}

extension RuleSet {
    /// Every rule, under the keys of protocol.md's rules object: Matchismo's constants only when the room
    /// scores by them.
    fileprivate var fields: [LogField] {
        var fields = [LogField("seats", .integer(variant.seats.rawValue)), LogField("match", .integer(variant.setSize.rawValue)),
                      LogField("deck", .text(variant.deck.wireName)), LogField("scoring", .text(variant.scoring.kind.wireName))]
        if case .matchismo(let costs) = variant.scoring {
            fields += [LogField("flip_cost", .integer(costs.flipCost)), LogField("mismatch_penalty", .integer(costs.mismatchPenalty)),
                       LogField("match_bonus", .integer(costs.matchBonus))]
        }
        fields += [LogField("pairs", .integer(pairs)), LogField("turn_seconds", .integer(turnSeconds)),
                   LogField("game_seconds", .integer(variant.gameSeconds)), LogField("reveal_ms", .integer(revealMilliseconds)),
                   LogField("peek_ms", .integer(variant.peekMilliseconds)), LogField("again_on_match", .boolean(againOnMatch))]
        return fields
    }
}

extension LoggedPlace {
    /// The room, and the seat or that the connection only watched; nothing in the lobby.
    fileprivate var fields: [LogField] {
        switch self {
        case .lobby: []
        case .seated(let room, let seat): [LogField("room", .text(room)), LogField("seat", .integer(seat.index))]
        case .watching(let room): [LogField("room", .text(room)), LogField("role", .text("spectator"))]
        }
    }
}

extension Departure {
    /// `reason` as one word, as `bye` spells it when the lobby closed the connection (and `quit` for a
    /// `leave` followed by the end of the connection), and the system's words for a failed read or write.
    fileprivate var fields: [LogField] {
        let reason: String
        var error: String?
        switch self {
        case .closed(let bye): reason = bye.rawValue
        case .quitAfterLeave: reason = ByeReason.quit.rawValue
        case .lost(.closedByPeer): reason = "closed_by_peer"
        case .lost(.resetByPeer): reason = "reset_by_peer"
        case .lost(.readFailed(let why)): reason = "read_failed"; error = why
        case .lost(.writeFailed(let why)): reason = "write_failed"; error = why
        case .lost(.brokeFraming(let what)): reason = "broke_framing"; error = what
        case .lost(.tooSlow): reason = ByeReason.tooSlow.rawValue
        case .lost(.shutdown): reason = ByeReason.shutdown.rawValue
        }
        return [LogField("reason", .text(reason))] + (error.map { [LogField("error", .text($0))] } ?? [])
    }
}

extension GameOverLog {
    /// How it ended (`end`, and `forfeit_reason`), the result, then the players: `winner` and `loser` with
    /// their scores, `first` and `second` for a draw, `player` alone in a solo game.
    fileprivate var fields: [LogField] {
        var fields = [LogField("room", .text(room)), LogField("game", .integer(game))]
        switch end {
        case .cleared: fields.append(LogField("end", .text("cleared")))
        case .forfeit(let reason):
            fields += [LogField("end", .text("forfeit")), LogField("forfeit_reason", .text(reason.wireName))]
        case .timeUp: fields.append(LogField("end", .text("time_up")))
        case .exhausted: fields.append(LogField("end", .text("exhausted")))
        }
        func player(_ role: String, _ index: Int) -> [LogField] {
            guard players.indices.contains(index) else { return [] }
            return [LogField(role, .text(players[index].name)), LogField("\(role)_score", .integer(players[index].score))]
        }
        switch (outcome, players.count) {
        case (_, 1):
            fields.append(LogField("result", .text(outcome == .loss ? "loss" : "win")))
            fields += player("player", 0)
        case (.win(let seat), _):
            fields.append(LogField("result", .text("win")))
            fields += player("winner", seat.index) + player("loser", seat.opponent.index)
        case (.draw, _), (.loss, _):
            fields.append(LogField("result", .text(outcome == .draw ? "draw" : "loss")))
            fields += player("first", 0) + player("second", 1)
        }
        return fields
    }
}
