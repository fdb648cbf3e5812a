@testable import PairsWire
import PairsRules
import Testing

private let edges: [Int64] = [
    0, 1, -1, 9, 10, -10, 99, 100, 101, 999_999, 1_000_000, Int64(Int32.max), Int64(Int32.min),
    Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 9_223_372_036_854_775_799, -999_999_999_999_999_999,
]

@Test("integers are written as Swift describes them, edges and powers of ten included", arguments: edges)
func writesLikeDescription(value: Int64) {
    var bytes = Array("x".utf8)
    DecimalDigits.append(value, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "x\(value)")
}

@Test("ten thousand random integers of every length are written as Swift describes them, within maxBytes")
func randomIntegers() {
    var random = SplitMix64(seed: 7)
    var buffer = [UInt8](repeating: 0, count: DecimalDigits.maxBytes)
    for _ in 0..<10_000 {
        let value = Int64(bitPattern: random.next()) >> random.next(below: 64)
        let count = buffer.withUnsafeMutableBufferPointer { DecimalDigits.write(value, to: $0.baseAddress!) }
        #expect(count <= DecimalDigits.maxBytes)
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == String(value))
    }
}

@Test("the largest magnitude, UInt64.max, takes exactly maxBytes")
func largestMagnitude() {
    var buffer = [UInt8](repeating: 0, count: DecimalDigits.maxBytes)
    let count = buffer.withUnsafeMutableBufferPointer {
        DecimalDigits.write(magnitude: .max, isNegative: false, to: $0.baseAddress!)
    }
    #expect(count == DecimalDigits.maxBytes)
    #expect(String(decoding: buffer, as: UTF8.self) == String(UInt64.max))
}
