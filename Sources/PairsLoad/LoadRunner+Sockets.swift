#if canImport(Glibc)
import Glibc
#endif
import PairsPolling
import PairsRules
import PairsWeb
import PairsWire

/// Sockets: opening them a few hundred at a time, reading lines or WebSocket frames, writing requests, closing.
extension LoadRunner {
    /// Opens connections while fewer than `maxConnectsInFlight` connects are pending.
    func openConnections() {
        while phase == .running, connectsInFlight < LoadConfiguration.maxConnectsInFlight, nextToOpen < connections.count {
            let connection = connections[nextToOpen]
            nextToOpen += 1
            guard connection.status == .idle, games[connection.game].status != .abandoned else {
                if connection.status == .idle { connection.status = .closed }
                continue
            }
            open(connection)
        }
    }

    private func open(_ connection: LoadConnection) {
        let fd: Int32
        switch SocketConnector.startConnecting(to: connection.redirectedTo ?? addresses[connection.index % addresses.count]) {
        case .success(let started):
            fd = started
        case .failure(let error):
            connection.status = .closed
            failBeforeJoining(connection, reason: Self.reason(error))
            return
        }
        connection.fd = fd
        openSockets += 1
        guard poller.add(fd, token: UInt64(connection.index), interest: EventPoller.readable | EventPoller.writable) else {
            let reason = Self.errnoName(errno)
            closeSocket(connection)
            failBeforeJoining(connection, reason: reason)
            return
        }
        connection.status = .connecting
        connectsInFlight += 1
    }

    /// One socket's events from the poller.
    func handle(_ token: Int, events: UInt32) {
        let connection = connections[token]
        switch connection.status {
        case .connecting:
            completeConnect(connection)
            // Bytes may already be there (the welcome): fall through to read them.
            if connection.status == .open || connection.status == .upgrading, events & EventPoller.readable != 0 {
                readAvailable(connection)
            }
        case .upgrading, .open, .leaving:
            if events & EventPoller.writable != 0 { flushOutput(connection) }
            if events & (EventPoller.readable | EventPoller.failed) != 0, connection.fd >= 0 { readAvailable(connection) }
        case .idle, .closed:
            break
        }
    }

    private func completeConnect(_ connection: LoadConnection) {
        connectsInFlight -= 1
        connection.status = .open
        let error = SocketConnector.pendingError(of: connection.fd)
        if error != 0 {
            closeSocket(connection)
            failBeforeJoining(connection, reason: Self.errnoName(error))
        } else {
            statistics.connectionsOpened += 1
            _ = poller.modify(connection.fd, token: UInt64(connection.index), interest: EventPoller.readable)
            if phase == .running, games[connection.game].status != .abandoned {
                switch configuration.transport {
                case .lines: sendJoin(connection)
                case .webSocket: upgrade(connection)
                }
            } else {
                beginLeaving(connection, now: batchTime)
            }
        }
        openConnections()
    }

    /// The join went to an instance of a cluster that does not own the room: the connection closes and
    /// opens again to the one named, where the join is sent anew.
    private func follow(_ redirect: Redirect, on connection: LoadConnection) {
        guard phase == .running, connection.status == .open, connection.seat == nil, redirect.id == .integer(connection.joinID) else { return }
        connection.redirects += 1
        guard connection.redirects <= LoadConnection.maxRedirects,
              let target = try? ServerAddress.resolve(host: redirect.host, port: redirect.port) else {
            closeSocket(connection)
            return failBeforeJoining(connection, reason: "redirect to \(redirect.host):\(redirect.port) not followed")
        }
        closeSocket(connection)
        connection.redirectedTo = target
        connection.framing = .lines(LineFramer())
        connection.status = .idle
        open(connection)
    }

    /// Sends the WebSocket handshake, as a browser opening `/ws` does; the join goes once its 101 is read.
    private func upgrade(_ connection: LoadConnection) {
        let nonce = (0..<(WebSocketClientHandshake.nonceBytes / 8)).flatMap { _ in withUnsafeBytes(of: maskingKeys.next(), Array.init) }
        let handshake = WebSocketClientHandshake(nonce: nonce)
        connection.status = .upgrading
        connection.framing = .handshake(handshake)
        write(handshake.request(host: SocketAddress.describe(host: configuration.host, port: configuration.port)), on: connection)
    }

