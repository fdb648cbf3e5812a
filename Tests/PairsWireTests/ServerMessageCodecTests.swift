import PairsRecords
import Foundation
import PairsRules
@testable import PairsWire
import Testing

// The hand-written `ServerMessageEncoder` against two readers: the module's own `ServerMessageDecoder`
// (round trips) and Foundation's `JSONSerialization` (a general JSON library reading the same bytes).

// MARK: - Fixtures

/// A state as the server makes it: the rules' state, and what the room adds.
struct StateSource: Sendable {
    var room: String
    var spectators: Int
    var state: PublicState
    var rules: RuleSet = .standard
    var id: RequestID?

    /// The state as one message, which the general writer encodes.
    var message: ServerMessage { .state(StateMessage(room: room, spectators: spectators, state: state, rules: rules, id: id)) }

    /// The state's line as the server sends the states of a change: through the fast path.
    var fastLine: [UInt8] { ServerMessageEncoder.encode(states: [state], room: room, spectators: spectators, rules: rules, id: id) }
}

/// A message with a short name to show when a case fails.
struct MessageFixture: Sendable, CustomTestStringConvertible {
    let name: String
    let message: ServerMessage
    /// For a state, the rules' state it was made from.
    let source: StateSource?

    init(_ name: String, _ message: ServerMessage) {
        self.name = name
        self.message = message
        self.source = nil
    }

    init(_ name: String, _ source: StateSource) {
        self.name = name
        self.message = source.message
        self.source = source
    }

    var testDescription: String { name }
}

/// Text that every escaping path of the writer has to get right.
private let awkwardText = "quote \" backslash \\ slash / tab\tnewline\nreturn\r nul\u{0} esc\u{1B} del\u{7F} c1\u{9B} "
    + "é 中文 ☃ 😀 👩‍💻 🇳🇿 \u{2028}\u{2029} \u{FEFF}"

private let ann = PlayerView(name: "ann", score: 3, connected: true)
private let zoe = PlayerView(name: "Zoë \"the\" \\ 😀", score: 0, connected: false)

private func state(
    room: String = "kitchen", spectators: Int = 0, game: Int = 1, seq: Int = 5, phase: Phase = .playing,
    layout: BoardLayout = BoardLayout(rows: 2, columns: 2),
    cards: [CardView] = [.down, .up(face: "cat"), .matched(face: "dog", by: .first), .matched(face: "dog", by: .first)],
    players: [PlayerView?] = [ann, zoe], turn: Seat? = .first, turnMillisecondsLeft: Int? = 12_345,
    gameMillisecondsLeft: Int? = nil, outcome: Outcome? = nil, series: SeriesTally = SeriesTally(),
    event: GameEvent = .flip(.first, card: 1), rules: RuleSet = .standard, id: RequestID? = nil, downFaces: [String]? = nil
) -> StateSource {
    StateSource(
        room: room, spectators: spectators,
        state: PublicState(
            game: game, seq: seq, phase: phase, layout: layout, cards: cards, players: players, turn: turn,
            turnMillisecondsLeft: turnMillisecondsLeft, gameMillisecondsLeft: gameMillisecondsLeft, outcome: outcome,
            series: series, event: event, downFaces: downFaces),
        rules: rules, id: id)
}

/// A solo game against a two-minute clock, peeking first.
private let soloRules = RuleSet(
    variant: Variant(seats: .one, setSize: .pair, deck: .words, scoring: .classic, gameSeconds: 120, peekMilliseconds: 1500),
    pairs: 2, turnSeconds: 0, revealMilliseconds: 500, againOnMatch: true)
/// Three-card Matchismo with playing cards, Stanford's constants.
private let matchismoRules = RuleSet(
    variant: Variant(seats: .two, setSize: .triple, deck: .cards, scoring: .matchismo(.standard), gameSeconds: 0, peekMilliseconds: 0),
    pairs: 2, turnSeconds: 30, revealMilliseconds: 1000, againOnMatch: false)

/// One of each event, with the state around it kept consistent: only `.over` states carry an outcome.
private let everyEvent: [(String, GameEvent)] = [
    ("join", .join(.second)),
    ("start", .start(turn: .second)),
    ("flip", .flip(.first, card: 0)),
    ("match", .match(.second, cards: [2, 3], points: 1)),
    ("mismatch", .mismatch(.first, cards: [0, 1], points: 0)),
    ("hide", .hide(cards: [1, 0])),
    ("timeout with a card up", .timeout(.first, hidden: [1])),
    ("timeout with no card up", .timeout(.second, hidden: [])),
    ("over", .over(.first, cards: [3, 2], points: 1)),
    ("forfeit", .forfeit(.second, .left)),
    ("leave", .leave(.first)),
    ("disconnect", .disconnect(.second)),
    ("reconnect", .reconnect(.first)),
    ("rematch", .rematch(.second)),
]

private let ids: [RequestID?] = [
    nil, .integer(0), .integer(-1), .integer(.max), .integer(.min), .string(""), .string("req-1"),
    .string(String(repeating: "😀", count: 16)), .string("\u{1}\"\\\u{7F}"),
]

