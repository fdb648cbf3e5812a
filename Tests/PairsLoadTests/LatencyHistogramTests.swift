import Foundation
@testable import PairsLoad
import PairsRules
import Testing

/// The exact value at `quantile` of sorted `values`, by the histogram's definition of a percentile: the
/// smallest value with at least that fraction of the values at or below it.
private func exactQuantile(_ sorted: [UInt64], _ quantile: Double) -> UInt64 {
    let rank = max(1, Int((quantile * Double(sorted.count)).rounded(.up)))
    return sorted[rank - 1]
}

private let quantiles = [0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1.0]

private func expectWithinOnePercent(_ values: [UInt64], sourceLocation: SourceLocation = #_sourceLocation) {
    var histogram = LatencyHistogram()
    for value in values { histogram.record(value) }
    let sorted = values.sorted()
    #expect(histogram.count == UInt64(values.count), sourceLocation: sourceLocation)
    #expect(histogram.max == sorted.last, "the maximum is exact", sourceLocation: sourceLocation)
    #expect(histogram.min == sorted.first, "the minimum is exact", sourceLocation: sourceLocation)
    for quantile in quantiles {
        let exact = Double(exactQuantile(sorted, quantile))
        let reported = Double(histogram.value(atQuantile: quantile))
        #expect(abs(reported - exact) <= exact * 0.01, "p\(quantile * 100): \(reported) vs exact \(exact)",
                sourceLocation: sourceLocation)
    }
}

@Test("Percentiles of evenly spread latencies from 1 µs to 100 ms are within 1% of exact")
func evenlySpread() {
    expectWithinOnePercent((1...100_000).map { UInt64($0) * 1_000 })
}

@Test("Percentiles of a long-tailed distribution from 1 µs to 100 s are within 1% of exact")
func longTail() {
    var random = SplitMix64(seed: 7)
    let values = (0..<200_000).map { _ -> UInt64 in
        // Log-uniform from 1 µs (1e3 ns) to 100 s (1e11 ns): every decade equally represented.
        let exponent = 3 + 8 * Double(random.next() >> 11) / Double(1 << 53)
        return UInt64(pow(10, exponent))
    }
    expectWithinOnePercent(values)
}

@Test("Small values are counted exactly, and one huge outlier stays the exact maximum")
func exactSmallValuesAndOutlier() {
    var values = (0..<1_000).map { UInt64($0 % 256) }
    values.append(UInt64.max / 2)
    var histogram = LatencyHistogram()
    for value in values { histogram.record(value) }
    #expect(histogram.value(atQuantile: 0.5) == exactQuantile(values.sorted(), 0.5))
    #expect(histogram.max == UInt64.max / 2)
    #expect(histogram.value(atQuantile: 1) == UInt64.max / 2)
}

@Test("Buckets tile the whole range: every value falls in the bucket whose range holds it")
func bucketsTile() {
    var random = SplitMix64(seed: 3)
    var samples: [UInt64] = [0, 1, 255, 256, 257, 511, 512, 1_000, UInt64.max, UInt64.max - 1]
    for _ in 0..<10_000 { samples.append(random.next() >> (random.next() % 64)) }
    for value in samples {
        let index = LatencyHistogram.bucketIndex(of: value)
        let (low, width) = LatencyHistogram.bucketRange(index)
        #expect(value >= low && value - low < width, "\(value) in bucket \(index) [\(low), +\(width))")
        #expect(index < LatencyHistogram.bucketCount)
        if index > 0 {
            let (previousLow, previousWidth) = LatencyHistogram.bucketRange(index - 1)
            #expect(previousLow + previousWidth == low, "bucket \(index) starts where \(index - 1) ends")
        }
    }
}

@Test("An empty histogram reports zeros; adding and resetting keep counts, minimum and maximum right")
func emptyAddReset() {
    var first = LatencyHistogram()
    #expect(first.value(atQuantile: 0.99) == 0)
    #expect(first.max == 0)
    for value in [5_000, 7_000, 9_000] as [UInt64] { first.record(value) }
    var second = LatencyHistogram()
    for value in [1_000, 20_000] as [UInt64] { second.record(value) }
    first.add(second)
    #expect(first.count == 5)
    #expect(first.min == 1_000)
    #expect(first.max == 20_000)
    first.reset()
    #expect(first.count == 0)
    #expect(first.value(atQuantile: 0.5) == 0)
    first.record(3_000)
    #expect(first.min == 3_000 && first.max == 3_000)
}
