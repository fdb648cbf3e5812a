/// Resume tokens: 128 bits from a random source, as 32 hex digits.
///
/// The server draws them from the system's random source (getrandom on Linux), so they are unguessable
/// and only the player who received one can take the seat back; tests may pass a seeded generator.
enum ResumeToken {
    static func generate(using generator: inout some RandomNumberGenerator) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<2 {
            var word = generator.next() as UInt64
            for _ in 0..<16 {
                bytes.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
