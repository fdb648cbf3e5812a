import PairsBots
import PairsClient
import PairsRules
import PairsWire

/// Bot machines at one table, with the real rules in between and no sockets: every request is applied to
/// a `Match` the way the server would, and every state goes to every bot. One bot per seat of the rules.
///
/// Time is a manual clock: each request moves it on by `millisecondsPerRequest` (so a game clock runs
/// out when enough requests were made), and when no bot has anything to do (a peek, a reveal) it jumps to
/// the match's next deadline.
struct BotTable {
    var match: Match
    var bots: [BotMachine]
    var seats: [Seat?]
    var records: [[GameRecord]]
    var finished: [BotFinish?]
    var inbox: [(bot: Int, input: BotInput)] = []
    /// Flips the rules refused: a bot that knows the rules never makes one.
    var refusedFlips: [String] = []
    var nextID: Int64 = 1
    var now = Moment(milliseconds: 0)
    var millisecondsPerRequest: Int64 = 10
    /// Whether states go out as a server that leaves out everything optional sends them: events of only
    /// their kind, and no ids.
    var sendsBareEvents = false

    init(games: Int, strategies: [StrategyKind], rules: RuleSet = RuleSet(pairs: 4, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true),
         seed: UInt64 = 99) {
        match = Match(rules: rules, graceMilliseconds: 60_000, seed: seed)
        bots = strategies.enumerated().map { index, strategy in
            BotMachine(configuration: BotConfiguration(room: "table", rules: RuleChoices(rules), games: games, strategy: strategy,
                                                       thinkMilliseconds: 0, name: "bot\(index)", seed: seed &+ UInt64(index + 1)))
        }
        seats = Array(repeating: nil, count: strategies.count)
        records = Array(repeating: [], count: strategies.count)
        finished = Array(repeating: nil, count: strategies.count)
    }

    /// Runs until every bot is done or `maxSteps` inputs were handled; returns the steps taken.
    mutating func run(maxSteps: Int) -> Int {
        inbox = bots.indices.map { ($0, .ready) }
        var steps = 0
        while steps < maxSteps {
            if inbox.isEmpty {
                // Nobody can move: time passes to whatever the match is waiting for, if anything.
                guard let deadline = match.nextDeadline else { break }
                now = max(now, deadline)
                broadcast(match.advance(to: now), id: nil)
                continue
            }
            let (index, input) = inbox.removeFirst()
            steps += 1
            for action in bots[index].handle(input) { perform(action, of: index) }
        }
        return steps
    }

    private mutating func perform(_ action: BotAction, of index: Int) {
        switch action {
        case .think(let seq): inbox.append((index, .thoughtElapsed(aboutState: seq)))
        case .report(let record): records[index].append(record)
        case .finish(let finish): finished[index] = finish
        case .send(let message):
            let id = RequestID.integer(nextID)
            nextID += 1
            inbox.append((index, .sent(message, id: id)))
            apply(message, id: id, from: index)
        }
    }

    private mutating func apply(_ message: ClientMessage, id: RequestID, from index: Int) {
        now = now.adding(milliseconds: millisecondsPerRequest)
        broadcast(match.advance(to: now), id: nil)
        do throws(MoveError) {
            switch message {
            case .join:
                let (seat, states) = try match.join(name: "bot\(index)", at: now)
                seats[index] = seat
                inbox.append((index, .message(.joined(Joined(room: "table", seat: seat, token: "t\(index)", rules: match.rules, id: id)))))
                broadcast(states, id: id)
            case .flip(let card):
                guard let seat = seats[index] else { return }
                broadcast(try match.flip(card: card, by: seat, at: now), id: id)
            case .rematch:
                guard let seat = seats[index] else { return }
                broadcast(try match.requestRematch(by: seat, at: now), id: id)
            case .leave:
                guard let seat = seats[index] else { return }
                seats[index] = nil
                broadcast(try match.leave(seat: seat, at: now), id: id)
            default:
                break
            }
        } catch {
            // A flip turned down because the game clock ran out just before it is no mistake of the bot's.
            if case .flip(let card) = message, match.phase == .playing {
                refusedFlips.append("bot\(index) flipped \(card): \(error)")
            }
            inbox.append((index, .message(.error(RequestError(.badCard, error.description, id: id)))))
        }
    }

    private mutating func broadcast(_ states: [PublicState], id: RequestID?) {
        for state in states {
            var message = StateMessage(room: "table", spectators: 0, state: state, rules: match.rules, id: id)
            if sendsBareEvents {
                message.state.event = StateEvent(kind: message.state.event.kind)
                message.id = nil
            }
            for index in bots.indices where seats[index] != nil {
                inbox.append((index, .message(.state(message))))
            }
        }
    }
}
