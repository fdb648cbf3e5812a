import PairsWire

/// Rewrites the first `joined` a server sends on a connection into a `redirect` to another server, as an
/// instance of a cluster that does not own the room answers (protocol.md, "Several instances"). The rest of
/// the first server's lines come through untouched, as they would: the client must ignore them.
public final class RedirectingLines: @unchecked Sendable {
    // @unchecked: one per proxied connection, called on that connection's thread only.
    private let target: Int
    private var hasRedirected = false

    public init(to port: Int) {
        target = port
    }

    public func rewrite(_ line: [UInt8]) -> [UInt8] {
        guard !hasRedirected, case .joined(let joined)? = try? ServerMessageDecoder.decode(line: line) else { return line + [UInt8(ascii: "\n")] }
        hasRedirected = true
        return ServerMessageEncoder.encode(.redirect(Redirect(host: "127.0.0.1", port: target, request: .join, room: joined.room, id: joined.id)))
    }
}

extension TCPProxy {
    /// A proxy in front of the server on `serverPort` that turns the first `joined` of every connection into a
    /// `redirect` to the server on `target`, as an instance of a cluster that does not own the room answers: the
    /// two-server setup of the tests of clients that follow redirects (`pairs bot`, `pairs load`).
    public static func redirecting(from serverPort: Int, to target: Int) throws -> TCPProxy {
        try TCPProxy(serverPort: serverPort) { let lines = RedirectingLines(to: target); return { lines.rewrite($0) } }
    }
}