let stateFixtures: [MessageFixture] = {
    var fixtures: [MessageFixture] = []
    for (name, event) in everyEvent {
        fixtures.append(MessageFixture("state after \(name)", state(event: event)))
    }
    for (index, id) in ids.enumerated() {
        fixtures.append(MessageFixture("state with id #\(index)", state(id: id)))
    }
    fixtures += [
        MessageFixture("state waiting for a second player, seat 0 empty", state(
            game: 0, seq: 1, phase: .waiting, cards: Array(repeating: .down, count: 4), players: [nil, ann],
            turn: nil, turnMillisecondsLeft: nil, event: .join(.second))),
        MessageFixture("state of an empty room", state(
            phase: .waiting, players: [nil, nil], turn: nil, turnMillisecondsLeft: nil, event: .leave(.first))),
        MessageFixture("state waiting with seat 1 empty after a leave", state(
            spectators: 3, phase: .waiting, players: [zoe, nil], turn: nil, turnMillisecondsLeft: nil,
            series: SeriesTally(wins: [2, 1], draws: 1), event: .leave(.second), id: .string("bye"))),
        MessageFixture("state during a reveal", state(
            phase: .reveal, cards: [.up(face: "cat"), .up(face: "owl"), .down, .down], turnMillisecondsLeft: nil,
            event: .mismatch(.first, cards: [0, 1], points: 0))),
        MessageFixture("state with no turn clock", state(turnMillisecondsLeft: nil)),
        MessageFixture("state with the turn clock at zero", state(turnMillisecondsLeft: 0)),
        MessageFixture("state won by seat 0", state(
            phase: .over, cards: [.matched(face: "ant", by: .first), .matched(face: "ant", by: .first),
                                  .matched(face: "ape", by: .second), .matched(face: "ape", by: .first)],
            turn: nil, turnMillisecondsLeft: nil, outcome: .win(.first),
            series: SeriesTally(wins: [1, 0], draws: 0), event: .over(.first, cards: [2, 3], points: 1), id: .integer(8),
            downFaces: [])),
        MessageFixture("state won by seat 1", state(
            phase: .over, turn: nil, turnMillisecondsLeft: nil, outcome: .win(.second),
            series: SeriesTally(wins: [4, 7], draws: 2), event: .forfeit(.first, .left), downFaces: ["cat"])),
        MessageFixture("state of a game over from a server that sends no faces", state(
            phase: .over, cards: [.down, .down, .matched(face: "dog", by: .first), .matched(face: "dog", by: .first)],
            turn: nil, turnMillisecondsLeft: nil, outcome: .win(.first), event: .forfeit(.second, .away))),
        MessageFixture("state of a game over whose faces never found need escaping", state(
            phase: .over, cards: [.down, .down, .down, .down], turn: nil, turnMillisecondsLeft: nil, outcome: .draw,
            event: .forfeit(.first, .timeouts), downFaces: [awkwardText, awkwardText, "", "\\"])),
        MessageFixture("state of a drawn game", state(
            game: 3, seq: 812, phase: .over,
            cards: [.matched(face: "ant", by: .first), .matched(face: "ant", by: .first),
                    .matched(face: "ape", by: .second), .matched(face: "ape", by: .second)],
            players: [PlayerView(name: "P1", score: 1, connected: true), PlayerView(name: "P2", score: 1, connected: true)],
            turn: nil, turnMillisecondsLeft: nil, outcome: .draw, series: SeriesTally(wins: [0, 0], draws: 3),
            event: .over(.second, cards: [3, 2], points: 1))),
        MessageFixture("state with a rematch asked for after a game", state(
            phase: .over, turn: nil, turnMillisecondsLeft: nil, outcome: .win(.second), event: .rematch(.first))),
        MessageFixture("state of a 3x6 board", state(
            layout: BoardLayout(rows: 3, columns: 6),
            cards: (0..<18).map { index -> CardView in
                switch index % 3 {
                case 0: .down
                case 1: .up(face: Faces.all[index])
                default: .matched(face: Faces.all[index], by: .second)
                }
            })),
        MessageFixture("state of a solo game during its peek", state(
            phase: .peek, cards: [.up(face: "ant"), .up(face: "ape"), .up(face: "ape"), .up(face: "ant")],
            players: [ann], turn: nil, turnMillisecondsLeft: nil, series: SeriesTally(seats: .one), event: .peek,
            rules: soloRules)),
        MessageFixture("state of a solo game with its clock running", state(
            players: [ann], turnMillisecondsLeft: nil, gameMillisecondsLeft: 98_765, series: SeriesTally(wins: [3], draws: 0),
            event: .start(turn: .first), rules: soloRules)),
        MessageFixture("state of a solo game lost on time", state(
            phase: .over, cards: [.down, .matched(face: "ape", by: .first), .down, .matched(face: "ape", by: .first)],
            players: [ann], turn: nil, turnMillisecondsLeft: nil, gameMillisecondsLeft: nil, outcome: .loss,
            series: SeriesTally(wins: [3], draws: 0), event: .timeUp, rules: soloRules, downFaces: ["ant", "ant"])),
        MessageFixture("state of a solo game cleared", state(
            phase: .over, cards: Array(repeating: .matched(face: "ant", by: .first), count: 4), players: [ann], turn: nil,
            turnMillisecondsLeft: nil, outcome: .win(.first), series: SeriesTally(wins: [4], draws: 0),
            event: .over(.first, cards: [1, 2], points: 1), rules: soloRules, downFaces: [])),
        MessageFixture("state of a three-card Matchismo match", state(
            layout: BoardLayout(rows: 2, columns: 3),
            cards: [.matched(face: "K♠", by: .second), .matched(face: "K♥", by: .second), .matched(face: "K♦", by: .second),
                    .down, .down, .down],
            players: [ann, zoe], turn: .second, event: .match(.second, cards: [2, 0, 1], points: 13), rules: matchismoRules)),
        MessageFixture("state of a three-card Matchismo mismatch", state(
            phase: .reveal, layout: BoardLayout(rows: 2, columns: 3),
            cards: [.up(face: "10♥"), .up(face: "2♣"), .up(face: "A♦"), .down, .down, .down],
            turnMillisecondsLeft: nil, event: .mismatch(.first, cards: [0, 1, 2], points: -5), rules: matchismoRules)),
        MessageFixture("state of a timeout that turned two cards back", state(
            event: .timeout(.first, hidden: [4, 1]), rules: matchismoRules)),
        MessageFixture("state of a playing-card game with no set left", state(
            phase: .over, layout: BoardLayout(rows: 2, columns: 3),
            cards: [.down, .down, .matched(face: "7♣", by: .second), .matched(face: "Q♣", by: .second),
                    .matched(face: "9♣", by: .second), .down],
            turn: nil, turnMillisecondsLeft: nil, outcome: .draw, event: .exhausted, rules: matchismoRules,
            downFaces: ["A♥", "3♥", "2♠"])),
        MessageFixture("state with awkward names and room", state(
            room: "a-b_C-9", spectators: 1_000_000,
            players: [PlayerView(name: awkwardText, score: Int.max, connected: true),
                      PlayerView(name: "", score: 0, connected: false)],
            series: SeriesTally(wins: [Int.max, 0], draws: Int.max))),
    ]
    return fixtures
}()

/// Finished games as `history` lists them, one of each ending.
private let finishedClassic = FinishedGameSummary(
    game: 1, room: "kitchen", rules: .standard,
    players: [FinishedPlayer(name: "ann", claimed: true, score: 5), FinishedPlayer(name: "bob", claimed: true, score: 3)],
    winner: .first, end: .cleared, started: "2026-11-23T19:51:39Z", ended: "2026-11-23T19:55:02Z", flips: 40, rated: true)
private let finishedSolo = FinishedGameSummary(
    game: 2, room: "solo-1",
    rules: RuleSet(variant: Variant(seats: .one, setSize: .triple, deck: .words, scoring: .classic, gameSeconds: 60, peekMilliseconds: 0),
                   pairs: 4, turnSeconds: 0, revealMilliseconds: 500, againOnMatch: true),
    players: [FinishedPlayer(name: awkwardText, claimed: false, score: 2)],
    winner: nil, end: .timeUp, started: "2026-01-01T00:00:00Z", ended: "2026-01-01T00:01:00Z", flips: 17, rated: false)
private let finishedForfeit = FinishedGameSummary(
    game: Int64.max, room: "hall", rules: .standard,
    players: [FinishedPlayer(name: "ann", claimed: false, score: 0), FinishedPlayer(name: "Zoë", claimed: true, score: 1)],
    winner: .second, end: .forfeit(.timeouts), started: "2026-11-23T19:51:39Z", ended: "2026-11-23T19:51:40Z", flips: 2, rated: false)
private let finishedRunOut = FinishedGameSummary(
    game: 17, room: "felt",
    rules: RuleSet(variant: Variant(seats: .two, setSize: .triple, deck: .cards, scoring: .matchismo(.standard), gameSeconds: 0,
                                    peekMilliseconds: 0), pairs: 2, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true),
    players: [FinishedPlayer(name: "ann", claimed: true, score: -5), FinishedPlayer(name: "bob", claimed: true, score: 1)],
    winner: .second, end: .exhausted, started: "2026-11-23T19:51:39Z", ended: "2026-11-23T19:51:49Z", flips: 6, rated: true)

