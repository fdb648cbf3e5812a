import PairsRules

/// Writes `state` messages, the one message sent for every change in every room, straight into bytes.
///
/// The general path (`JSONWriter`) checks capacity and uniqueness on every append; for the state, whose
/// shape never changes, this one computes an upper bound of the line's size once from the most each part
/// can take (`FieldBytes`), allocates once, and writes through a `ByteCursor`, copying the constant parts
/// (`{"state":"down"}`) whole; the cursor checks each write against the bound. Profiles of the
/// server under load showed state encoding as the largest cost of its own; this is what the hot path
/// uses. The tests check its output parses to exactly what the general writer produces, for every
/// shape of state.
enum StateLineEncoder {
    /// The most bytes each part of a state line can take, counted from the literals `write` copies (shown
    /// after each) plus the most its values can take. The comma before an element of an array is counted
    /// with the element. `bound(of:room:rules:id:)` adds these up, and `ByteCursor` checks every write against
    /// that sum, so a part counted short here traps rather than writing past the buffer.
    enum FieldBytes {
        /// Any 64-bit integer in decimal: `-9223372036854775808`.
        static let integer = 20
        /// A seat's index or none: `null`.
        static let seat = 4
        /// A string: see `JSONEscape.maxQuotedBytes(_:)`.
        static func quoted(_ text: String) -> Int { JSONEscape.maxQuotedBytes(text) }

        /// `{"type":"state","room":`, then the room.
        static let typeAndRoomKey = 23
        /// `,"game":` `,"seq":` and their values.
        static let gameAndSeq = 8 + integer + 7 + integer
        /// `,"phase":`, then the phase.
        static let phaseKey = 9
        /// `,"rows":` `,"cols":` and their values, then `,"cards":[`.
        static let layout = 8 + integer + 8 + integer + 10
        /// `,{"state":"down"}`
        static let downCard = 1 + 16
        /// `,{"state":"up","face":` and `}` around the face.
        static let upCardAroundFace = 1 + 21 + 1
        /// `,{"state":"matched","face":` and `,"by":0}` around the face.
        static let matchedCardAroundFace = 1 + 26 + 8
        /// `],"down_faces":[` after the cards, only in a state of a game over (the `]` closing the cards is
        /// the next part's otherwise).
        static let downFacesKey = 16
        /// `,` before one face of `down_faces` (the face itself is counted quoted).
        static let downFaceSeparator = 1
        /// `],"players":[`
        static let playersKey = 13
        /// `,null`
        static let emptySeat = 1 + 4
        /// `,{"name":` the name `,"score":` the score `,"connected":false}`.
        static let playerAroundName = 1 + 8 + 9 + integer + 19
        /// `],"spectators":` `,"turn":` `,"turn_ms_left":` `,"game_ms_left":` `,"winner":` and their
        /// values (the game clock's only in a room that has one).
        static let spectatorsToWinner = 15 + integer + 8 + seat + 16 + integer + 16 + integer + 10 + seat
        /// `,"series":{"wins":[` `],"draws":` and the draws.
        static let series = 19 + 10 + integer
        /// `,` and one seat's wins in the series.
        static let seriesWins = 1 + integer
        /// `,"rules":`, then the room's rules as `RulesJSON` wrote them (only when they are not classic).
        static let rulesKey = 9
        /// `},"event":{"kind":`, then the kind.
        static let eventKey = 18
        /// The longest kind quoted, `"disconnect"`, is 12; the rest leaves room for a longer new kind.
        static let eventKind = 24
        /// `,"seat":` `,"card":` `,"cards":[` `]` `,"points":` with their values: all of them, though no
        /// event has every one; the cards are counted on their own (`eventCard`).
        static let eventFields = 8 + seat + 8 + integer + 10 + 1 + 10 + integer
        /// `,` and one card of the event's set.
        static let eventCard = 1 + integer
        /// `,"id":`, then the id.
        static let idKey = 6
        /// `}}` and the newline.
        static let end = 3
    }

