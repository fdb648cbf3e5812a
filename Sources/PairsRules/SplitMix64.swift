/// SplitMix64 (Steele, Lea and Flood, 2014), the seedable generator every board is shuffled with.
///
/// The system generator differs between machines and runs, so a seed would not reproduce a board. This one is
/// eight lines of arithmetic: the same seed gives the same sequence on every machine, which is what `--seed`
/// and replayable tests rely on. It is not cryptographic; boards need fairness, not secrecy from the server.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly distributed integer in `0..<bound`, by rejection, so no value is favoured.
    ///
    /// Written out rather than using `Int.random(in:using:)`, whose algorithm the standard library may change:
    /// a seed must keep producing the same board across toolchain versions.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let range = UInt64(bound)
        let limit = UInt64.max - UInt64.max % range
        while true {
            let value = next()
            if value < limit { return Int(value % range) }
        }
    }
}
