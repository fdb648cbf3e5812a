import PairsLobby
import PairsRules
import PairsWire
#if canImport(Glibc)
import Glibc
#endif

// The cost of one `list` with 20,000 rooms (each a solo game with its player connected), in this build.
func nowNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
var configuration = LobbyConfiguration()
configuration.rateLimit = nil
let start = Moment(milliseconds: 1_000_000)
let lobby = Lobby(configuration: configuration, serverName: "bench", startedAt: start)
var ids = ConnectionIDIssuer()
func send(_ line: String, from id: ConnectionID) {
    Array(line.utf8).withUnsafeBytes { lobby.receive($0, from: id, at: start) }
}
var bytesOut = 0
func drain() { lobby.performActions { if case .send(let bytes, _, _) = $0 { bytesOut += bytes.count } } }
for _ in 0..<20_000 {
    let id = ids.issue()
    lobby.connect(id, peer: "127.0.0.1:1", at: start)
    send(#"{"type":"join","seats":1}"#, from: id)
    drain()
}
let asker = ids.issue()
lobby.connect(asker, peer: "127.0.0.1:2", at: start)
drain()
let rounds = Int(CommandLine.arguments.dropFirst().first ?? "200")!
var samples: [Double] = []
for _ in 0..<rounds {
    let before = nowNanoseconds()
    send("list", from: asker)
    drain()
    samples.append(Double(nowNanoseconds() - before) / 1e6)
}
samples.sort()
let median: Double = samples[rounds / 2]
let p90: Double = samples[rounds * 9 / 10]
let maximum: Double = samples[rounds - 1]
print("list over 20,000 rooms: median \(median) ms, p90 \(p90) ms, max \(maximum) ms (\(rounds) lists)")
