#if canImport(Glibc)
import Glibc
#endif

/// What one read from a socket brought: the reading side of `OutputQueue`, for the server, the clients
/// and the load generator alike.
public enum SocketInput: Sendable, Hashable {
    /// This many bytes, at the start of the buffer.
    case bytes(Int)
    /// Nothing yet: the socket has no input now.
    case wouldBlock
    /// The peer closed its side; nothing more will come.
    case endOfStream
    /// The socket is broken (reset, or timed out by the kernel).
    case failed(errno: Int32)

    /// Reads what `fd` has, up to the buffer's size, without ever waiting, whether the socket is
    /// non-blocking or not (the clients' sockets block for writes, with a timeout). A read cut short by a
    /// signal is retried.
    public static func read(from fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> SocketInput {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(errno: code)
            }
        }
    }
}
