import PairsRules

/// A message from the server to a client. Each is one JSON object on one line.
public enum ServerMessage: Sendable, Hashable {
    /// Sent on connect, and in answer to `hello`.
    case welcome(Welcome)
    /// The connection took a seat (or, with no seat, started watching).
    case joined(Joined)
    /// A room's public state after a change: the same bytes go to everyone in the room.
    case state(StateMessage)
    /// A request was refused; nothing changed.
    case error(RequestError)
    /// Someone in the room said something.
    case chat(ChatMessage)
    /// The answer to `list`.
    case rooms(RoomList)
    /// The answer to `ping`.
    case pong(id: RequestID?)
    /// The answer to `stats`.
    case stats(ServerStatistics)
    /// The connection left its room and is back in the lobby.
    case left(room: String, id: RequestID?)
    /// The answer to `help`: one line per command.
    case help(lines: [String], id: RequestID?)
    /// The server is closing the connection, and why.
    case bye(ByeReason)
    /// The answer to `history`, or one line of it.
    case history(HistoryPage)
    /// The answer to `replay`: its first line.
    case replay(GameReplay)
    /// More moves of a `replay`.
    case replayMoves(ReplayMoves)
    /// The answer to `leaderboard`, or one line of it.
    case leaderboard(Leaderboard)
    /// The answer to `profile`, or one line of it.
    case profile(PlayerProfile)
    /// A tournament's status, standings and games, to its entrants and watchers whenever it changes, and
    /// in answer to the requests about it; or one line of it.
    case tournament(TournamentView)
    /// The answer to `tournament_list`, or one line of it.
    case tournaments(TournamentList)
    /// Repeat the request on another instance of the cluster (to a client that follows redirects).
    case redirect(Redirect)
}

/// The greeting: what the server speaks and what to type first.
public struct Welcome: Sendable, Hashable {
    public var protocolVersion: Int
    public var server: String
    /// An opaque name for this connection, for logs and bug reports.
    public var session: String
    public var hint: String
    /// The player's name, once a `hello` set it.
    public var name: String?
    public var id: RequestID?

    public init(protocolVersion: Int = WireProtocol.version, server: String, session: String, hint: String,
                name: String? = nil, id: RequestID? = nil) {
        self.protocolVersion = protocolVersion
        self.server = server
        self.session = session
        self.hint = hint
        self.name = name
        self.id = id
    }
}

/// A seat taken (or watching begun) in a room.
public struct Joined: Sendable, Hashable {
    public var room: String
    /// Nil for a spectator.
    public var seat: Seat?
    /// The secret that resumes this seat after a dropped connection; sent to its owner only.
    public var token: String?
    /// The room's rules. Sent only when they are not the classic game's (`Variant.classic`), so a client
    /// that never asks for variants sees what it always saw; nil when absent.
    public var rules: RuleSet?
    public var id: RequestID?

    public init(room: String, seat: Seat?, token: String?, rules: RuleSet? = nil, id: RequestID? = nil) {
        self.room = room
        self.seat = seat
        self.token = token
        self.rules = rules?.ifSent
        self.id = id
    }
}

/// A room's public state, with what only the room knows (its name and spectators) and the id of the
/// request that caused the change, if a request did.
public struct StateMessage: Sendable, Hashable {
    public var room: String
    public var spectators: Int
    public var state: WireState
    /// The room's rules, sent (like `Joined.rules`) only when they are not the classic game's.
    public var rules: RuleSet?
    public var id: RequestID?

    public init(room: String, spectators: Int, state: WireState, rules: RuleSet? = nil, id: RequestID? = nil) {
        self.room = room
        self.spectators = spectators
        self.state = state
        self.rules = rules?.ifSent
        self.id = id
    }

    /// The message of a state the rules made in a room of `rules`.
    public init(room: String, spectators: Int, state: PublicState, rules: RuleSet, id: RequestID? = nil) {
        self.init(room: room, spectators: spectators, state: WireState(state, rules: rules), rules: rules, id: id)
    }
}

/// A chat line. `seat` is nil when a spectator said it.
public struct ChatMessage: Sendable, Hashable {
    public var room: String
    public var from: String
    public var seat: Seat?
    public var text: String
    public var id: RequestID?

    public init(room: String, from: String, seat: Seat?, text: String, id: RequestID? = nil) {
        self.room = room
        self.from = from
        self.seat = seat
        self.text = text
        self.id = id
    }
}

/// One room in a `rooms` answer.
public struct RoomSummary: Sendable, Hashable {
    public var name: String
    public var phase: Phase
    /// Player names indexed by seat; nil for an empty seat.
    public var players: [String?]
    public var spectators: Int
    public var pairs: Int
    /// The room's rules, sent only when they are not the classic game's.
    public var rules: RuleSet?

