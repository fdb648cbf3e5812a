import PairsRules
import PairsWire

/// The server's answers to the lobby's questions in words: the rooms (`/list`), who is where (`/who`) and
/// the server's counters (`/stats`).
public enum LobbyWords {
    /// What `/who` and `/list` ask the server for, so the `rooms` answer can be told the way it was asked.
    public enum RoomQuestion: Sendable, Hashable {
        /// `/list`: every room, its players and rules.
        case rooms
        /// `/who` in the lobby: the people in the rooms.
        case people
    }

    /// "kitchen · playing · ann, bob · 8 pairs · 2 watching", one line a room, under a line that counts them.
    public static func rooms(_ list: RoomList) -> [String] {
        guard !list.rooms.isEmpty else { return ["no rooms yet: /join ROOM makes one"] }
        var lines = [list.total > list.rooms.count ? "\(list.total) rooms, the first \(list.rooms.count):" : "\(count(list.total, "room")):"]
        for room in list.rooms {
            var parts = [room.name, phase(room.phase)]
            parts.append(room.players.map { $0 ?? "(free seat)" }.joined(separator: ", "))
            let setSize = room.rules?.variant.setSize ?? .pair
            parts.append(count(room.pairs, setSize == .pair ? "pair" : "triple"))
            if let rules = room.rules, !RuleWords.summary(of: rules.variant).isEmpty { parts.append(RuleWords.summary(of: rules.variant)) }
            if room.spectators > 0 { parts.append("\(room.spectators) watching") }
            lines.append(parts.joined(separator: " · "))
        }
        return lines
    }

    /// "ann and bob in kitchen (playing)", one line a room with people in it.
    public static func people(_ list: RoomList) -> [String] {
        let rooms = list.rooms.filter { room in room.players.contains { $0 != nil } || room.spectators > 0 }
        guard !rooms.isEmpty else { return ["nobody is in a room: /join ROOM to start one"] }
        var lines = rooms.map { room in
            let names = room.players.compactMap { $0 }
            let watching = room.spectators > 0 ? ", \(room.spectators) watching" : ""
            return "\(names.isEmpty ? "nobody" : names.joined(separator: " and ")) in \(room.name) (\(phase(room.phase))\(watching))"
        }
        if list.total > list.rooms.count { lines.append("and \(count(list.total - list.rooms.count, "room")) more") }
        return lines
    }

    /// "in room kitchen: ann¹ (you) and bob² (away); 1 watching": who is in the player's own room.
    public static func people(in state: WireState, room: String, spectators: Int, me: Seat?) -> [String] {
        let names = Seat.allCases.filter { state.players.indices.contains($0.index) }.map { seat -> String in
            guard let player = state.players[seat.index] else { return "a free seat" }
            return player.name + TextStyle.mark(of: seat) + (seat == me ? " (you)" : "") + (player.connected ? "" : " (away)")
        }
        let watching = spectators > 0 ? "; \(spectators) watching" + (me == nil ? ", you among them" : "") : ""
        return ["in room \(room): \(names.joined(separator: " and "))\(watching)"]
    }

    /// "server: 12 connections, 5 rooms, 2 games in play, 40 finished, 1,234 flips, up 1:02:03".
    public static func statistics(_ stats: ServerStatistics) -> [String] {
        let hours = stats.uptimeSeconds / 3600
        let minutes = stats.uptimeSeconds / 60 % 60
        let seconds = stats.uptimeSeconds % 60
        let uptime = "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(seconds < 10 ? "0" : "")\(seconds)"
        return ["server: \(count(stats.connections, "connection")), \(count(stats.rooms, "room")), "
            + "\(count(stats.gamesActive, "game")) in play, \(stats.gamesFinished) finished, \(count(stats.flips, "flip")), up \(uptime)"]
    }

    private static func phase(_ phase: Phase) -> String {
        switch phase {
        case .waiting: "waiting"
        case .playing, .reveal, .peek: "playing"
        case .over: "game over"
        }
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
