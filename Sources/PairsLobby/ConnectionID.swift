/// The lobby's name for one client connection, given by the transport when the connection arrives
/// (`ConnectionIDIssuer`).
///
/// The lobby never sees a socket: it speaks of connections by this id, and the transport maps it back to
/// the socket it owns. An id has two parts:
/// - `value`, the connection's number, counted from 1 and never reused while the server runs: what logs
///   and the `welcome` message's `session` say, and what tells a late action for a connection that is
///   gone from a newcomer's;
/// - `slot`, the connection's place in a `ConnectionTable`: reused once the connection is gone, so that
///   finding a connection from its id, on every message and every send, indexes an array instead of
///   hashing.
public struct ConnectionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The connection's number: unique over the server's life.
    public let value: Int
    /// The connection's place in the tables that hold it: unique among the connections open at once.
    public let slot: Int

    public init(_ value: Int, slot: Int) {
        precondition(slot >= 0, "a connection's slot is an array index")
        self.value = value
        self.slot = slot
    }

    /// `c7`: how logs and the `welcome` message's `session` name a connection.
    public var description: String { "c\(value)" }

    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.value < rhs.value }
}
