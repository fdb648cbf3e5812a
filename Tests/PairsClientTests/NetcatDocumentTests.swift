import Foundation
import Testing
import PairsTestSupport

/// What each terminal shows in clients/netcat.md, in order: typed lines and received lines.
private func terminalTranscripts() throws -> [String: [String]] {
    let document = try String(contentsOf: Tools.clientsDirectory.appendingPathComponent("netcat.md"), encoding: .utf8)
    var transcripts: [String: [String]] = [:]
    var current: String?
    var inBlock = false
    for line in document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if line.hasSuffix("'s terminal:") {
            current = String(line.dropLast("'s terminal:".count))
        } else if line == "```" {
            inBlock.toggle()
            if !inBlock { current = nil }
        } else if inBlock, let who = current {
            transcripts[who, default: []].append(line)
        }
    }
    return transcripts
}

/// The order in which ann and bob typed in netcat.md: within a terminal the document gives the order,
/// but which terminal goes first is only in the story, so it is spelled out here.
private let typingOrder: [(who: String, line: String)] = [
    ("ann", "$ nc localhost 7777"), ("ann", "name ann"), ("ann", "join kitchen"),
    ("bob", "$ nc localhost 7777"), ("bob", "name bob"), ("bob", "join kitchen"),
    ("ann", "flip 0"), ("ann", "flip 1"), ("bob", "2"), ("bob", "2"), ("bob", "3"),
    ("ann", "0"), ("ann", "3"), ("ann", "4"), ("ann", "5"),
    ("bob", "flip 9"), ("bob", "1"), ("bob", "4"), ("bob", "2"), ("bob", "5"),
    ("ann", "say good game"), ("bob", "rematch"), ("ann", "quit"), ("bob", "leave"), ("bob", "quit"),
]

/// Resume tokens are random, so they are compared by shape only.
private func maskingTokens(_ line: String) -> String {
    line.replacingOccurrences(of: #""token":"[0-9a-f]{32}""#, with: #""token":"TOKEN""#, options: .regularExpression)
}

// Three reveals of 2.5 s each, and a suite that keeps both cores busy: two minutes is the bound.
@Test("clients/netcat.md is exact: replaying its typed lines with nc against pairs serve gives its every line", .ownThread,
      Tools.needs("nc"), .timeLimit(.minutes(2)))
func netcatDocumentIsExact() async throws {
    let nc = try Tools.external("nc")
    let pairs = try Tools.pairs()
    let transcripts = try terminalTranscripts()
    #expect(Set(transcripts.keys) == ["ann", "bob"])
    let typed = transcripts.mapValues { $0.filter { !$0.hasPrefix("{") } }
    for who in ["ann", "bob"] {
        #expect(typed[who] == typingOrder.filter { $0.who == who }.map(\.line), "the order above is out of date with netcat.md")
    }

    // The document's server, with one change: mismatched cards stay up for 2.5 s rather than 1 s. Bob types
    // `2` while they are still up and is told to wait; on a machine busy with the rest of the suite, a
    // second can pass before his line is sent even from a thread of its own (a line that is in the server's
    // socket when the reveal ends is read before the reveal is judged over). The reveal time appears in no
    // line, so the lines are the same.
    let server = try Subprocess(pairs, ["serve", "--host", "127.0.0.1", "--port", "0", "--data", "none", "--seed", "3", "--pairs", "3",
                                        "--turn-seconds", "0", "--reveal-ms", "2500", "--log-level", "error"])
    defer { server.terminate() }
    let listening = try await server.waitForLine("the server to listen") { $0.hasPrefix("pairs listening on ") }.line
    let port = try #require(listening.split(separator: ":").last.map(String.init))

    // The replay blocks, with no await inside, on the test's own thread (`.ownThread`): bob's `2` must follow
    // ann's mismatch within the reveal, and an await between them could wait seconds for a pool thread that
    // other suites' blocking tests hold.
    let terminals = try replay(typingOrder, of: transcripts, with: nc, port: port)
    defer { for terminal in terminals.values { terminal.terminate() } }
    for who in ["ann", "bob"] {
        let expected = transcripts[who]!.filter { $0.hasPrefix("{") }
        let terminal = terminals[who]!
        try await waitUntil("\(who)'s last lines") { terminal.lines.count >= expected.count }
        let actual = terminal.lines
        #expect(actual.count == expected.count)
        for (got, want) in zip(actual, expected) {
            #expect(maskingTokens(got) == maskingTokens(want))
        }
    }
}

/// The typing order names a line that the terminal's transcript in netcat.md does not have (any more).
private struct OutOfDate: Error, CustomStringConvertible {
    var line: String, terminal: String
    var description: String { "\(terminal)'s terminal in netcat.md has no typed line \(line.debugDescription) where the order expects it" }
}

/// Types `order`'s lines into one `nc` per terminal, each line once everything its terminal shows before it
/// has arrived; returns the terminals, still connected. Blocks the calling thread.
private func replay(_ order: [(who: String, line: String)], of transcripts: [String: [String]],
                    with nc: URL, port: String) throws -> [String: Subprocess] {
    var terminals: [String: Subprocess] = [:]
    do {
        /// How far into its transcript each terminal is: typed lines count as soon as they are typed.
        var position: [String: Int] = ["ann": 0, "bob": 0]
        var received: [String: Int] = ["ann": 0, "bob": 0]
        for (who, line) in order {
            let transcript = transcripts[who]!
            // Wait until everything this terminal shows before the typed line has arrived.
            guard let typedIndex = transcript[position[who]!...].firstIndex(of: line) else {
                throw OutOfDate(line: line, terminal: who)
            }
            let expectedBefore = transcript[position[who]!..<typedIndex].count
            if expectedBefore > 0, let terminal = terminals[who] {
                let target = received[who]! + expectedBefore
                try blockingWaitUntil("\(who) to receive \(expectedBefore) lines before typing \(line)") {
                    terminal.lines.count >= target
                }
            }
            received[who]! += expectedBefore
            position[who] = typedIndex + 1
            if line.hasPrefix("$ nc") {
                terminals[who] = try Subprocess(nc, ["127.0.0.1", port])
            } else {
                terminals[who]!.write(line + "\n")
            }
        }
        return terminals
    } catch {
        for terminal in terminals.values { terminal.terminate() }
        throw error
    }
}