    public init(name: String, phase: Phase, players: [String?], spectators: Int, pairs: Int, rules: RuleSet? = nil) {
        self.name = name
        self.phase = phase
        self.players = players
        self.spectators = spectators
        self.pairs = pairs
        self.rules = rules?.ifSent
    }
}

/// The answer to `list`: a page of rooms (those with a free seat first, then by name), the total, and
/// where the next page starts when there is one.
public struct RoomList: Sendable, Hashable {
    /// Rooms a page shows when the request does not say: a list is for a person choosing a room.
    public static let maxRooms = ListLimits.defaultLimit

    public var rooms: [RoomSummary]
    public var total: Int
    /// The cursor to send as `after` for the next page; nil on the last one.
    public var next: RoomListCursor?
    public var id: RequestID?

    public init(rooms: [RoomSummary], total: Int, next: RoomListCursor? = nil, id: RequestID? = nil) {
        self.rooms = rooms
        self.total = total
        self.next = next
        self.id = id
    }

    /// The longest prefix of `candidates` whose answer fits the protocol's line limit: names may take up to
    /// 256 bytes each, so a page of long names may not fit one line. Found by halving, so a page costs a
    /// few encodings, not one per room left out.
    public static func fitting(_ candidates: [RoomSummary], total: Int, next: RoomListCursor? = nil, id: RequestID?) -> RoomList {
        func fits(_ count: Int) -> Bool {
            let list = RoomList(rooms: Array(candidates.prefix(count)), total: total, next: next, id: id)
            return ServerMessageEncoder.encode(.rooms(list)).count <= LineFramer.maxLineBytes
        }
        var low = 0, high = candidates.count
        if !fits(high) {
            // The longest count that fits is in low..<high.
            while high - low > 1 {
                let middle = (low + high) / 2
                if fits(middle) { low = middle } else { high = middle }
            }
            high = low
        }
        return RoomList(rooms: Array(candidates.prefix(high)), total: total, next: next, id: id)
    }
}

/// The server's counters, as `stats` reports them.
public struct ServerStatistics: Sendable, Hashable {
    public var connections = 0
    public var rooms = 0
    public var gamesActive = 0
    public var gamesFinished = 0
    public var flips = 0
    public var messagesIn = 0
    public var messagesOut = 0
    public var bytesIn = 0
    public var bytesOut = 0
    public var uptimeSeconds = 0
    /// Finished games in the server's history (0 when it keeps none).
    public var gamesStored = 0
    /// Failures of the history's storage since the server started (a full disk...): games lost.
    public var storageErrors = 0
    /// Errors sent since the server started, by code (only codes sent at least once).
    public var errors: [ErrorCode: Int] = [:]
    /// `gamesFinished` by the variant's label (`VariantLabel`: at most 16 of them).
    public var gamesFinishedByVariant: [String: Int] = [:]
    /// How long answers took, since the server started (the transport's to fill in).
    public var latency = AnswerLatency()
    /// How long finished games waited to be committed by the store, from the end of the game to the commit
    /// (each game its own sample); empty on a server that keeps nothing.
    public var storeLatency = AnswerLatency()
    /// Finished games waiting to be committed now.
    public var storeQueue = 0
    /// Finished games deleted from the history by its retention policy since the server started.
    public var gamesPruned = 0
    /// Whether the history's storage is keeping games now; nil from a server that does not say.
    public var storage: StorageHealth?
    /// One entry per event loop, from a server running more than one; nil from a server with one loop.
    public var loops: [LoopCounters]?
    public var id: RequestID?

    public init() {}
}

/// One event loop's part of `stats`'s `loops`: so an operator sees how connections and play are spread.
/// The lobby shard on that loop counts it (`Lobby.loopStatistics`).
public struct LoopCounters: Sendable, Hashable {
    /// Connections the loop's lobby shard knows.
    public var connections: Int
    /// Rooms on the loop.
    public var rooms: Int
    /// Cards flipped in the loop's rooms since the server started.
    public var flips: Int
    /// Connections the loop handed to another loop since the server started (a join, watch or resume of a
    /// room there): 0 in steady play, which keeps every flip on its room's loop.
    public var handOffs: Int

    public init(connections: Int = 0, rooms: Int = 0, flips: Int = 0, handOffs: Int = 0) {
        self.connections = connections
        self.rooms = rooms
        self.flips = flips
        self.handOffs = handOffs
    }
}

/// Whether a server's history is keeping games, as `stats` says in `storage`.
public enum StorageHealth: String, Sendable, Hashable, CaseIterable {
    /// Games are being kept.
    case ok
    /// The last batch of games could not be written (a full or broken disk): games end, but are lost, until
    /// a batch is written again.
    case failing
    /// The server keeps no history (`pairs serve --data none`).
    case none
}
