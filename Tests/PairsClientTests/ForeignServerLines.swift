import PairsServer
import PairsTestSupport
import PairsWire
import Synchronization

/// A real server behind a `TCPProxy` that rewrites its lines with `ForeignServerLines`: what a client sees
/// of another server that follows protocol.md. Stop it with `stop()` (use `defer`).
struct ForeignServer {
    let server: Server
    let proxy: TCPProxy
    let tally = ForeignServerLines.Tally()

    /// The port the clients connect to.
    var port: Int { proxy.port }

    init(pairs: Int) throws {
        server = try startServer(pairs: pairs, revealMilliseconds: 0, seed: nil)
        let tally = self.tally
        do {
            proxy = try TCPProxy(serverPort: server.port) { ForeignServerLines(tally: tally).rewrite }
        } catch {
            server.stop()
            throw error
        }
    }

    func stop() {
        proxy.close()
        server.stop()
    }
}

/// Turns this server's lines into those of another server that follows protocol.md as well, but no more
/// than it must, and speaks a later version: for `TCPProxy` to put between a client and the real server.
///
/// - Every state's event keeps only its `kind`: `seat`, `card`, `cards` and `id` are optional there.
/// - Every object gets a field no client knows, first or last: later versions may add fields.
/// - After every third state comes a copy of it with an event kind no client knows (and the `seq` after it:
///   the states behind it are renumbered, as a server with one more kind of change would number them).
/// - Before the greeting and after every fifth line comes a message of a type no client knows.
///
/// One per connection: it counts lines and renumbers states for that connection alone.
final class ForeignServerLines {
    /// What every rewriter did, for a test to check it really rewrote something.
    final class Tally: Sendable {
        private let counts = Mutex((states: 0, inventedStates: 0, inventedMessages: 0))

        var states: Int { counts.withLock { $0.states } }
        var inventedStates: Int { counts.withLock { $0.inventedStates } }
        var inventedMessages: Int { counts.withLock { $0.inventedMessages } }

        fileprivate func count(states: Int = 0, inventedStates: Int = 0, inventedMessages: Int = 0) {
            counts.withLock {
                $0.states += states
                $0.inventedStates += inventedStates
                $0.inventedMessages += inventedMessages
            }
        }
    }

    /// The optional fields of an event, all of which this rewriter drops.
    static let optionalEventFields = ["seat", "card", "cards", "id"]
    static let inventedKind = "x_juggle"
    static let inventedType = "x_news"

    private let tally: Tally
    private var lines = 0
    private var states = 0
    /// States invented so far: every later state's `seq` moves up by this many.
    private var seqShift = 0

    init(tally: Tally) {
        self.tally = tally
    }

    /// The bytes to send for one line of the real server (without its newline).
    func rewrite(_ line: [UInt8]) -> [UInt8] {
        lines += 1
        var output: [UInt8] = []
        if lines == 1 || lines % 5 == 0 {
            output += Self.line(["type": .string(Self.inventedType), "text": "a later protocol's news", "id": 0])
            tally.count(inventedMessages: 1)
        }
        guard case .object(var message)? = try? JSONParser.parse(line) else { return output + line + [UInt8(ascii: "\n")] }
        guard message["type"] == "state" else {
            return output + Self.line(Self.withUnknownField(message, first: lines % 2 == 0))
        }
        states += 1
        tally.count(states: 1)
        if case .object(var event)? = message["event"] {
            for field in Self.optionalEventFields { event[field] = nil }
            message["event"] = .object(Self.withUnknownField(event, first: states % 2 == 0))
        }
        message["seq"] = message["seq"]?.integerValue.map { .number(.integer($0 + Int64(seqShift))) }
        for field in ["cards", "players"] {
            guard case .array(let elements)? = message[field] else { continue }
            message[field] = .array(elements.map { element in
                guard case .object(let object) = element else { return element }
                return .object(Self.withUnknownField(object, first: false))
            })
        }
        if case .object(let series)? = message["series"] { message["series"] = .object(Self.withUnknownField(series, first: true)) }
        output += Self.line(Self.withUnknownField(message, first: states % 2 == 1))
        if states % 3 == 0 {
            seqShift += 1
            message["seq"] = message["seq"]?.integerValue.map { .number(.integer($0 + 1)) }
            message["event"] = ["kind": .string(Self.inventedKind), "x_juggler": 1]
            output += Self.line(message)
            tally.count(inventedStates: 1)
        }
        return output
    }

    /// `object` with one more member nobody knows, at its start or its end.
    private static func withUnknownField(_ object: JSONObject, first: Bool) -> JSONObject {
        let unknown = (key: "x_later", value: JSONValue.object(["version": 2, "tags": ["a", 1, .null]]))
        return JSONObject(first ? [unknown] + object.members : object.members + [unknown])
    }

    private static func line(_ object: JSONObject) -> [UInt8] {
        JSONWriter.encode(.object(object)) + [UInt8(ascii: "\n")]
    }
}
