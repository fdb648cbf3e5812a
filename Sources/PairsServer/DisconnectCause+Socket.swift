#if canImport(Glibc)
import Glibc
#endif
import PairsLobby

extension DisconnectCause {
    /// Why a connection ended, from the `errno` of the read or write that failed: a reset (ECONNRESET, or
    /// EPIPE on a write, which comes once the peer's reset has been seen) is the peer's own doing, what a
    /// client that exits with lines unread leaves; anything else (a keepalive or retransmission timeout,
    /// an unreachable host) is a failure, with the system's words for it.
    static func socketError(_ code: Int32, whileWriting: Bool) -> DisconnectCause {
        if code == ECONNRESET || (whileWriting && code == EPIPE) { return .resetByPeer }
        let words = String(cString: strerror(code))
        return whileWriting ? .writeFailed(words) : .readFailed(words)
    }
}