let otherFixtures: [MessageFixture] = {
    var fixtures: [MessageFixture] = [
        MessageFixture("welcome before hello", .welcome(Welcome(
            server: "pairs 0.1", session: "c1", hint: "type: join | join ROOM | list | help"))),
        MessageFixture("welcome answering hello", .welcome(Welcome(
            server: "pairs", session: "c42", hint: "hi", name: "Zoë 😀", id: .integer(1)))),
        MessageFixture("welcome with awkward text everywhere", .welcome(Welcome(
            protocolVersion: 7, server: awkwardText, session: awkwardText, hint: awkwardText, name: awkwardText,
            id: .string(awkwardText)))),
        MessageFixture("joined in seat 0", .joined(Joined(room: "kitchen", seat: .first, token: "0123abcd", id: .integer(5)))),
        MessageFixture("joined in seat 1", .joined(Joined(room: "k", seat: .second, token: "t", id: .string("j")))),
        MessageFixture("joined as a spectator", .joined(Joined(room: "kitchen", seat: nil, token: nil))),
        MessageFixture("joined a room of the classic game, whose rules are not sent",
                       .joined(Joined(room: "kitchen", seat: .first, token: "t", rules: .standard))),
        MessageFixture("joined a solo room", .joined(Joined(room: "solo-1", seat: .first, token: "t", rules: soloRules, id: .integer(2)))),
        MessageFixture("watching a Matchismo room", .joined(Joined(room: "m", seat: nil, token: nil, rules: matchismoRules))),
        MessageFixture("chat from a spectator", .chat(ChatMessage(room: "kitchen", from: "watcher", seat: nil, text: "go!"))),
        MessageFixture("chat from seat 0", .chat(ChatMessage(
            room: "kitchen", from: "ann", seat: .first, text: "say \"hi\" to C:\\ 😀", id: .integer(3)))),
        MessageFixture("chat from seat 1 with awkward text", .chat(ChatMessage(
            room: "kitchen", from: awkwardText, seat: .second, text: awkwardText, id: .string("c")))),
        MessageFixture("an empty room list", .rooms(RoomList(rooms: [], total: 0))),
        MessageFixture("a room list", .rooms(RoomList(
            rooms: [
                RoomSummary(name: "kitchen", phase: .waiting, players: [nil, "ann"], spectators: 0, pairs: 8),
                RoomSummary(name: "hall", phase: .playing, players: ["ann", "Zoë \"z\" \\"], spectators: 4, pairs: 32),
                RoomSummary(name: "attic", phase: .reveal, players: ["a", "b"], spectators: 1, pairs: 2),
                RoomSummary(name: "cellar", phase: .over, players: ["😀", nil], spectators: 0, pairs: 12),
                RoomSummary(name: "void", phase: .waiting, players: [nil, nil], spectators: 2, pairs: 4),
                RoomSummary(name: "solo-3", phase: .peek, players: ["ann"], spectators: 0, pairs: 2, rules: soloRules),
                RoomSummary(name: "m", phase: .playing, players: ["a", "b"], spectators: 0, pairs: 2, rules: matchismoRules),
            ],
            total: 25, id: .string("l")))),
        MessageFixture("a page of the room list with where the next starts", .rooms(RoomList(
            rooms: [RoomSummary(name: "kitchen", phase: .waiting, players: [nil, "ann"], spectators: 0, pairs: 8)],
            total: 25, next: RoomListCursor(hasFreeSeat: true, room: "kitchen"), id: .integer(2)))),
        MessageFixture("pong without an id", .pong(id: nil)),
        MessageFixture("a redirect of a join", .redirect(Redirect(host: "10.0.0.2", port: 7001, request: .join, room: "kitchen", id: .integer(3)))),
        MessageFixture("a redirect of a resume", .redirect(Redirect(host: "::1", port: 7002, request: .resume, token: "0123abcd"))),
        MessageFixture("stats at zero", .stats(ServerStatistics())),
        MessageFixture("stats with every counter different", .stats({
            var stats = ServerStatistics()
            stats.connections = 1
            stats.rooms = 2
            stats.gamesActive = 3
            stats.gamesFinished = 4
            stats.flips = 5
            stats.messagesIn = 6
            stats.messagesOut = 7
            stats.bytesIn = Int.max
            stats.bytesOut = 9_000_000_000
            stats.uptimeSeconds = 10
            stats.gamesStored = 11
            stats.storageErrors = 12
            stats.errors = [.badCard: 13, .notYourTurn: 14]
            stats.gamesFinishedByVariant = ["duel-pairs-words-classic": 3, "solo-triples-cards-matchismo": 1]
            stats.latency.record(microseconds: 40, answers: 15)
            stats.latency.record(microseconds: 3_000_000, answers: 2)
            stats.gamesPruned = 13
            stats.storage = .failing
            stats.storeLatency.record(microseconds: 5_000, answers: 7)
            stats.storeQueue = 16
            stats.id = .string("s")
            return stats
        }())),
        MessageFixture("stats from a server on three loops", .stats({
            var stats = ServerStatistics()
            stats.connections = 3
            stats.rooms = 1
            stats.flips = 9
            stats.loops = [LoopCounters(), LoopCounters(connections: 2, rooms: 1, flips: 9),
                           LoopCounters(connections: 1, rooms: 0, flips: 0, handOffs: Int.max)]
            return stats
        }())),
        MessageFixture("an empty history", .history(HistoryPage(games: []))),
        MessageFixture("a history with every kind of ending", .history(HistoryPage(
            games: [finishedClassic, finishedSolo, finishedForfeit, finishedRunOut], id: .integer(3)))),
        MessageFixture("a history line with more to come", .history(HistoryPage(games: [finishedClassic], more: true, id: .string("h")))),
        MessageFixture("a history of a tournament's games", .history(HistoryPage(games: [{
            var game = finishedClassic
            game.tournament = "cup-0a1b2c3d"
            return game
        }()], id: .integer(8)))),
        MessageFixture("a replay", .replay(GameReplay(summary: finishedClassic, deal: ["ant", "ape", "ape", "ant"], moves: [
            ReplayMove(milliseconds: 0, seat: .first, action: .flip(card: 0)),
            ReplayMove(milliseconds: 1234, seat: .first, action: .flip(card: 1)),
            ReplayMove(milliseconds: 31_234, seat: .second, action: .timeout),
            ReplayMove(milliseconds: 40_000, seat: .first, action: .disconnect),
            ReplayMove(milliseconds: 45_000, seat: .first, action: .reconnect),
            ReplayMove(milliseconds: Int64.max, seat: .second, action: .forfeit(.away)),
        ], id: .integer(8)))),
        MessageFixture("a replay of playing cards with more moves to come", .replay(GameReplay(
            summary: finishedRunOut, deal: ["A♠", "10♥", "K♦", "2♣", "7♣", "Q♣"], moves: [], more: true))),
        MessageFixture("more moves of a replay", .replayMoves(ReplayMoves(game: 17, moves: [
            ReplayMove(milliseconds: 99, seat: .second, action: .flip(card: 5)),
        ], more: false, id: .integer(8)))),
        MessageFixture("a rated leaderboard", .leaderboard(Leaderboard(variant: .classic, places: .rated([
            Place(rank: 1, standing: LadderStanding(name: "ann", rating: 1712, deviation: 54, provisional: false,
                                                    games: 40, wins: 30, losses: 8, draws: 2)),
            Place(rank: 2, standing: LadderStanding(name: awkwardText, rating: 1500, deviation: 350, provisional: true,
                                                    games: 0, wins: 0, losses: 0, draws: 0)),
        ]), id: .integer(4)))),
        MessageFixture("a solo leaderboard by flips", .leaderboard(Leaderboard(variant: finishedSolo.rules.variant, places: .solo([
            Place(rank: 1, standing: SoloStanding(name: "ann", played: 9, cleared: 7, bestMilliseconds: 41_000, fewestFlips: 18)),
            Place(rank: 2, standing: SoloStanding(name: "bob", played: 3, cleared: 0, bestMilliseconds: nil, fewestFlips: nil)),
        ], by: .flips), more: true))),
        MessageFixture("a profile", .profile(PlayerProfile(
            name: "ann", claimed: true,
            ratings: [OnLadder(variant: .classic, standing: LadderStanding(name: "ann", rating: 1712, deviation: 54,
                                                                           provisional: false, games: 40, wins: 30, losses: 8, draws: 2))],
            solo: [OnLadder(variant: finishedSolo.rules.variant,
                            standing: SoloStanding(name: "ann", played: 9, cleared: 7, bestMilliseconds: 41_000, fewestFlips: 18))],
            totals: PlayerProfile.Totals(games: 49, wins: 30, losses: 8, draws: 2, soloPlayed: 9, soloCleared: 7),
            games: [finishedSolo, finishedClassic], id: .string("p")))),
        MessageFixture("the profile of a name nobody has played", .profile(PlayerProfile(
            name: "new", claimed: false, ratings: [], solo: [],
            totals: PlayerProfile.Totals(games: 0, wins: 0, losses: 0, draws: 0, soloPlayed: 0, soloCleared: 0), games: []))),
        MessageFixture("a Swiss tournament running, with tie-breaks in halves and quarters, a withdrawn player and a bye",
                       .tournament(swissTournament)),
        MessageFixture("an arena finishing, with streaks and a paused player, one line of more",
                       .tournament(TournamentView(
                        name: "bots", format: .arena, status: .finishing, creator: awkwardText, rules: finishedRunOut.rules,
                        millisecondsLeft: 0, entrants: 3,
                        standings: [TournamentStanding(rank: 1, name: "b1", score: QuarterPoints(points: 14), games: 5, streak: 3),
                                    TournamentStanding(rank: 2, name: awkwardText, score: QuarterPoints(points: 0), games: 0, active: false)],
                        pairings: [TournamentBoard(room: "bots-9", players: ["b1", "b3"])], more: true, id: .string("t")))),
        MessageFixture("an open tournament nobody has entered", .tournament(TournamentView(
            name: "cup", format: .swiss, status: .open, creator: "host", rules: .standard, round: 0, entrants: 0))),
        MessageFixture("the tournament list", .tournaments(TournamentList(tournaments: [
            TournamentSummary(name: "cup", length: .rounds(nil), status: .open, creator: "host", entrants: 7, rules: .standard),
            TournamentSummary(name: "cup2", length: .rounds(5), status: .running, creator: "ann", entrants: 8, rules: .standard,
                              start: .players(8), claimedOnly: true),
            TournamentSummary(name: "blitz", length: .milliseconds(30_000), status: .finished, creator: awkwardText, entrants: 1024,
                              rules: finishedRunOut.rules),
            TournamentSummary(name: "long", length: .milliseconds(3_600_000), status: .finishing, creator: "b", entrants: 2, rules: .standard),
        ], id: .integer(5)))),
        MessageFixture("an empty tournament list with more", .tournaments(TournamentList(tournaments: [], more: true))),
        MessageFixture("left", .left(room: "kitchen", id: nil)),
        MessageFixture("left with an id", .left(room: "kitchen", id: .integer(12))),
        MessageFixture("help", .help(lines: TextCommand.usage, id: .integer(2))),
        MessageFixture("help with no lines", .help(lines: [], id: nil)),
        MessageFixture("help with awkward lines", .help(lines: ["", awkwardText, "\"\\"], id: .string("h"))),
    ]
    for (index, id) in ids.enumerated() {
        fixtures.append(MessageFixture("pong with id #\(index)", .pong(id: id)))
    }
    for code in ErrorCode.allCases {
        fixtures.append(MessageFixture("error \(code.rawValue)", .error(RequestError(code, "why \"\(code)\" \\ é", id: .integer(9)))))
    }
    fixtures.append(MessageFixture("error without an id", .error(RequestError(.badJSON, "not valid JSON"))))
    fixtures.append(MessageFixture("error with retry_after", .error(RequestError(.tooManyGuesses, "wait", id: .integer(3), retryAfterSeconds: 8))))
    fixtures.append(MessageFixture("error with a string id", .error(RequestError(.badRoom, awkwardText, id: .string("e")))))
    for reason in ByeReason.allCases {
        fixtures.append(MessageFixture("bye \(reason.rawValue)", .bye(reason)))
    }
    return fixtures
}()

