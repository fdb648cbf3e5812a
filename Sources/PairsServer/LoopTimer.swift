import PairsRules

/// The loop's one timer and the transport's deadlines it serves, with the lobby's and the welcome waits'.
struct LoopTimer {
    private var timer: (any TransportTimer)?
    var deadlines = LoopDeadlines()

    mutating func start(_ timer: any TransportTimer) { self.timer = timer }

    func arm(at deadline: Moment?) { timer?.arm(at: deadline) }

    mutating func cancel() {
        timer?.cancel()
        timer = nil
    }
}