    /// Reads what the socket has (one read: the poller reports it again if there is more) and handles every
    /// complete message.
    private func readAvailable(_ connection: LoadConnection) {
        switch SocketInput.read(from: connection.fd, into: readBuffer) {
        case .bytes(let count):
            statistics.bytesReceived += count
            receive(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]), from: connection)
        case .wouldBlock:
            break
        case .endOfStream:
            connectionLost(connection, reason: "closed")
        case .failed(let code):
            connectionLost(connection, reason: Self.errnoName(code))
        }
    }

    /// Hands what the server sent to the connection's framing, and every message it completes to
    /// `handleLine`. The framing is taken out of the connection while it works, so the enum's payload is not
    /// copied per read, and handling a message can close the connection meanwhile.
    private func receive(_ bytes: UnsafeRawBufferPointer, from connection: LoadConnection) {
        switch connection.framing {
        case .lines(var framer):
            connection.framing = .lines(LineFramer())
            framer.append(bytes) { frame in
                switch frame {
                case .line(let line): handleLine(line, from: connection)
                case .tooLong: statistics.unreadableLines += 1
                }
            }
            connection.framing = .lines(framer)
        case .handshake(var handshake):
            switch handshake.read(bytes) {
            case .needMoreBytes:
                connection.framing = .handshake(handshake)
            case .accepted(let consumed):
                connection.framing = .webSocket(WebSocketFrameDecoder(maxMessageBytes: LineFramer.maxLineBytes, from: .server))
                connection.status = .open
                if phase == .running, games[connection.game].status != .abandoned {
                    sendJoin(connection)
                } else {
                    beginLeaving(connection, now: batchTime)
                }
                // The welcome may have come in the same read as the 101.
                if consumed < bytes.count { receive(UnsafeRawBufferPointer(rebasing: bytes[consumed...]), from: connection) }
            case .refused(let why):
                closeSocket(connection)
                failBeforeJoining(connection, reason: "WebSocket handshake: \(why)")
            }
        case .webSocket(var decoder):
            connection.framing = .lines(LineFramer())
            decoder.append(bytes) { event in
                switch event {
                case .text(let message): handleLine(message, from: connection)
                case .ping(let payload): sendFrame(.pong, payload, on: connection)
                case .pong: break
                // The server says `bye` first, whose reason the end of the stream reports; the close is answered.
                case .close: sendFrame(.close, UnsafeRawBufferPointer(start: nil, count: 0), on: connection)
                case .failure(let error): connectionLost(connection, reason: "WebSocket: \(error)")
                }
            }
            connection.framing = .webSocket(decoder)
        }
    }

    /// One line from the server.
    private func handleLine(_ line: UnsafeRawBufferPointer, from connection: LoadConnection) {
        guard connection.status == .open || connection.status == .leaving else { return }
        if StateScanner.looksLikeState(line) {
            // Only seat 0's copy of a room's states is read: seat 1 receives the very same lines. In a
            // tournament each session is a game of its own, and reads its own.
            guard phase == .running, connection.status == .open, connection.seat == .first || configuration.tournament != nil else { return }
            let game = games[connection.game]
            guard game.status == .playing || game.status == .joining else { return }
            if !scanner.scan(line, into: &game.state) {
                guard case .state(let message)? = try? ServerMessageDecoder.decode(line: line),
                      game.state.assign(message, faces: &scanner.faces)
                else {
                    statistics.unreadableLines += 1
                    return
                }
            }
            receivedState(game, now: batchTime)
            return
        }
        // A tournament's pushes (standings of up to 1024 rows) are counted in the bytes, not read: the load
        // bots need only their `joined` and states, and decoding every push would measure the client.
        if Self.isTournamentMessage(line) {
            statistics.tournamentLines += 1
            statistics.tournamentBytes += line.count + 1
            // Its end ends the run: every game of it has been played, and nothing more will be.
            if phase == .running, Self.saysFinished(line) { finish() }
            return
        }
        let message: ServerMessage
        do {
            message = try ServerMessageDecoder.decode(line: line)
        } catch {
            statistics.unreadableLines += 1
            return
        }
        switch message {
        case .joined(let joined):
            receivedJoined(joined, on: connection)
        case .error(let error):
            // Once a connection leaves, refusals of requests that crossed its `leave` (a flip reaching a
            // game the leave just forfeited) are not the server's errors; only the leave's own count.
            let answersLeave = connection.leaveID != 0 && error.id == .integer(connection.leaveID)
            if (phase == .running && connection.status == .open) || answersLeave {
                statistics.count(error: error.code.rawValue, at: batchTime)
            }
            receivedError(error, on: connection, now: batchTime)
        case .left:
            if connection.status == .leaving { closeSocket(connection) }
        case .bye(let reason):
            // The server closes right after; the read that sees it reports this reason.
            connection.byeReason = reason
        case .state(let message):
            // A state line the prefix test missed (keys in another order): handled as the scanner would.
            guard phase == .running, connection.status == .open, connection.seat == .first || configuration.tournament != nil else { return }
            let game = games[connection.game]
            guard game.status == .playing || game.status == .joining,
                  game.state.assign(message, faces: &scanner.faces) else { return }
            receivedState(game, now: batchTime)
        case .welcome(let welcome):
            // The server names its version in every welcome; the first is kept for the report.
            if serverVersion == nil { serverVersion = welcome.server }
        case .redirect(let redirect):
            follow(redirect, on: connection)
        case .chat, .rooms, .pong, .stats, .help, .history, .replay, .replayMoves, .leaderboard, .profile, .tournament, .tournaments:
            break
        }
    }

    /// The first bytes of a `tournament` message as the server writes it (its `type` first).
    private static let tournamentPrefix = Array(#"{"type":"tournament","#.utf8)

    static func isTournamentMessage(_ line: UnsafeRawBufferPointer) -> Bool {
        line.count >= tournamentPrefix.count && zip(line, tournamentPrefix).allSatisfy { $0 == $1 }
    }

    private static let finishedStatus = Array(#","status":"finished","#.utf8)
    /// Where `status` is at the latest in a `tournament` line: after `type`, `name` (20 characters at most)
    /// and `format`, which no quote can hide, since a name is letters, digits, - and _.
    private static let statusWithinBytes = 96

    /// Whether a `tournament` line says its tournament is finished, read from its first bytes alone.
    static func saysFinished(_ line: UnsafeRawBufferPointer) -> Bool {
        let head = Array(line.prefix(statusWithinBytes))
        guard head.count >= finishedStatus.count else { return false }
        return (0...(head.count - finishedStatus.count)).contains { start in
            head[start..<(start + finishedStatus.count)].elementsEqual(finishedStatus)
        }
    }

    // MARK: Writing

    /// Sends requests, whole lines: as they are, or over a WebSocket as one masked text frame each.
    func send(_ lines: UnsafeRawBufferPointer, on connection: LoadConnection) {
        guard configuration.transport == .webSocket else { return write(lines, on: connection) }
        frameBuffer.removeAll(keepingCapacity: true)
        WebSocketFrameEncoder.appendMaskedTextFrames(ofLines: lines, keys: &maskingKeys, to: &frameBuffer)
        frameBuffer.withUnsafeBytes { write($0, on: connection) }
    }

    func send(_ lines: [UInt8], on connection: LoadConnection) {
        guard configuration.transport == .webSocket else { return write(lines, on: connection) }
        lines.withUnsafeBytes { send($0, on: connection) }
    }

    /// Sends a WebSocket control frame, masked as a client's must be.
    private func sendFrame(_ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer, on connection: LoadConnection) {
        frameBuffer.removeAll(keepingCapacity: true)
        WebSocketFrameEncoder.appendMaskedFrame(opcode, payload: payload, key: UInt32(truncatingIfNeeded: maskingKeys.next()), to: &frameBuffer)
        frameBuffer.withUnsafeBytes { write($0, on: connection) }
    }

    /// Writes `bytes`, or queues them behind what is already waiting. A broken socket is not handled here:
    /// the poller reports it, and the read that follows says why.
    private func write(_ bytes: UnsafeRawBufferPointer, on connection: LoadConnection) {
        guard connection.fd >= 0 else { return }
        _ = connection.output.write(bytes, to: connection.fd)
        watchWrites(on: connection)
    }

    private func write(_ bytes: [UInt8], on connection: LoadConnection) {
        guard connection.fd >= 0 else { return }
        _ = connection.output.write(bytes, to: connection.fd)
        watchWrites(on: connection)
    }

    private func flushOutput(_ connection: LoadConnection) {
        guard !connection.output.isEmpty else { return }
        _ = connection.output.flush(to: connection.fd, maxBytes: Self.maxWriteBytesPerEvent)
        watchWrites(on: connection)
    }

    /// Has the poller report room to write exactly while bytes are waiting: an empty socket buffer is
    /// writable nearly always, and would be reported in every batch.
    private func watchWrites(on connection: LoadConnection) {
        let wanted = !connection.output.isEmpty
        guard wanted != connection.watchingWrites else { return }
        connection.watchingWrites = wanted
        _ = poller.modify(connection.fd, token: UInt64(connection.index),
                          interest: wanted ? EventPoller.readable | EventPoller.writable : EventPoller.readable)
    }

    /// Writes `{"type":"flip","card":C,"id":I}` by hand into one reused buffer: flips are nearly every
    /// request of a run.
    func sendFlip(card: Int, id: Int64, on connection: LoadConnection) {
        flipLine.removeAll(keepingCapacity: true)
        flipLine.append(contentsOf: #"{"type":"flip","card":"#.utf8)
        DecimalDigits.append(Int64(card), to: &flipLine)
        flipLine.append(contentsOf: #","id":"#.utf8)
        DecimalDigits.append(id, to: &flipLine)
        flipLine.append(contentsOf: "}\n".utf8)
        flipLine.withUnsafeBytes { send($0, on: connection) }
    }

    // MARK: Closing

    /// Takes the socket out of the epoll set and closes it.
    func closeSocket(_ connection: LoadConnection) {
        if connection.status == .connecting { connectsInFlight -= 1 }
        if connection.fd >= 0 {
            poller.remove(connection.fd)
            close(connection.fd)
            connection.fd = -1
            openSockets -= 1
        }
        connection.status = .closed
        connection.output = OutputQueue()
        connection.watchingWrites = false
        if phase == .ending { checkDrained() }
    }

    /// The server closed the connection, or the socket failed.
    func connectionLost(_ connection: LoadConnection, reason: String) {
        let wasLeaving = connection.status == .leaving
        let why = connection.byeReason.map { "bye \($0.rawValue)" } ?? reason
        closeSocket(connection)
        // Closed while leaving is the expected end, unless it never had a seat: then the server refused it
        // (server_full) after its partner's failure had already abandoned the game.
        guard phase == .running, !wasLeaving || connection.seat == nil else { return }
        if connection.seat == nil {
            statistics.countFailure(why, at: batchTime)
        } else {
            statistics.countDrop(why, at: batchTime)
        }
        abandon(games[connection.game], now: batchTime)
    }

    /// A connection that never took its seat: counted as a failure, and its game given up.
    func failBeforeJoining(_ connection: LoadConnection, reason: String) {
        guard phase == .running else { return }
        statistics.countFailure(reason, at: batchTime)
        abandon(games[connection.game], now: batchTime)
    }

    /// Sends `leave` and waits (a bounded time) for `left` before closing, so the server frees the seat
    /// at once instead of holding it for the grace period.
    func beginLeaving(_ connection: LoadConnection, now: UInt64) {
        guard connection.status == .open else { return }
        connection.status = .leaving
        connection.leaveID = games[connection.game].newID(.leave)
        send(RequestEncoder.encode(Request(id: .integer(connection.leaveID), .leave)), on: connection)
        if phase == .running {
            schedule(at: now + LoadConfiguration.leaveDrainSeconds * MonotonicClock.nanosecondsPerSecond,
                     .closeConnection, target: connection.index)
        }
    }

    func resendLeave(_ connection: LoadConnection, now: UInt64) {
        guard connection.status == .leaving else { return }
        send(RequestEncoder.encode(Request(id: .integer(connection.leaveID), .leave)), on: connection)
    }

    /// Why a connect could not start, as the report counts it.
    static func reason(_ error: ConnectError) -> String {
        switch error {
        case .failed(let code): errnoName(code)
        case .noAddress, .noAnswer: error.description
        }
    }

    /// `ECONNREFUSED` and the like: the name, which is what people search for.
    static func errnoName(_ code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "ECONNREFUSED"
        case ECONNRESET: "ECONNRESET"
        case ETIMEDOUT: "ETIMEDOUT"
        case EHOSTUNREACH: "EHOSTUNREACH"
        case ENETUNREACH: "ENETUNREACH"
        case EADDRNOTAVAIL: "EADDRNOTAVAIL"
        case EMFILE: "EMFILE"
        case ENFILE: "ENFILE"
        case EPIPE: "EPIPE"
        case ENOBUFS: "ENOBUFS"
        case ENOMEM: "ENOMEM"
        default: "errno \(code)"
        }
    }
}
