import PairsLobby
import PairsWire

/// What a loop's transport counts: what crossed its sockets, and how long answers took.
struct Traffic {
    var messagesOut = 0
    var bytesIn = 0
    var bytesOut = 0
    /// Errors the transport sends itself (the store's answers); the lobby counts its own.
    var errors: [ErrorCode: Int] = [:]
    /// How long answers took (`AnswerTiming`).
    var latency = AnswerLatency()
    var timing = AnswerTiming()

    /// Times answers with the clock reads the loop makes anyway: each read of a socket reads the clock
    /// before handling what came, which is also when everything handled before it in the batch has been
    /// answered (answers are written as each message is handled). A batch's arrival is its first read's
    /// moment. The one clock read added is at the end of a batch that handled messages, for its last read's.
    struct AnswerTiming {
        /// When the current batch's first socket was read, in nanoseconds; nil until then.
        var batchArrived: UInt64?
        /// Messages handled since the last read's moment, not yet recorded.
        var pending = 0
    }

    /// A batch of sockets was collected: its arrival is its first read's moment. Messages handled outside
    /// a batch (a first line held by a welcome wait) are not timed.
    mutating func startBatch() {
        timing.batchArrived = nil
        timing.pending = 0
    }

    /// A socket was read at `nanoseconds`: the messages handled before are answered by then.
    mutating func read(at nanoseconds: UInt64) {
        recordAnswers(at: nanoseconds)
        if timing.batchArrived == nil { timing.batchArrived = nanoseconds }
    }

    /// Records the messages handled since the last read as answered at `nanoseconds`.
    mutating func recordAnswers(at nanoseconds: UInt64) {
        let pending = timing.pending
        guard pending > 0 else { return }
        timing.pending = 0
        let arrived = timing.batchArrived ?? nanoseconds
        let microseconds = nanoseconds > arrived ? Int((nanoseconds - arrived) / 1000) : 0
        latency.record(microseconds: microseconds, answers: pending)
    }
}
