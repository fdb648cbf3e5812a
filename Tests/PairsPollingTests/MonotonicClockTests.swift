import Dispatch
import PairsPolling
import PairsRules
import Testing

@Test("the clock reads the very clock Dispatch schedules on, so a nanosecond deadline fires when it says")
func sameClockAsDispatch() {
    for _ in 0..<1000 {
        let before = DispatchTime.now().uptimeNanoseconds
        let reading = MonotonicClock.nanoseconds()
        let after = DispatchTime.now().uptimeNanoseconds
        #expect(before <= reading && reading <= after)
    }
}

@Test("moments are the nanoseconds in whole milliseconds, and never go back")
func momentsAreMilliseconds() {
    var last = MonotonicClock.now()
    for _ in 0..<1000 {
        let before = MonotonicClock.nanoseconds()
        let moment = MonotonicClock.now()
        let after = MonotonicClock.nanoseconds()
        #expect(UInt64(moment.milliseconds) >= before / MonotonicClock.nanosecondsPerMillisecond)
        #expect(UInt64(moment.milliseconds) <= after / MonotonicClock.nanosecondsPerMillisecond)
        #expect(moment >= last)
        last = moment
    }
}
