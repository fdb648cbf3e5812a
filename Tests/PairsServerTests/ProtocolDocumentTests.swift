import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PairsServer
import PairsTestSupport
import PairsWire
import Testing

/// One transcript of protocol.md: the `pairs serve` flags it was made with, and its lines in order.
struct Transcript: Sendable, CustomTestStringConvertible {
    /// `ann -> LINE` (sent) or `ann <- LINE` (received).
    struct Line: Sendable {
        let who: String
        let sent: Bool
        let text: String
    }

    let flags: [String]
    let lines: [Line]
    var testDescription: String { "the transcript of pairs serve \(flags.joined(separator: " "))" }
}

/// protocol.md, found from this source file.
private func protocolDocument() throws -> String {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("protocol.md")
    return try String(contentsOf: url, encoding: .utf8)
}

/// Every code block of protocol.md made of `who -> line` and `who <- line`, with the server flags named in
/// the paragraph before it ("a server started with `pairs serve ...`").
private func transcripts() throws -> [Transcript] {
    var found: [Transcript] = []
    var flags: [String] = []
    var block: [Transcript.Line]?
    for line in try protocolDocument().split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if let start = line.range(of: "`pairs serve ") {
            let rest = line[start.upperBound...]
            if let end = rest.firstIndex(of: "`") { flags = rest[..<end].split(separator: " ").map(String.init) }
        }
        if line.hasPrefix("```") {
            if let lines = block, !lines.isEmpty { found.append(Transcript(flags: flags, lines: lines)) }
            block = block == nil ? [] : nil
            continue
        }
        guard block != nil else { continue }
        for arrow in [" -> ", " <- "] {
            guard let range = line.range(of: arrow), !line[..<range.lowerBound].contains(" ") else { continue }
            block!.append(Transcript.Line(who: String(line[..<range.lowerBound]), sent: arrow == " -> ",
                                          text: String(line[range.upperBound...])))
            break
        }
    }
    return found
}

/// What is different in every run: resume tokens, the clocks' milliseconds, when games started and ended,
/// and the moments of their moves.
private func masked(_ line: String) -> String {
    line.replacingOccurrences(of: #""token":"[0-9a-f]{32}""#, with: #""token":"TOKEN""#, options: .regularExpression)
        .replacingOccurrences(of: #""(turn|game)_ms_left":[0-9]+"#, with: #""$1_ms_left":MS"#, options: .regularExpression)
        .replacingOccurrences(of: #""(started|ended)":"[0-9T:-]+Z""#, with: #""$1":"TIME""#, options: .regularExpression)
        .replacingOccurrences(of: #""ms":[0-9]+"#, with: #""ms":MS"#, options: .regularExpression)
}

/// A client of one transcript: a plain TCP connection, read line by line with a deadline.
private final class Terminal {
    private let fd: Int32
    private var buffered: [UInt8] = []
    private(set) var lines: [String] = []

    init(port: Int) throws {
        fd = try Loopback.connect(port: port)
    }

    deinit { close(fd) }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `count` lines have arrived in all, or fails after `seconds`.
    func waitForLines(_ count: Int, within seconds: Double) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while lines.count < count {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestTimeout(what: "line \(count) (got \(lines.count))") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let read = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { throw TestTimeout(what: "line \(count) (the server closed)") }
            buffered += chunk[..<read]
            while let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffered[..<newline], as: UTF8.self))
                buffered.removeSubrange(...newline)
            }
        }
    }
}

@Test("protocol.md's transcripts are exact: replaying what their clients sent against pairs serve gives every line they show", .ownThread,
      arguments: try transcripts())