    /// The most bytes the line of the state at `state` can take, with the room's rules written as `rules`
    /// (nil when they are not written). The state is read in place: `encode` passes the states of its array
    /// by address, since passing each by value copied it (retaining its arrays and names) for every change
    /// in every room.
    @inline(__always)
    static func bound(of state: UnsafePointer<PublicState>, room: String, rules: [UInt8]?, id: RequestID?) -> Int {
        var size = FieldBytes.typeAndRoomKey + FieldBytes.quoted(room) + FieldBytes.gameAndSeq
            + FieldBytes.phaseKey + FieldBytes.quoted(state.pointee.phase.wireName) + FieldBytes.layout
        for card in state.pointee.cards {
            switch card {
            case .down: size += FieldBytes.downCard
            case .up(let face): size += FieldBytes.upCardAroundFace + FieldBytes.quoted(face)
            case .matched(let face, _): size += FieldBytes.matchedCardAroundFace + FieldBytes.quoted(face)
            }
        }
        if let faces = state.pointee.downFaces {
            size += FieldBytes.downFacesKey
            for face in faces { size += FieldBytes.downFaceSeparator + FieldBytes.quoted(face) }
        }
        size += FieldBytes.playersKey
        for player in state.pointee.players {
            if let player {
                size += FieldBytes.playerAroundName + FieldBytes.quoted(player.name)
            } else {
                size += FieldBytes.emptySeat
            }
        }
        size += FieldBytes.spectatorsToWinner + FieldBytes.series + state.pointee.series.wins.count * FieldBytes.seriesWins
            + FieldBytes.eventKey + FieldBytes.eventKind + FieldBytes.eventFields + CardSet.capacity * FieldBytes.eventCard
        if let rules { size += FieldBytes.rulesKey + rules.count }
        switch id {
        case .string(let id)?: size += FieldBytes.idKey + FieldBytes.quoted(id)
        case .integer?: size += FieldBytes.idKey + FieldBytes.integer
        case nil: break
        }
        return size + FieldBytes.end
    }

