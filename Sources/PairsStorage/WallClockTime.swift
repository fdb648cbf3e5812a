/// A moment on the wall clock: milliseconds since 1970-01-01T00:00:00Z, as people read dates.
///
/// For when a game started and ended. Durations inside a game come from the monotonic clock instead
/// (`GameMove.milliseconds`): the wall clock can jump.
public struct WallClockTime: Sendable, Hashable, Comparable {
    /// Milliseconds since the Unix epoch, UTC.
    public var unixMilliseconds: Int64

    public init(unixMilliseconds: Int64) {
        self.unixMilliseconds = unixMilliseconds
    }

    public static func < (lhs: WallClockTime, rhs: WallClockTime) -> Bool {
        lhs.unixMilliseconds < rhs.unixMilliseconds
    }

    /// The time in ISO 8601, UTC, to the millisecond: `2026-11-21T19:51:39.042Z`.
    public var iso8601: String {
        let milliseconds = floorModulo(unixMilliseconds, 1000)
        let seconds = floorDivide(unixMilliseconds, 1000)
        let secondOfDay = floorModulo(seconds, 86_400)
        let (year, month, day) = Self.civilDate(daysSinceEpoch: floorDivide(seconds, 86_400))
        let yearText = year < 0 ? "-" + padded(-year, 4) : padded(year, 4)
        return "\(yearText)-\(padded(month, 2))-\(padded(day, 2))T"
            + "\(padded(secondOfDay / 3600, 2)):\(padded(secondOfDay / 60 % 60, 2)):\(padded(secondOfDay % 60, 2))"
            + ".\(padded(milliseconds, 3))Z"
    }

    /// The proleptic Gregorian date `days` after 1970-01-01: Howard Hinnant's `civil_from_days`, which
    /// counts in 400-year eras starting on March 1st so that leap days fall at the end of a year.
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days from 0000-03-01 to 1970-01-01
        let era = floorDivide(shifted, 146_097)  // 146,097 days in 400 years
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

/// `value` in decimal with leading zeros up to `width` digits.
private func padded(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Division rounding toward minus infinity, so times before 1970 fall on the right day.
private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor < 0) ? quotient - 1 : quotient
}

/// The remainder that goes with `floorDivide`: always in `0..<divisor`.
private func floorModulo(_ value: Int64, _ divisor: Int64) -> Int64 {
    let remainder = value % divisor
    return remainder < 0 ? remainder + divisor : remainder
}
