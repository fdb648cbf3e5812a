/// Cutting a byte stream into the pieces a socket might deliver, for the codec tests.
public enum Chunking {
    /// `bytes` cut into pieces of `size` bytes (the last one shorter).
    public static func pieces(of bytes: [UInt8], size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    /// Every piece size from one byte to the whole stream for short streams; for long ones, the small sizes,
    /// the sizes around the frame and message limits, and the whole, so a test stays fast.
    public static func sizes(for count: Int) -> [Int] {
        guard count > 300 else { return Array(1...max(count, 1)) }
        let interesting = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 64, 125, 126, 127, 128, 1000, 4095, 4096, 4097, 4100]
        return interesting.filter { $0 < count } + [count]
    }

    /// `bytes` cut at random places into pieces of 1 to `maxSize` bytes.
    public static func randomPieces(of bytes: [UInt8], maxSize: Int, using random: inout some RandomNumberGenerator) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int.random(in: 1...maxSize, using: &random))
            pieces.append(Array(bytes[start..<end]))
            start = end
        }
        return pieces
    }
}