/// A Swiss in its second round: scores, Buchholz and Sonneborn-Berger in halves and quarters.
let swissTournament = TournamentView(
    name: "cup", format: .swiss, status: .running, creator: "host", rules: .standard, round: 2, rounds: 3, entrants: 5,
    standings: [
        TournamentStanding(rank: 1, name: "ann", score: QuarterPoints(halves: 3), games: 2, buchholz: QuarterPoints(halves: 5),
                           sonnebornBerger: QuarterPoints(quarters: 9)),
        TournamentStanding(rank: 2, name: "bob", score: QuarterPoints(halves: 2), games: 1, buchholz: QuarterPoints(halves: 2),
                           sonnebornBerger: QuarterPoints(quarters: 0)),
        TournamentStanding(rank: 5, name: "dan", score: QuarterPoints(halves: 0), games: 2, buchholz: QuarterPoints(halves: 7),
                           sonnebornBerger: QuarterPoints(quarters: 3), active: false),
    ],
    pairings: [TournamentBoard(room: "cup-3", players: ["ann", "cat"]), TournamentBoard(room: "cup-4", players: ["bob", "eve"])],
    bye: "fay", id: .integer(11))

private let allFixtures = stateFixtures + otherFixtures

// MARK: - Round trips and line shape

private func roundTrip(_ message: ServerMessage) -> Result<ServerMessage, ServerMessageError> {
    let line = ServerMessageEncoder.encode(message)
    return Result { () throws(ServerMessageError) in try ServerMessageDecoder.decode(line: line.dropLast()) }
}

/// The line ends with one newline, has no other, and holds no raw control character at all: JSON needs
/// them escaped inside strings, and the encoder writes no whitespace between tokens.
private func lineShapeProblems(_ line: [UInt8]) -> [String] {
    var problems: [String] = []
    if line.last != UInt8(ascii: "\n") { problems.append("does not end with a newline") }
    let body = line.dropLast()
    if let index = body.firstIndex(where: { $0 < 0x20 }) {
        problems.append("raw control byte \(body[index]) at \(index)")
    }
    if String(validating: body, as: UTF8.self) == nil { problems.append("not UTF-8") }
    return problems
}

@Test("every server message decodes back to itself", arguments: allFixtures)
func messagesRoundTrip(fixture: MessageFixture) {
    #expect(roundTrip(fixture.message) == .success(fixture.message))
}

@Test("every encoded message is one line: exactly one newline, at the end, and no raw control bytes",
      arguments: allFixtures)
func messagesAreOneLine(fixture: MessageFixture) {
    let line = ServerMessageEncoder.encode(fixture.message)
    #expect(lineShapeProblems(line) == [])
}

@Test("the same message always encodes to the same bytes")
func encodingIsDeterministic() {
    for fixture in allFixtures {
        #expect(ServerMessageEncoder.encode(fixture.message) == ServerMessageEncoder.encode(fixture.message), "\(fixture.name)")
    }
}

// MARK: - Reference: Foundation reads the same thing

