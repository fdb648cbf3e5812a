import PairsRules

/// Writes requests as the JSON lines of protocol.md, the form every client should send.
///
/// Text commands (`flip 3`) are for people typing into netcat; a program sends JSON so that names and chat
/// can hold any character and every request can carry an `id` to match the answer with.
public enum RequestEncoder {
    /// The request as one line, newline included.
    public static func encode(_ request: Request) -> [UInt8] {
        var w = JSONWriter(capacity: 96)
        w.beginObject()
        switch request.message {
        case .hello(let name, let password, let followsRedirects):
            w.key("type"); w.string("hello")
            w.key("name"); w.string(name)
            if let password { w.key("password"); w.string(password) }
            if followsRedirects { w.key("redirects"); w.bool(true) }
            w.key("protocol"); w.integer(WireProtocol.version)
        case .join(let join):
            w.key("type"); w.string("join")
            if let room = join.room { w.key("room"); w.string(room) }
            writeFields(of: join.rules, to: &w)
        case .flip(let card):
            w.key("type"); w.string("flip")
            w.key("card"); w.integer(card)
        case .say(let text):
            w.key("type"); w.string("say")
            w.key("text"); w.string(text)
        case .watch(let room):
            w.key("type"); w.string("watch")
            w.key("room"); w.string(room)
        case .resume(let token):
            w.key("type"); w.string("resume")
            w.key("token"); w.string(token)
        case .leave: w.key("type"); w.string("leave")
        case .rematch: w.key("type"); w.string("rematch")
        case .list(let query):
            w.key("type"); w.string("list")
            if let limit = query.limit { w.key("limit"); w.integer(limit) }
            if let after = query.after { w.key("after"); w.string(after.wireValue) }
        case .ping: w.key("type"); w.string("ping")
        case .stats: w.key("type"); w.string("stats")
        case .help: w.key("type"); w.string("help")
        case .quit: w.key("type"); w.string("quit")
        case .history(let query):
            w.key("type"); w.string("history")
            if let name = query.name { w.key("name"); w.string(name) }
            if let rules = query.rules { w.key("rules"); w.beginObject(); writeFields(of: rules, to: &w); w.endObject() }
            if let limit = query.limit { w.key("limit"); w.integer(limit) }
            if let before = query.before { w.key("before"); w.integer(before) }
            if let tournament = query.tournament { w.key("tournament"); w.string(tournament) }
        case .replay(let game):
            w.key("type"); w.string("replay")
            w.key("game"); w.integer(game)
        case .leaderboard(let query):
            w.key("type"); w.string("leaderboard")
            if let rules = query.rules { w.key("rules"); w.beginObject(); writeFields(of: rules, to: &w); w.endObject() }
            if let limit = query.limit { w.key("limit"); w.integer(limit) }
            if let by = query.by { w.key("by"); w.string(by.wireName) }
        case .profile(let name, let tournament):
            w.key("type"); w.string("profile")
            w.key("name"); w.string(name)
            if let tournament { w.key("tournament"); w.string(tournament) }
        case .tournament(let request):
            writeFields(of: request, to: &w)
        }
        switch request.id {
        case nil: break
        case .integer(let value)?: w.key("id"); w.integer(value)
        case .string(let value)?: w.key("id"); w.string(value)
        }
        w.endObject()
        var bytes = w.bytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private static func writeFields(of request: TournamentRequest, to w: inout JSONWriter) {
        func named(_ type: String, _ tournament: String) {
            w.key("type"); w.string(type)
            w.key("tournament"); w.string(tournament)
        }
        switch request {
        case .create(let creation):
            w.key("type"); w.string("tournament_create")
            w.key("name"); w.string(creation.name)
            w.key("format"); w.string(creation.length.kind.wireName)
            switch creation.length {
            case .rounds(let rounds?): w.key("rounds"); w.integer(rounds)
            case .rounds(nil): break
            case .milliseconds(let milliseconds): w.key("minutes"); writeMinutes(milliseconds, to: &w)
            }
            if creation.rules != RuleChoices() { w.key("rules"); w.beginObject(); writeFields(of: creation.rules, to: &w); w.endObject() }
            switch creation.start {
            case .manual: w.key("start"); w.string("manual")
            case .players(let count): w.key("start"); w.integer(count)
            }
            w.key("claimed_only"); w.bool(creation.claimedOnly)
        case .join(let tournament, let standings):
            named("tournament_join", tournament)
            if let standings { w.key("standings"); w.integer(standings) }
        case .leave(let tournament): named("tournament_leave", tournament)
        case .start(let tournament): named("tournament_start", tournament)
        case .list: w.key("type"); w.string("tournament_list")
        case .watch(let tournament, let standings):
            named("tournament_watch", tournament)
            if let standings { w.key("standings"); w.integer(standings) }
        }
    }

    /// The rules chosen, each as its field of protocol.md; what is not chosen is left out.
    private static func writeFields(of rules: RuleChoices, to w: inout JSONWriter) {
        if let seats = rules.seats { w.key("seats"); w.integer(seats.rawValue) }
        if let size = rules.setSize { w.key("match"); w.integer(size.rawValue) }
        if let deck = rules.deck { w.key("deck"); w.string(deck.wireName) }
        if let scoring = rules.scoring { w.key("scoring"); w.string(scoring.wireName) }
        if let cost = rules.flipCost { w.key("flip_cost"); w.integer(cost) }
        if let penalty = rules.mismatchPenalty { w.key("mismatch_penalty"); w.integer(penalty) }
        if let bonus = rules.matchBonus { w.key("match_bonus"); w.integer(bonus) }
        if let seconds = rules.gameSeconds { w.key("game_seconds"); w.integer(seconds) }
        if let milliseconds = rules.peekMilliseconds { w.key("peek_ms"); w.integer(milliseconds) }
        if let pairs = rules.pairs { w.key("pairs"); w.integer(pairs) }
        if let seconds = rules.turnSeconds { w.key("turn_seconds"); w.integer(seconds) }
        if let milliseconds = rules.revealMilliseconds { w.key("reveal_ms"); w.integer(milliseconds) }
        if let again = rules.againOnMatch { w.key("again_on_match"); w.bool(again) }
    }
}
