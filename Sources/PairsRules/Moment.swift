/// A point in time, in milliseconds on some monotonic clock chosen by the caller.
///
/// The rules never read a clock: every move carries the moment it happened, so a test can replay a game
/// with any timing it likes and the server passes its own monotonic clock.
public struct Moment: Sendable, Hashable, Comparable {
    /// Milliseconds since the caller's origin. Only differences between moments mean anything.
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// The moment `duration` milliseconds later.
    public func adding(milliseconds duration: Int64) -> Moment {
        Moment(milliseconds: milliseconds + duration)
    }

    /// Milliseconds from `self` until `later` (negative when `later` is earlier).
    public func milliseconds(until later: Moment) -> Int64 {
        later.milliseconds - milliseconds
    }

    public static func < (lhs: Moment, rhs: Moment) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }
}