func protocolTranscriptsAreExact(transcript: Transcript) throws {
    #expect(transcript.flags.contains("--seed"), "a transcript names the server it was made with")
    // A transcript that keeps games gets a file of its own, never the one it names.
    var flags = transcript.flags
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairs-transcript-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    if let data = flags.firstIndex(of: "--data"), data + 1 < flags.count {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        flags[data + 1] = directory.appendingPathComponent("pairs.db").path
    }
    let (server, port) = try PairsProcess.serve(flags)
    defer { server.terminate() }
    var terminals: [String: Terminal] = [:]
    var expected: [String: [String]] = [:]
    for line in transcript.lines {
        let terminal = try terminals[line.who] ?? Terminal(port: port)
        terminals[line.who] = terminal
        if line.sent {
            // Sent once everything every client shows before it has arrived, as the people typing saw it:
            // with several event loops, requests of two clients sent at once may be handled in either order.
            for (who, lines) in expected { try terminals[who]?.waitForLines(lines.count, within: 10) }
            terminal.send(line.text)
        } else {
            expected[line.who, default: []].append(line.text)
        }
    }
    for (who, lines) in expected {
        let terminal = try #require(terminals[who])
        try terminal.waitForLines(lines.count, within: 10)
        #expect(terminal.lines.count == lines.count, "\(who)")
        for (got, want) in zip(terminal.lines, lines) {
            #expect(masked(got) == masked(want), "\(who)")
        }
    }
}

@Test("protocol.md has its five transcripts: the classic session, a solo game against the clock, a three-card Matchismo turn, the history, and a tournament", .ownThread)
func protocolHasItsTranscripts() throws {
    let all = try transcripts()
    #expect(all.count == 5)
    #expect(all.allSatisfy { $0.lines.count > 10 })
}

/// One HTTP exchange of protocol.md (a code block marked `http`): the request's lines, then after an empty
/// line the response's head, an empty line, and its body's lines.
struct HTTPExample: Sendable, CustomTestStringConvertible {
    let request: [String]
    let responseHead: [String]
    let body: [String]
    var testDescription: String { "protocol.md's exchange for \(request.first ?? "")" }

    /// The request as sent, with CRLF line ends.
    var requestBytes: [UInt8] { Array((request.joined(separator: "\r\n") + "\r\n\r\n").utf8) }

    /// The response as the server must send it: CRLF in the head, and the body's lines each ending in LF.
    var responseBytes: [UInt8] {
        Array((responseHead.joined(separator: "\r\n") + "\r\n\r\n" + body.map { $0 + "\n" }.joined()).utf8)
    }
}

private func httpExamples() throws -> [HTTPExample] {
    var found: [HTTPExample] = []
    var block: [String]?
    for line in try protocolDocument().split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if line == "```http" { block = []; continue }
        guard var lines = block else { continue }
        if line == "```" {
            let parts = lines.split(separator: "", maxSplits: 2, omittingEmptySubsequences: false).map(Array.init)
            if parts.count == 3 { found.append(HTTPExample(request: parts[0], responseHead: parts[1], body: parts[2])) }
            block = nil
            continue
        }
        lines.append(line)
        block = lines
    }
    return found
}

/// The rows of the Markdown table in protocol.md whose header row is `header`, as their cells.
private func tableRows(headed header: String) throws -> [[String]] {
    let lines = try protocolDocument().split(separator: "\n").map(String.init)
    guard let start = lines.firstIndex(of: header) else { return [] }
    return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { row in
        row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

@Test("protocol.md's HTTP exchanges are exact: the server answers each request byte for byte as shown", .ownThread, arguments: try httpExamples())
func protocolHTTPExamplesAreExact(example: HTTPExample) throws {
    let server = try startServer()
    defer { server.stop() }
    let client = try TestClient(port: server.port)
    client.sendRaw(example.requestBytes)
    let answer = try client.readToEnd()
    #expect(String(decoding: answer, as: UTF8.self) == String(decoding: example.responseBytes, as: UTF8.self))
    #expect(!client.wasReset)
}

@Test("protocol.md has its HTTP exchanges, and its table of close codes is the server's, for every bye reason")
func protocolWebSocketTables() throws {
    #expect(try httpExamples().count == 2)
    let rows = try tableRows(headed: "| `bye` reason | close code |")
    var documented: [ByeReason: UInt16] = [:]
    for row in rows {
        guard let reason = ByeReason(rawValue: row[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))),
              let code = UInt16(row[1].prefix { $0.isNumber }) else {
            Issue.record("a row that is not a reason and a code: \(row)")
            continue
        }
        documented[reason] = code
    }
    #expect(Set(documented.keys) == Set(ByeReason.allCases))
    for reason in ByeReason.allCases {
        #expect(documented[reason] == reason.closeCode.rawValue, "\(reason)")
    }
}