    /// The states of one change in one room as consecutive lines, each ending in `\n`. Takes the room's
    /// fields apart rather than as `StateMessage`s, so the hot path copies no state into a wrapper. A room of
    /// variant rules carries them in every state; they are written once per change and copied into each.
    static func encode(_ states: [PublicState], room: String, spectators: Int, rules: RuleSet, id: RequestID?) -> [UInt8] {
        guard !states.isEmpty else { return [] }
        let context = Context(room: room, spectators: spectators, rules: rules, rulesJSON: RulesJSON.bytesIfSent(rules), id: id)
        return states.withUnsafeBufferPointer { states in
            let first = states.baseAddress!
            var capacity = 0
            for index in states.indices { capacity += bound(of: first + index, room: room, rules: context.rulesJSON, id: id) }
            return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                // The array may have allocated more than asked for; the cursor gets only the bound, so that a
                // bound counted short is caught by every test that encodes, not only when the rounding is tight.
                var out = ByteCursor(UnsafeMutableBufferPointer(rebasing: buffer[..<capacity]))
                for index in states.indices { write(first + index, in: context, to: &out) }
                // A line cut short would be a protocol error for every client in the room: stop instead.
                precondition(!out.hasOverflowed, "a state line outgrew its bound: StateLineEncoder.bound is too small")
                count = out.count
            }
        }
    }

    /// What every state of one change shares: the room's.
    private struct Context {
        let room: String
        let spectators: Int
        let rules: RuleSet
        /// The rules as written into each state, or nil in a classic room.
        let rulesJSON: [UInt8]?
        let id: RequestID?
    }

    /// Writes the line of the state at `state`, read in place for the reason `bound(of:)` gives.
    @inline(__always)
    private static func write(_ state: UnsafePointer<PublicState>, in context: Context, to out: inout ByteCursor) {
        out.append(#"{"type":"state","room":"#)
        out.appendQuoted(context.room)
        out.append(#","game":"#)
        out.appendDecimal(state.pointee.game)
        out.append(#","seq":"#)
        out.appendDecimal(state.pointee.seq)
        out.append(#","phase":"#)
        out.appendQuoted(state.pointee.phase.wireName)
        out.append(#","rows":"#)
        out.appendDecimal(state.pointee.layout.rows)
        out.append(#","cols":"#)
        out.appendDecimal(state.pointee.layout.columns)
        out.append(#","cards":["#)
        for (index, card) in state.pointee.cards.enumerated() {
            if index > 0 { out.append(",") }
            switch card {
            case .down:
                out.append(#"{"state":"down"}"#)
            case .up(let face):
                out.append(#"{"state":"up","face":"#)
                out.appendQuoted(face)
                out.append("}")
            case .matched(let face, let seat):
                out.append(#"{"state":"matched","face":"#)
                out.appendQuoted(face)
                out.append(seat == .first ? #","by":0}"# : #","by":1}"#)
            }
        }
        // Only a game over has them: the states of a game in play pay one nil check here and in `bound`.
        if let faces = state.pointee.downFaces {
            out.append(#"],"down_faces":["#)
            for (index, face) in faces.enumerated() {
                if index > 0 { out.append(",") }
                out.appendQuoted(face)
            }
        }
        out.append(#"],"players":["#)
        for (index, player) in state.pointee.players.enumerated() {
            if index > 0 { out.append(",") }
            guard let player else { out.append("null"); continue }
            out.append(#"{"name":"#)
            out.appendQuoted(player.name)
            out.append(#","score":"#)
            out.appendDecimal(player.score)
            out.append(player.connected ? #","connected":true}"# : #","connected":false}"#)
        }
        out.append(#"],"spectators":"#)
        out.appendDecimal(context.spectators)
        out.append(#","turn":"#)
        out.appendSeat(state.pointee.turn)
        out.append(#","turn_ms_left":"#)
        if let left = state.pointee.turnMillisecondsLeft { out.appendDecimal(left) } else { out.append("null") }
        if context.rulesJSON != nil, context.rules.variant.gameSeconds > 0 {
            out.append(#","game_ms_left":"#)
            if let left = state.pointee.gameMillisecondsLeft { out.appendDecimal(left) } else { out.append("null") }
        }
        out.append(#","winner":"#)
        out.appendSeat(state.pointee.outcome?.winner)
        out.append(#","series":{"wins":["#)
        for (index, wins) in state.pointee.series.wins.enumerated() {
            if index > 0 { out.append(",") }
            out.appendDecimal(wins)
        }
        out.append(#"],"draws":"#)
        out.appendDecimal(state.pointee.series.draws)
        out.append("}")
        if let rules = context.rulesJSON {
            out.append(#","rules":"#)
            rules.withUnsafeBytes { out.append($0) }
        }
        out.append(#","event":{"kind":"#)
        let event = WireEventFields(state.pointee.event, rules: context.rules)
        out.appendQuoted(event.kind.wireName)
        if let seat = event.seat {
            out.append(#","seat":"#)
            out.appendSeat(seat)
        }
        if let card = event.card {
            out.append(#","card":"#)
            out.appendDecimal(card)
        }
        if let cards = event.cards {
            out.append(#","cards":["#)
            for (index, card) in cards.enumerated() {
                if index > 0 { out.append(",") }
                out.appendDecimal(card)
            }
            out.append("]")
        }
        if let points = event.points {
            out.append(#","points":"#)
            out.appendDecimal(points)
        }
        switch context.id {
        case .integer(let id)?:
            out.append(#","id":"#)
            out.appendDecimal(id)
        case .string(let id)?:
            out.append(#","id":"#)
            out.appendQuoted(id)
        case nil:
            break
        }
        out.append("}}\n")
    }
}