/// A JSON value built by hand (or read by Foundation) to compare with what the encoder wrote.
indirect enum Ref: Sendable, CustomStringConvertible, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([Ref])
    case object([String: Ref])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int64) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(nilLiteral: ()) { self = .null }
    init(arrayLiteral elements: Ref...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, Ref)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { first, _ in first }))
    }

    static func int(_ value: Int) -> Ref { .int(Int64(value)) }
    static func seat(_ seat: Seat?) -> Ref { seat.map { .int($0.index) } ?? .null }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .double(let value): "\(value)d"
        case .string(let value): value.debugDescription
        case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\($0.value)" }.joined(separator: ",") + "}"
        }
    }

    /// Where `self` and `other` differ, as paths; empty when they are the same. Strings compare by Unicode
    /// scalars: `String`'s `==` would call canonically equivalent but different strings equal.
    func differences(from other: Ref, at path: String = "$") -> [String] {
        switch (self, other) {
        case (.null, .null): return []
        case (.bool(let a), .bool(let b)) where a == b: return []
        case (.int(let a), .int(let b)) where a == b: return []
        case (.double(let a), .double(let b)) where a == b: return []
        case (.string(let a), .string(let b)) where Array(a.unicodeScalars) == Array(b.unicodeScalars): return []
        case (.array(let a), .array(let b)) where a.count == b.count:
            return zip(a, b).enumerated().flatMap { $1.0.differences(from: $1.1, at: "\(path)[\($0)]") }
        case (.object(let a), .object(let b)):
            var found: [String] = []
            for key in Set(a.keys).union(b.keys).sorted() {
                switch (a[key], b[key]) {
                case (let x?, let y?): found += x.differences(from: y, at: "\(path).\(key)")
                case (_?, nil): found.append("\(path).\(key): only in the encoded line")
                case (nil, _?): found.append("\(path).\(key): missing from the encoded line")
                case (nil, nil): break
                }
            }
            return found
        default:
            return ["\(path): \(self) is not \(other)"]
        }
    }
}

/// Foundation's reading of one value, as a `Ref`.
private func ref(fromFoundation value: Any) -> Ref {
    if value is NSNull { return .null }
    if let string = value as? String { return .string(string) }
    if let array = value as? [Any] { return .array(array.map(ref(fromFoundation:))) }
    if let object = value as? [String: Any] { return .object(object.mapValues(ref(fromFoundation:))) }
    if let number = value as? NSNumber {
        if String(describing: type(of: value)).contains("Boolean") { return .bool(number.boolValue) }
        let integer = number.int64Value
        if Double(integer) == number.doubleValue, number.stringValue == String(integer) { return .int(integer) }
        return .double(number.doubleValue)
    }
    return .string("<unexpected \(type(of: value))>")
}

/// The object the protocol says `message` is, built from the message's fields without the encoder.
private func reference(_ message: ServerMessage) -> Ref {
    var members: [String: Ref]
    var id: RequestID?
    switch message {
    case .welcome(let welcome):
        members = ["type": "welcome", "protocol": .int(welcome.protocolVersion), "server": .string(welcome.server),
                   "session": .string(welcome.session), "hint": .string(welcome.hint)]
        if let name = welcome.name { members["name"] = .string(name) }
        id = welcome.id
    case .joined(let joined):
        members = ["type": "joined", "room": .string(joined.room), "seat": .seat(joined.seat),
                   "token": joined.token.map(Ref.string) ?? .null]
        if let rules = joined.rules, rules.variant != .classic { members["rules"] = rulesReference(rules) }
        id = joined.id
    case .state(let message):
        // A state's id belongs to the change it reports, so protocol.md puts it in `event`.
        members = stateReference(message)
        if case .object(var event)? = members["event"], let eventID = message.id {
            switch eventID {
            case .integer(let value): event["id"] = .int(value)
            case .string(let value): event["id"] = .string(value)
            }
            members["event"] = .object(event)
        }
    case .error(let error):
        members = ["type": "error", "code": .string(error.code.rawValue), "message": .string(error.message)]
        if let seconds = error.retryAfterSeconds { members["retry_after"] = .int(seconds) }
        id = error.id
    case .chat(let chat):
        members = ["type": "chat", "room": .string(chat.room), "from": .string(chat.from), "seat": .seat(chat.seat),
                   "text": .string(chat.text)]
        id = chat.id
    case .rooms(let list):
        members = ["type": "rooms", "total": .int(list.total), "rooms": .array(list.rooms.map { room in
            var entry: [String: Ref] = ["room": .string(room.name), "phase": .string(room.phase.wireName),
                                        "players": .array(room.players.map { $0.map(Ref.string) ?? .null }),
                                        "spectators": .int(room.spectators), "pairs": .int(room.pairs)]
            if let rules = room.rules, rules.variant != .classic { entry["rules"] = rulesReference(rules) }
            return .object(entry)
        })]
        // The cursor as protocol.md spells it: `open/NAME` or `full/NAME`.
        if let next = list.next { members["next"] = .string((next.hasFreeSeat ? "open/" : "full/") + next.room) }
        id = list.id
    case .pong(let pongID):
        members = ["type": "pong"]
        id = pongID
    case .redirect(let redirect):
        members = ["type": "redirect", "host": .string(redirect.host), "port": .int(Int64(redirect.port)),
                   "request": .string(redirect.request.rawValue)]
        if let room = redirect.room { members["room"] = .string(room) }
        if let token = redirect.token { members["token"] = .string(token) }
        id = redirect.id
    case .stats(let stats):
        members = ["type": "stats", "connections": .int(stats.connections), "rooms": .int(stats.rooms),
                   "games_active": .int(stats.gamesActive), "games_finished": .int(stats.gamesFinished),
                   "flips": .int(stats.flips), "messages_in": .int(stats.messagesIn),
                   "messages_out": .int(stats.messagesOut), "bytes_in": .int(stats.bytesIn),
                   "bytes_out": .int(stats.bytesOut), "uptime_s": .int(stats.uptimeSeconds),
                   "games_stored": .int(stats.gamesStored), "storage_errors": .int(stats.storageErrors),
                   "errors": .object(stats.errors.reduce(into: [:]) { $0[$1.key.rawValue] = .int($1.value) }),
                   "games_finished_by_variant": .object(stats.gamesFinishedByVariant.mapValues { .int($0) }),
                   "latency_us": ["le": .array(AnswerLatency.boundsMicroseconds.map { .int($0) }),
                                  "counts": .array(stats.latency.cumulativeCounts.map { .int($0) }),
                                  "sum": .int(stats.latency.sumMicroseconds)],
                   "games_pruned": .int(stats.gamesPruned),
                   "store_latency_us": ["le": .array(AnswerLatency.boundsMicroseconds.map { .int($0) }),
                                        "counts": .array(stats.storeLatency.cumulativeCounts.map { .int($0) }),
                                        "sum": .int(stats.storeLatency.sumMicroseconds)],
                   "store_queue": .int(stats.storeQueue)]
        if let storage = stats.storage { members["storage"] = .string(storage.rawValue) }
        if let loops = stats.loops {
            members["loops"] = .array(loops.map { ["connections": .int($0.connections), "rooms": .int($0.rooms),
                                                   "flips": .int($0.flips), "hand_offs": .int($0.handOffs)] })
        }
        id = stats.id
    case .left(let room, let leftID):
        members = ["type": "left", "room": .string(room)]
        id = leftID
    case .help(let lines, let helpID):
        members = ["type": "help", "commands": .array(lines.map(Ref.string))]
        id = helpID
    case .bye(let reason):
        members = ["type": "bye", "reason": .string(reason.rawValue)]
    case .history(let page):
        members = ["type": "history", "games": .array(page.games.map { .object(summaryReference($0)) })]
        if page.more { members["more"] = .bool(true) }
        id = page.id
    case .replay(let replay):
        members = summaryReference(replay.summary)
        members["type"] = "replay"
        members["deal"] = .array(replay.deal.map(Ref.string))
        members["moves"] = .array(replay.moves.map(moveReference))
        if replay.more { members["more"] = .bool(true) }
        id = replay.id
    case .replayMoves(let part):
        members = ["type": "replay_moves", "game": .int(part.game), "moves": .array(part.moves.map(moveReference))]
        if part.more { members["more"] = .bool(true) }
        id = part.id
    case .leaderboard(let board):
        members = ["type": "leaderboard", "rules": variantReference(board.variant)]
        switch board.places {
        case .rated(let places):
            members["players"] = .array(places.map { place in
                var entry = standingReference(place.standing)
                entry["rank"] = .int(place.rank)
                return .object(entry)
            })
        case .solo(let places, let by):
            members["by"] = .string(by == .time ? "time" : "flips")
            members["players"] = .array(places.map { place in
                var entry = standingReference(place.standing)
                entry["rank"] = .int(place.rank)
                return .object(entry)
            })
        }
        if board.more { members["more"] = .bool(true) }
        id = board.id
    case .profile(let profile):
        let totals = profile.totals
        members = [
            "type": "profile", "name": .string(profile.name), "claimed": .bool(profile.claimed),
            "totals": ["games": .int(totals.games), "wins": .int(totals.wins), "losses": .int(totals.losses),
                       "draws": .int(totals.draws), "solo_played": .int(totals.soloPlayed), "solo_cleared": .int(totals.soloCleared)],
            "ratings": .array(profile.ratings.map { rating in
                var entry = standingReference(rating.standing)
                entry["rules"] = variantReference(rating.variant)
                return .object(entry)
            }),
            "solo": .array(profile.solo.map { record in
                var entry = standingReference(record.standing)
                entry["rules"] = variantReference(record.variant)
                return .object(entry)
            }),
            "games": .array(profile.games.map { .object(summaryReference($0)) }),
        ]
        if profile.more { members["more"] = .bool(true) }
        id = profile.id
    case .tournament(let view):
        members = [
            "type": "tournament", "name": .string(view.name), "format": .string(view.format.rawValue),
            "status": .string(view.status.rawValue), "creator": .string(view.creator), "rules": rulesReference(view.rules),
            "round": view.round.map { .int($0) } ?? .null, "rounds": view.rounds.map { .int($0) } ?? .null,
            "ms_left": view.millisecondsLeft.map { .int($0) } ?? .null, "entrants": .int(view.entrants),
            "standings": .array(view.standings.map { row in
                var entry: [String: Ref] = ["rank": .int(row.rank), "name": .string(row.name), "score": pointsReference(row.score),
                                            "games": .int(row.games), "streak": .int(row.streak), "active": .bool(row.active)]
                if let buchholz = row.buchholz { entry["buchholz"] = pointsReference(buchholz) }
                if let sb = row.sonnebornBerger { entry["sonneborn_berger"] = pointsReference(sb) }
                return .object(entry)
            }),
            "pairings": .array(view.pairings.map { ["room": .string($0.room), "players": .array($0.players.map(Ref.string))] }),
        ]
        if let bye = view.bye { members["bye"] = .string(bye) }
        if view.more { members["more"] = .bool(true) }
        id = view.id
    case .tournaments(let list):
        members = ["type": "tournaments", "tournaments": .array(list.tournaments.map { summary in
            var entry: [String: Ref] = [
                "name": .string(summary.name), "status": .string(summary.status.rawValue), "creator": .string(summary.creator),
                "entrants": .int(summary.entrants), "rules": rulesReference(summary.rules), "claimed_only": .bool(summary.claimedOnly),
            ]
            switch summary.length {
            case .rounds(let rounds): entry["format"] = "swiss"; entry["rounds"] = rounds.map { .int($0) } ?? .null
            case .milliseconds(let ms):
                entry["format"] = "arena"
                entry["minutes"] = ms % 60_000 == 0 ? .int(ms / 60_000) : .double(Double(ms) / 60_000)
            }
            switch summary.start {
            case .manual: entry["start"] = "manual"
            case .players(let count): entry["start"] = .int(count)
            }
            return .object(entry)
        })]
        if list.more { members["more"] = .bool(true) }
        id = list.id
    }
    // The id of the request that caused a message sits at its top level, except in a state (above).
    switch id {
    case nil: break
    case .integer(let value)?: members["id"] = .int(value)
    case .string(let value)?: members["id"] = .string(value)
    }
    return .object(members)
}

