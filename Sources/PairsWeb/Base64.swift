/// Base64 with the standard alphabet and `=` padding (RFC 4648 §4), written once for the WebSocket handshake:
/// the client's `Sec-WebSocket-Key` is decoded to check it holds 16 bytes, and the server's
/// `Sec-WebSocket-Accept` is an encoded SHA-1 digest.
///
/// Decoding is strict, as a handshake check should be: no whitespace, no line breaks, no missing padding, and
/// no non-zero bits in the padding, so each byte string has exactly one accepted spelling (RFC 4648 §3.5).
public enum Base64 {
    /// The 64 digits, in value order.
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The padding digit.
    private static let padding = UInt8(ascii: "=")

    /// The value of each byte as a digit, or `invalidDigit`.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: invalidDigit, count: 256)
        for (value, digit) in alphabet.enumerated() {
            table[Int(digit)] = UInt8(value)
        }
        return table
    }()

    /// Marks a byte that is not a digit in `values`.
    private static let invalidDigit: UInt8 = 0xFF

    /// `bytes` in Base64, padded to a multiple of four digits.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var digits: [UInt8] = []
        digits.reserveCapacity((input.count + 2) / 3 * 4)
        for start in stride(from: 0, to: input.count, by: 3) {
            let byteCount = min(3, input.count - start)
            var group: UInt32 = 0
            for offset in 0..<3 {
                group = group << 8 | (offset < byteCount ? UInt32(input[start + offset]) : 0)
            }
            // n bytes fill n + 1 digits; padding stands for the rest.
            for offset in 0..<4 {
                digits.append(offset <= byteCount ? alphabet[Int(group >> UInt32(18 - 6 * offset) & 0x3F)] : padding)
            }
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil if it is not canonical padded Base64.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 4 * 3)
        for start in stride(from: 0, to: digits.count, by: 4) {
            let isLastGroup = start + 4 == digits.count
            let paddingCount = isLastGroup ? digits[start..<start + 4].reversed().prefix { $0 == padding }.count : 0
            guard paddingCount <= 2 else { return nil }
            var group: UInt32 = 0
            for offset in 0..<4 {
                let value = offset < 4 - paddingCount ? values[Int(digits[start + offset])] : 0
                guard value != invalidDigit else { return nil }
                group = group << 6 | UInt32(value)
            }
            let byteCount = 3 - paddingCount
            // The bits under the padding must be zero, or two spellings would decode to the same bytes.
            let paddedBits = (UInt32(1) << UInt32(8 * paddingCount)) &- 1
            guard group & paddedBits == 0 else { return nil }
            for offset in 0..<byteCount {
                bytes.append(UInt8(truncatingIfNeeded: group >> UInt32(16 - 8 * offset)))
            }
        }
        return bytes
    }
}
