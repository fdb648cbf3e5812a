import PairsLobby
import PairsRules
import PairsStorage

/// Turns the store's events into log lines an operator can act on, without a line per failed batch (a full
/// disk fails every batch, dozens a second): the first failure is written at once, later ones are held and
/// written together at most once per `intervalMilliseconds`, with how many there were and the games they
/// lost, and a store that writes again says so, with what the whole spell cost.
///
/// Used on the server's queue; it reads no clock (the server passes the moments in).
struct StorageAlarm {
    /// At most one failure line per 10 s: often enough that an operator watching the log sees the
    /// failure go on, seldom enough that a full disk cannot flood the log (it wrote 365 lines in 12 s).
    static let intervalMilliseconds: Int64 = 10_000

    /// Failures not written yet, since the last line.
    private struct Held {
        var failures = 0
        var gamesLost = 0
        var lastError = ""
    }

    private var held: Held?
    /// Whether the owner has set a deadline to write the held failures (`heldDeadline`).
    var isWriteScheduled = false
    private var lastLine: Moment?
    /// When the store started failing as a whole; nil while it is healthy.
    private var spellStarted: Moment?

    /// A line the alarm decides to write.
    struct Line: Equatable {
        let level: LogLevel
        let event: ServerEvent
    }

    /// A failure: the line to write now, or nil when it is held for a later one (`heldDeadline`).
    mutating func failed(_ failure: StorageFailure, at now: Moment) -> Line? {
        if failure.isStoreFailure, spellStarted == nil { spellStarted = now }
        var adding = held ?? Held()
        adding.failures += 1
        adding.gamesLost += failure.gamesLost
        adding.lastError = failure.reason
        held = adding
        guard let lastLine, lastLine.milliseconds(until: now) < Self.intervalMilliseconds else { return release(at: now) }
        return nil
    }

    /// When the failures held back are due to be written; nil when none are held.
    var heldDeadline: Moment? {
        guard held != nil, let lastLine else { return nil }
        return lastLine.adding(milliseconds: Self.intervalMilliseconds)
    }

    /// The line for the failures held back, once it is due.
    mutating func heldLine(at now: Moment) -> Line? {
        guard let deadline = heldDeadline, deadline <= now else { return nil }
        return release(at: now)
    }

    /// The store wrote a batch again after `failures` failures that lost `gamesLost` games: the failures
    /// still held (so that none goes unsaid), then the recovery.
    mutating func recovered(failures: Int, gamesLost: Int, at now: Moment) -> [Line] {
        let seconds = Double(spellStarted.map { $0.milliseconds(until: now) } ?? 0) / 1000
        spellStarted = nil
        let pending = held == nil ? nil : release(at: now)
        let recovery = Line(level: .warning, event: .storageRecovered(failures: failures, gamesLost: gamesLost, seconds: seconds))
        return (pending.map { [$0] } ?? []) + [recovery]
    }

    private mutating func release(at now: Moment) -> Line? {
        guard let released = held else { return nil }
        held = nil
        lastLine = now
        return Line(level: .error, event: .storageFailed(failures: released.failures, gamesLost: released.gamesLost,
                                                         error: released.lastError))
    }
}