private func stateReference(_ message: StateMessage) -> [String: Ref] {
    let state = message.state
    let cards: [Ref] = state.cards.map { card in
        switch card {
        case .down: ["state": "down"]
        case .up(let face): ["state": "up", "face": .string(face)]
        case .matched(let face, let seat): ["state": "matched", "face": .string(face), "by": .seat(seat)]
        }
    }
    let players: [Ref] = state.players.map { player in
        guard let player else { return .null }
        return ["name": .string(player.name), "score": .int(player.score), "connected": .bool(player.connected)]
    }
    let winner: Seat?
    switch state.outcome {
    case .win(let seat)?: winner = seat
    case .draw?, .loss?, nil: winner = nil
    }
    var members: [String: Ref] = [
        "type": "state", "room": .string(message.room), "game": .int(state.game), "seq": .int(state.seq),
        "phase": .string(state.phase.wireName), "rows": .int(state.layout.rows), "cols": .int(state.layout.columns),
        "cards": .array(cards), "players": .array(players), "spectators": .int(message.spectators),
        "turn": .seat(state.turn), "turn_ms_left": state.turnMillisecondsLeft.map { .int($0) } ?? .null,
        "winner": .seat(winner),
        "series": ["wins": .array(state.series.wins.map { .int($0) }), "draws": .int(state.series.draws)],
        "event": eventReference(state.event, rules: message.rules),
    ]
    if state.phase == .over, let faces = state.downFaces { members["down_faces"] = .array(faces.map(Ref.string)) }
    if let rules = message.rules, rules.variant != .classic {
        members["rules"] = rulesReference(rules)
        if rules.variant.gameSeconds > 0 { members["game_ms_left"] = state.gameMillisecondsLeft.map { .int($0) } ?? .null }
    }
    return members
}

/// A tournament score as protocol.md writes it: a whole number, or a decimal of halves or quarters.
private func pointsReference(_ points: QuarterPoints) -> Ref {
    points.quarters % 4 == 0 ? .int(points.quarters / 4) : .double(Double(points.quarters) / 4)
}

/// A finished game's summary as protocol.md describes it.
private func summaryReference(_ game: FinishedGameSummary) -> [String: Ref] {
    var members: [String: Ref] = [
        "game": .int(game.game), "room": .string(game.room), "rules": rulesReference(game.rules),
        "players": .array(game.players.map { ["name": .string($0.name), "score": .int($0.score), "claimed": .bool($0.claimed)] }),
        "winner": .seat(game.winner), "started": .string(game.started), "ended": .string(game.ended),
        "flips": .int(game.flips), "rated": .bool(game.rated),
    ]
    if let tournament = game.tournament { members["tournament"] = .string(tournament) }
    switch game.end {
    case .cleared: members["end"] = "cleared"
    case .timeUp: members["end"] = "time_up"
    case .exhausted: members["end"] = "exhausted"
    case .forfeit(let reason):
        members["end"] = "forfeit"
        members["forfeit_reason"] = .string(reason == .left ? "left" : reason == .timeouts ? "timeouts" : "away")
    }
    return members
}

private func moveReference(_ move: ReplayMove) -> Ref {
    var members: [String: Ref] = ["ms": .int(move.milliseconds), "seat": .seat(move.seat)]
    switch move.action {
    case .flip(let card): members["kind"] = "flip"; members["card"] = .int(card)
    case .timeout: members["kind"] = "timeout"
    case .disconnect: members["kind"] = "disconnect"
    case .reconnect: members["kind"] = "reconnect"
    case .forfeit(let reason):
        members["kind"] = "forfeit"
        members["reason"] = .string(reason == .left ? "left" : reason == .timeouts ? "timeouts" : "away")
    }
    return .object(members)
}

