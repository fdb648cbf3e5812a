/// The lobby's name for one client connection, given by the transport when the connection arrives.
///
/// The lobby never sees a socket: it speaks of connections by this number, and the transport maps it back
/// to the socket it owns. Numbers are never reused while the server runs, so a late action for a connection
/// that is gone cannot reach a newcomer.
public struct ConnectionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: Int

    public init(_ value: Int) {
        self.value = value
    }

    /// `c7`: how logs and the `welcome` message's `session` name a connection.
    public var description: String { "c\(value)" }

    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.value < rhs.value }
}
