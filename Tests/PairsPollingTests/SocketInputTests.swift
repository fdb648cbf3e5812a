import PairsPolling
import PairsTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Two connected local stream sockets, blocking unless asked; the test closes them.
private func socketPair(nonBlocking: Bool) throws -> (ours: Int32, theirs: Int32) {
    var fds: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
    guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw SystemCallError(call: "socketpair", errno: errno) }
    return (fds[0], fds[1])
}

private func read(_ fd: Int32) -> (SocketInput, [UInt8]) {
    var bytes = [UInt8](repeating: 0, count: 64)
    let input = bytes.withUnsafeMutableBytes { SocketInput.read(from: fd, into: $0) }
    if case .bytes(let count) = input { return (input, Array(bytes[..<count])) }
    return (input, [])
}

@Test("a read says what it brought: the bytes, nothing yet, or the end of the stream", .ownThread, arguments: [false, true])
func readsWhatThereIs(nonBlocking: Bool) throws {
    let (ours, theirs) = try socketPair(nonBlocking: nonBlocking)
    defer { close(ours) }
    // Nothing yet: said at once, even on a blocking socket.
    #expect(read(ours).0 == .wouldBlock)
    _ = write(theirs, "flip 3\n", 7)
    let (input, bytes) = read(ours)
    #expect(input == .bytes(7))
    #expect(bytes == Array("flip 3\n".utf8))
    close(theirs)
    #expect(read(ours).0 == .endOfStream)
}

@Test("a peer that goes away with input unread breaks the socket, and the read says so with its errno", .ownThread)
func brokenSocketFailsTheRead() throws {
    let (ours, theirs) = try socketPair(nonBlocking: true)
    defer { close(ours) }
    _ = write(ours, "unread\n", 7)
    close(theirs)
    #expect(read(ours).0 == .failed(errno: ECONNRESET))
}