private func standingReference(_ standing: LadderStanding) -> [String: Ref] {
    ["name": .string(standing.name), "rating": .int(standing.rating), "deviation": .int(standing.deviation),
     "provisional": .bool(standing.provisional), "games": .int(standing.games), "wins": .int(standing.wins),
     "losses": .int(standing.losses), "draws": .int(standing.draws)]
}

private func standingReference(_ standing: SoloStanding) -> [String: Ref] {
    ["name": .string(standing.name), "played": .int(standing.played), "cleared": .int(standing.cleared),
     "best_ms": standing.bestMilliseconds.map { .int($0) } ?? .null,
     "fewest_flips": standing.fewestFlips.map { .int($0) } ?? .null]
}

/// A variant alone, as a ladder's rules: the rules object without the board's four.
private func variantReference(_ variant: Variant) -> Ref {
    guard case .object(var members) = rulesReference(RuleSet(variant: variant, pairs: 2, turnSeconds: 0, revealMilliseconds: 0,
                                                              againOnMatch: true)) else { return .null }
    for key in ["pairs", "turn_seconds", "reveal_ms", "again_on_match"] { members[key] = nil }
    return .object(members)
}

/// protocol.md's rules object: every rule, Matchismo's constants at their standard values under classic scoring.
private func rulesReference(_ rules: RuleSet) -> Ref {
    let costs: MatchismoCosts = if case .matchismo(let costs) = rules.variant.scoring { costs } else { .standard }
    return [
        "seats": .int(rules.variant.seats.rawValue), "match": .int(rules.variant.setSize.rawValue),
        "deck": .string(rules.variant.deck == .cards ? "cards" : "words"),
        "scoring": .string(rules.variant.scoring == .classic ? "classic" : "matchismo"),
        "flip_cost": .int(costs.flipCost), "mismatch_penalty": .int(costs.mismatchPenalty), "match_bonus": .int(costs.matchBonus),
        "game_seconds": .int(rules.variant.gameSeconds), "peek_ms": .int(rules.variant.peekMilliseconds),
        "pairs": .int(rules.pairs), "turn_seconds": .int(rules.turnSeconds), "reveal_ms": .int(rules.revealMilliseconds),
        "again_on_match": .bool(rules.againOnMatch),
    ]
}

/// The event object: its kind, and only the fields protocol.md's table gives that kind (all of which this
/// server sends): `points` in Matchismo rooms, the cards a timeout turned back when there were several.
private func eventReference(_ event: StateEvent, rules: RuleSet?) -> Ref {
    let cards: Ref = event.cards.map { .array($0.map { .int($0) }) } ?? .null
    let last: Ref = event.cards?.last.map { .int($0) } ?? .null
    let kind = Ref.string(event.kind.wireName)
    let scoresPoints = rules?.variant.scoring.kind == .matchismo
    switch event.kind {
    case .join, .start, .forfeit, .leave, .disconnect, .reconnect, .rematch:
        return ["kind": kind, "seat": .seat(event.seat)]
    case .peek, .timeUp, .exhausted:
        return ["kind": kind]
    case .flip: return ["kind": kind, "seat": .seat(event.seat), "card": event.card.map { .int($0) } ?? .null]
    case .match, .mismatch, .over:
        var members: [String: Ref] = ["kind": kind, "seat": .seat(event.seat), "card": last, "cards": cards]
        if scoresPoints { members["points"] = event.points.map { .int($0) } ?? .null }
        return .object(members)
    case .hide: return ["kind": kind, "cards": cards]
    case .timeout:
        var members: [String: Ref] = ["kind": kind, "seat": .seat(event.seat)]
        if let card = event.card { members["card"] = .int(card) }
        if let cards = event.cards { members["cards"] = .array(cards.map { .int($0) }) }
        return .object(members)
    case .unknown: return ["kind": kind]
    }
}

@Test("Foundation's JSON reader sees in every encoded line exactly the fields the protocol describes",
      arguments: allFixtures)
func foundationReadsTheProtocolShape(fixture: MessageFixture) throws {
    let line = ServerMessageEncoder.encode(fixture.message)
    let parsed = try JSONSerialization.jsonObject(with: Data(line.dropLast()))
    let differences = ref(fromFoundation: parsed).differences(from: reference(fixture.message))
    #expect(differences == [], "\(String(decoding: line, as: UTF8.self))")
}

@Test("Foundation and the module's own parser read every encoded line the same way")
func foundationAndParserAgree() throws {
    for fixture in allFixtures {
        let line = Array(ServerMessageEncoder.encode(fixture.message).dropLast())
        let ours = ref(fromParsed: try JSONParser.parse(line))
        let theirs = ref(fromFoundation: try JSONSerialization.jsonObject(with: Data(line)))
        #expect(ours.differences(from: theirs) == [], "\(fixture.name)")
    }
}

private func ref(fromParsed value: JSONValue) -> Ref {
    switch value {
    case .null: .null
    case .bool(let value): .bool(value)
    case .number(.integer(let value)): .int(value)
    case .number(.double(let value)): .double(value)
    case .string(let value): .string(value)
    case .array(let values): .array(values.map(ref(fromParsed:)))
    case .object(let object):
        .object(Dictionary(object.members.map { ($0.key, ref(fromParsed: $0.value)) }, uniquingKeysWith: { a, _ in a }))
    }
}

// MARK: - Line limit

/// A name about as long in bytes as cleaning lets through: characters loaded with combining marks.
let heaviestName: String = {
    let heavy = "a" + String(repeating: "\u{0301}", count: 5)
    return TextCleaner.cleanName(String(repeating: heavy, count: 30))!
}()

/// A string id as long as an id can be, made of the characters that take the most bytes to escape. The
/// decoder refuses control characters in ids, so no client can send this one; the encoders must still
/// bound what it costs, since they take any id they are given.
let heaviestID = RequestID.string(String(repeating: "\u{1}", count: RequestID.maxStringBytes))

/// The longest state line the server can send: the largest board, `found` of its pairs matched (all of them
/// by default: every card shows its face), in the state of the game over, which also lists the faces of the
/// cards still face down.
private func largestState(names: [String], id: RequestID, found: Int = RuleSet.pairsLimits.upperBound) -> StateSource {
    let deal = Faces.all.prefix(RuleSet.pairsLimits.upperBound).flatMap { [$0, $0] }
    let cards: [CardView] = deal.enumerated().map { index, face in index < 2 * found ? .matched(face: face, by: .second) : .down }
    return state(
        room: String(repeating: "r", count: RoomName.maxLength), spectators: Int.max, game: Int.max, seq: Int.max,
        phase: .over, layout: RuleSet(pairs: 32, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true).layout,
        cards: cards,
        players: names.map { PlayerView(name: $0, score: Int.max, connected: true) },
        turn: nil, turnMillisecondsLeft: nil, outcome: .win(.second),
        series: SeriesTally(wins: [Int.max, Int.max], draws: Int.max),
        event: .over(.second, cards: [Int.max, Int.max], points: 1), id: id, downFaces: Array(deal[(2 * found)...]))
}

@Test("a state of the largest board, with 24-character names and a 64-byte id, fits the protocol line limit")
func largestStateFitsALine() {
    let name = String(repeating: "😀", count: TextCleaner.maxNameCharacters)
    let id = RequestID.string(String(repeating: "😀", count: RequestID.maxStringBytes / 4))
    let source = largestState(names: [name, name], id: id)
    let line = source.fastLine
    #expect(line.count <= LineFramer.maxLineBytes, "\(line.count) bytes")
    #expect(line == ServerMessageEncoder.encode(source.message))
    #expect(roundTrip(source.message) == .success(source.message))
}

