@testable import PairsStorage
import PairsTestSupport
import Testing

@Test("ISO 8601 dates agree with SQLite's own date functions across four centuries, leap days included")
func iso8601MatchesSQLite() throws {
    let directory = try TemporaryDirectory()
    let reference = try outsideConnection(directory.file("dates.db"), .readWriteCreate)
    let statement = try reference.prepare("SELECT strftime('%Y-%m-%dT%H:%M:%S', ?1, 'unixepoch') || printf('.%03dZ', ?2)")
    var seconds: [Int64] = [
        0, -1, 1, 59, 86_399, 86_400, -86_400, -86_401,
        951_782_400, 951_868_800,  // 2000-02-29 and 2000-03-01: a leap day of a year divisible by 400
        -2_203_891_200,  // 1900-03-01: 1900 has no leap day
        4_107_456_000,  // 2100-02-28
        1_763_000_000, 253_402_300_799,  // 9999-12-31T23:59:59
    ]
    // And a spread of others from 1800 to 2200, by a fixed linear congruential sequence.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<2_000 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        seconds.append(Int64(state >> 33) % 12_600_000_000 - 5_364_662_400)
    }
    for second in seconds {
        let millisecond = Int64(abs(second % 1000))
        let expected = try statement.rows(binding: [.integer(second), .integer(millisecond)]) { $0.text(at: 0) }.first
        let time = WallClockTime(unixMilliseconds: second * 1000 + millisecond)
        #expect(time.iso8601 == expected, "at \(second) s")
    }
}

@Test("wall-clock times order as their milliseconds do")
func wallClockTimesOrder() {
    #expect(WallClockTime(unixMilliseconds: -1) < WallClockTime(unixMilliseconds: 0))
    #expect(WallClockTime(unixMilliseconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
    #expect(WallClockTime(unixMilliseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
}
