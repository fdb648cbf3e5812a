/// Latencies in nanoseconds, counted in log-linear buckets (in the manner of HdrHistogram) so a run of any
/// length keeps a fixed, small amount of memory and still answers percentiles to within half a percent.
///
/// Values below `linearLimit` get a bucket each. Above it, every power of two is split into
/// `subBuckets` equal buckets, so a bucket is never wider than 1/128 of its values: reporting the middle
/// of a bucket is off by at most 1/256 (0.4%). Every `UInt64` fits, in 7,424 buckets (58 KiB), which
/// covers 1 µs to 100 s with room to spare; the exact minimum and maximum are kept beside the buckets.
public struct LatencyHistogram: Sendable, Equatable {
    /// Buckets per power of two above the linear range: 128 keeps the relative error under 1%.
    static let subBucketBits = 7
    static let subBuckets = 1 << subBucketBits
    /// Values below this many nanoseconds are counted exactly.
    static let linearLimit: UInt64 = 2 << subBucketBits
    /// Enough buckets for the largest `UInt64`.
    static let bucketCount = bucketIndex(of: .max) + 1

    private var counts: [UInt64]
    /// How many values were recorded.
    public private(set) var count: UInt64 = 0
    /// The largest value recorded, exactly; 0 when empty.
    public private(set) var max: UInt64 = 0
    /// The smallest value recorded, exactly; 0 when empty.
    public private(set) var min: UInt64 = 0

    public init() {
        counts = [UInt64](repeating: 0, count: Self.bucketCount)
    }

    /// Counts one latency of `nanoseconds`.
    @inline(__always)
    public mutating func record(_ nanoseconds: UInt64) {
        counts[Self.bucketIndex(of: nanoseconds)] &+= 1
        if count == 0 || nanoseconds < min { min = nanoseconds }
        if nanoseconds > max { max = nanoseconds }
        count += 1
    }

    /// Adds every value of `other`.
    public mutating func add(_ other: LatencyHistogram) {
        guard other.count > 0 else { return }
        for index in counts.indices { counts[index] &+= other.counts[index] }
        if count == 0 || other.min < min { min = other.min }
        if other.max > max { max = other.max }
        count += other.count
    }

    /// Adds every value of `compact`.
    public mutating func add(_ compact: Compact) {
        guard compact.count > 0 else { return }
        for (index, bucketCount) in zip(compact.indices, compact.counts) { counts[Int(index)] &+= bucketCount }
        if count == 0 || compact.min < min { min = compact.min }
        if compact.max > max { max = compact.max }
        count += compact.count
    }

    /// The non-empty buckets only, as a second of a load run keeps them: a few hundred buckets instead of
    /// 7,424, so an hour's seconds fit in megabytes, and merging them gives back the whole run's histogram.
    public struct Compact: Sendable, Equatable {
        /// Bucket indexes, ascending; `bucketCount` fits 16 bits.
        var indices: [UInt16] = []
        var counts: [UInt64] = []
        public fileprivate(set) var count: UInt64 = 0
        public fileprivate(set) var min: UInt64 = 0
        public fileprivate(set) var max: UInt64 = 0

        public init() {}

        /// The histogram these buckets are of.
        public var histogram: LatencyHistogram {
            var histogram = LatencyHistogram()
            histogram.add(self)
            return histogram
        }
    }

    /// This histogram's non-empty buckets.
    public var compact: Compact {
        var compact = Compact()
        guard count > 0 else { return compact }
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            compact.indices.append(UInt16(index))
            compact.counts.append(bucketCount)
        }
        compact.count = count
        compact.min = min
        compact.max = max
        return compact
    }

    /// The counts in log-scaled buckets, `perPowerOfTwo` of them to each doubling (a power of two up to
    /// 128), non-empty ones only, ascending: what a chart of the whole run draws. Values in the exact
    /// range below `linearLimit` (256 ns) are counted in the first group, which starts at 0.
    public func logBuckets(perPowerOfTwo: Int) -> [(low: UInt64, high: UInt64, count: UInt64)] {
        precondition(perPowerOfTwo > 0 && perPowerOfTwo <= Self.subBuckets && Self.subBuckets % perPowerOfTwo == 0)
        let width = Self.subBuckets / perPowerOfTwo
        var result: [(low: UInt64, high: UInt64, count: UInt64)] = []
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            let (low, high): (UInt64, UInt64)
            if index < Int(Self.linearLimit) {
                (low, high) = (0, Self.linearLimit)
            } else {
                // Above the linear range, bucket indexes run in groups of `subBuckets` per power of two,
                // so whole groups of `width` share their top bits.
                let first = index - index % width
                let (start, size) = Self.bucketRange(first)
                (low, high) = (start, start &+ size &* UInt64(width))
            }
            if let last = result.last, last.low == low {
                result[result.count - 1].count += bucketCount
            } else {
                result.append((low, high, bucketCount))
            }
        }
        return result
    }

    /// Forgets every value, keeping the storage.
    public mutating func reset() {
        guard count > 0 else { return }
        for index in counts.indices { counts[index] = 0 }
        count = 0
        max = 0
        min = 0
    }

    /// The value at `quantile` (0...1): the smallest recorded value such that at least that fraction of the
    /// values are at or below it, reported as the middle of its bucket (and never outside min...max; the
    /// largest value exactly). 0 when empty.
    public func value(atQuantile quantile: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let clamped = Swift.min(Swift.max(quantile, 0), 1)
        let rank = Swift.max(1, UInt64((clamped * Double(count)).rounded(.up)))
        // The last value is known exactly.
        guard rank < count else { return max }
        var seen: UInt64 = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += bucketCount
            if seen >= rank {
                let (low, width) = Self.bucketRange(index)
                let middle = low + (width - 1) / 2
                return Swift.min(Swift.max(middle, min), max)
            }
        }
        return max
    }

    /// The bucket `value` is counted in.
    @inline(__always)
    static func bucketIndex(of value: UInt64) -> Int {
        guard value >= linearLimit else { return Int(value) }
        // The power of two above the linear range, scaled so that `value >> shift` is in 128..<256.
        let shift = (63 - value.leadingZeroBitCount) - subBucketBits
        return shift * subBuckets + Int(value >> UInt64(shift))
    }

    /// The lowest value of bucket `index` and how many values it holds.
    static func bucketRange(_ index: Int) -> (low: UInt64, width: UInt64) {
        guard index >= Int(linearLimit) else { return (UInt64(index), 1) }
        let shift = index / subBuckets - 1
        let position = UInt64(index - shift * subBuckets)
        return (position << UInt64(shift), 1 << UInt64(shift))
    }
}