@Test("even with the heaviest names cleaning allows and an id of escaped control characters, a state fits a line")
func heaviestStateFitsALine() {
    #expect(heaviestName.utf8.count > TextCleaner.maxNameBytes - 11)
    let source = largestState(names: [heaviestName, heaviestName], id: heaviestID)
    let line = source.fastLine
    #expect(line.count <= LineFramer.maxLineBytes, "\(line.count) bytes")
    #expect(line == ServerMessageEncoder.encode(source.message))
    #expect(roundTrip(source.message) == .success(source.message))
}

@Test("a game over's line with the faces never found is never longer than the same board cleared, so it fits the line limit")
func neverFoundFacesFitALine() {
    let cleared = largestState(names: [heaviestName, heaviestName], id: heaviestID).fastLine
    for found in 0..<RuleSet.pairsLimits.upperBound {
        let source = largestState(names: [heaviestName, heaviestName], id: heaviestID, found: found)
        let line = source.fastLine
        #expect(line.count <= cleared.count && line.count <= LineFramer.maxLineBytes, "\(found) pairs found: \(line.count) bytes")
        #expect(line == ServerMessageEncoder.encode(source.message))
        #expect(roundTrip(source.message) == .success(source.message))
    }
}

@Test("the longest chat, welcome and error lines fit the protocol line limit")
func longestOtherMessagesFitALine() throws {
    // Chat: the most bytes cleaning lets through, and the characters that cost the most to escape.
    let heavyText = try #require(TextCleaner.cleanChat(String(repeating: "a" + String(repeating: "\u{0301}", count: 10), count: 300)))
    let quotes = try #require(TextCleaner.cleanChat(String(repeating: "\"", count: 1000)))
    for text in [heavyText, quotes] {
        let chat = ServerMessage.chat(ChatMessage(
            room: String(repeating: "r", count: RoomName.maxLength), from: heaviestName, seat: .second, text: text,
            id: heaviestID))
        #expect(ServerMessageEncoder.encode(chat).count <= LineFramer.maxLineBytes)
    }
    let welcome = ServerMessage.welcome(Welcome(
        server: "pairs", session: "c\(Int.max)", hint: "type: join | join ROOM | list | help", name: heaviestName,
        id: heaviestID))
    #expect(ServerMessageEncoder.encode(welcome).count <= LineFramer.maxLineBytes)
    // Errors echo parts of what the client sent; take the worst a 4 KiB line can provoke.
    let hostile = #"{"id":"\#(String(repeating: #"\\"#, count: 64))","type":""# + String(repeating: #"\""#, count: 1800) + #""}"#
    #expect(hostile.utf8.count <= LineFramer.maxLineBytes)
    guard case .failure(let error) = Result(catching: { () throws(RequestError) in try RequestDecoder.decode(line: Array(hostile.utf8)) }) else {
        Issue.record("the hostile line was accepted")
        return
    }
    #expect(error.code == .unknownType)
    #expect(ServerMessageEncoder.encode(.error(error)).count <= LineFramer.maxLineBytes)
}

private func longestRoomList(playerName: String) -> ServerMessage {
    let rooms = (0..<RoomList.maxRooms).map { index in
        RoomSummary(
            name: String(repeating: "r", count: RoomName.maxLength - 2) + String(format: "%02d", index),
            phase: .playing, players: [playerName, playerName], spectators: Int.max, pairs: 32)
    }
    return .rooms(RoomList(rooms: rooms, total: Int.max, id: heaviestID))
}

@Test("a room list of the most rooms it may hold fits the protocol line limit with 24-character names")
func longestRoomListFitsALine() {
    let name = String(repeating: "😀", count: TextCleaner.maxNameCharacters)
    let line = ServerMessageEncoder.encode(longestRoomList(playerName: name))
    #expect(line.count <= LineFramer.maxLineBytes, "\(line.count) bytes")
}

@Test("a room list with the heaviest names keeps only the rooms that fit the protocol line limit")
func heaviestRoomListFitsALine() {
    guard case .rooms(let unbounded) = longestRoomList(playerName: heaviestName) else { return }
    // Ten rooms of two names at TextCleaner.maxNameBytes (256) would come to about 6.7 KB.
    #expect(ServerMessageEncoder.encode(.rooms(unbounded)).count > LineFramer.maxLineBytes)
    let fitted = RoomList.fitting(unbounded.rooms, total: unbounded.total, id: unbounded.id)
    let line = ServerMessageEncoder.encode(.rooms(fitted))
    #expect(line.count <= LineFramer.maxLineBytes, "\(line.count) bytes")
    #expect(!fitted.rooms.isEmpty)
    #expect(fitted.rooms == Array(unbounded.rooms.prefix(fitted.rooms.count)))
    #expect(fitted.total == unbounded.total)
}

// MARK: - Decoder robustness

@Test("every strict prefix of an encoded state is refused by the decoder, never crashes it")
func prefixesOfAStateAreRefused() {
    let line = Array(ServerMessageEncoder.encode(stateFixtures[0].message).dropLast())
    for length in 0..<line.count {
        let result = Result { () throws(ServerMessageError) in try ServerMessageDecoder.decode(line: line[..<length]) }
        if case .success(let message) = result { Issue.record("prefix of \(length) bytes decoded to \(message)") }
    }
}

@Test("server lines that are not messages are refused with an error that says why")
func badServerLinesAreRefused() {
    func error(_ text: String) -> ServerMessageError? {
        do throws(ServerMessageError) {
            _ = try ServerMessageDecoder.decode(line: Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }
    #expect(error("[1]") == .notAnObject)
    #expect(error("{}") == .missingField("type"))
    #expect(error(#"{"type":"party"}"#) == .unknownType("party"))
    #expect(error(#"{"type":"left"}"#) == .missingField("room"))
    #expect(error(#"{"type":"left","room":5}"#) == .badField("room"))
    #expect(error(#"{"type":"bye","reason":"bored"}"#) == .badField("reason"))
    #expect(error(#"{"type":"error","code":"oops","message":"m"}"#) == .badField("code"))
    #expect(error(#"{"type":"joined","room":"r","seat":2,"token":null}"#) == .badField("seat"))
    if case .badJSON? = error("{") {} else { Issue.record("an unfinished object is not bad JSON") }
}

@Test("a decoder ignores fields it does not know, so newer servers can add some")
func decoderIgnoresUnknownFields() throws {
    let message = try ServerMessageDecoder.decode(line: Array(#"{"type":"pong","id":4,"extra":{"a":[1,2]},"v":1.5}"#.utf8))
    #expect(message == .pong(id: .integer(4)))
}

// MARK: - The state fast path

@Test("the state fast path writes exactly the bytes of the general writer for every state fixture")
func stateFastPathMatchesGeneralWriter() throws {
    let sources = stateFixtures.compactMap(\.source)
    #expect(sources.count == stateFixtures.count)
    for source in sources {
        let fast = source.fastLine
        let general = ServerMessageEncoder.encode(source.message)
        #expect(fast == general, "\(source)")
        #expect(try JSONParser.parse(fast.dropLast()) == JSONParser.parse(general.dropLast()))
    }
}

@Test("the states of one change encoded together are the same lines as each state message encoded alone")
func batchedStatesAreConcatenatedLines() {
    let states = stateFixtures.compactMap(\.source?.state)
    for id: RequestID? in [nil, .integer(7), .string("a\"b")] {
        let batched = ServerMessageEncoder.encode(states: states, room: "kitchen", spectators: 3, id: id)
        let alone = states.flatMap {
            ServerMessageEncoder.encode(.state(StateMessage(room: "kitchen", spectators: 3, state: $0, id: id)))
        }
        #expect(batched == alone)
    }
}
