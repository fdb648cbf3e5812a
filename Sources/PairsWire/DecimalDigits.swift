/// Integers written in decimal straight into bytes, with no `String` in between: the one decimal writer
/// for the hand-written encoders (the load generator's flips; `JSONWriter.appendDecimal` and
/// `ByteCursor.appendDecimal` each still carry a copy of their own, to be pointed here).
package enum DecimalDigits {
    /// The most bytes one integer takes: the 20 digits of `UInt64.max`, or a sign and the 19 of `Int64.min`.
    package static let maxBytes = 20

    /// Writes `magnitude` (after a `-` when `isNegative`) at `destination`, which must have room for
    /// `maxBytes`, and returns how many bytes it wrote.
    @inline(__always)
    package static func write(magnitude: UInt64, isNegative: Bool, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        var count = isNegative ? 2 : 1
        var rest = magnitude / 10
        while rest != 0 {
            count += 1
            rest /= 10
        }
        if isNegative { destination[0] = ASCII.minus }
        // Least significant digit first, from the end backwards.
        var index = count
        rest = magnitude
        repeat {
            index -= 1
            let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
            destination[index] = ASCII.zero + UInt8(truncatingIfNeeded: digit)
            rest = quotient
        } while rest != 0
        return count
    }

    /// Writes `value` at `destination`, which must have room for `maxBytes`, and returns how many bytes it
    /// wrote.
    @inline(__always)
    package static func write(_ value: Int64, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        write(magnitude: value.magnitude, isNegative: value < 0, to: destination)
    }

    /// Appends `value` in decimal to `bytes`.
    package static func append(_ value: Int64, to bytes: inout [UInt8]) {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0) // room for `maxBytes`
        withUnsafeMutableBytes(of: &scratch) { raw in
            let digits = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let count = write(value, to: digits)
            bytes.append(contentsOf: UnsafeBufferPointer(start: digits, count: count))
        }
    }
}
