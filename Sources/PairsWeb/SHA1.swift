/// SHA-1 (FIPS 180-4, RFC 3174), written once for the two things the web side needs a digest for: the
/// WebSocket handshake's `Sec-WebSocket-Accept` (RFC 6455 §4.2.2) and the client page's `ETag`.
///
/// Neither use needs collision resistance, which SHA-1 no longer has: the handshake only proves that the
/// server read the client's key, and an ETag only has to change when the page does. Nothing secret or
/// adversarial goes through it, so nothing here should be taken for a cryptographic primitive.
///
/// ```swift
/// SHA1.digest(of: Array("abc".utf8))   // a9 99 3e 36 ... 9c d0 d8 9d
/// ```
public struct SHA1: Sendable {
    /// The length of a digest, in bytes (160 bits).
    public static let digestByteCount = 20

    /// The block the compression function works on, in bytes (512 bits).
    private static let blockByteCount = 64

    /// H0...H4: the running hash, initialised to the standard's constants.
    private var h0: UInt32 = 0x6745_2301
    private var h1: UInt32 = 0xEFCD_AB89
    private var h2: UInt32 = 0x98BA_DCFE
    private var h3: UInt32 = 0x1032_5476
    private var h4: UInt32 = 0xC3D2_E1F0

    /// The bytes of a block not yet full, fewer than 64.
    private var pending: [UInt8] = []

    /// Every byte hashed so far: the padding ends with the message's length in bits.
    private var messageByteCount: UInt64 = 0

    public init() {
        pending.reserveCapacity(Self.blockByteCount)
    }

    /// The digest of `bytes`, 20 bytes.
    public static func digest(of bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds the next bytes of the message.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            pending.append(byte)
            messageByteCount &+= 1
            if pending.count == Self.blockByteCount {
                compressPendingBlock()
            }
        }
    }

    /// Pads the message as the standard says (a 1 bit, zeros, the length in bits) and returns the digest.
    public consuming func finalize() -> [UInt8] {
        let bitLength = messageByteCount &* 8
        pending.append(0x80)
        if pending.count > Self.blockByteCount - 8 {
            pending.append(contentsOf: repeatElement(0, count: Self.blockByteCount - pending.count))
            compressPendingBlock()
        }
        pending.append(contentsOf: repeatElement(0, count: Self.blockByteCount - 8 - pending.count))
        for shift in stride(from: 56, through: 0, by: -8) {
            pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        compressPendingBlock()
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestByteCount)
        for word in [h0, h1, h2, h3, h4] {
            for shift in stride(from: 24, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
        }
        return digest
    }

    // MARK: - Private

    /// Runs the compression function on the 64 bytes in `pending` and empties it.
    private mutating func compressPendingBlock() {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for index in 0..<16 {
                let base = index * 4
                w[index] = UInt32(pending[base]) << 24 | UInt32(pending[base + 1]) << 16
                    | UInt32(pending[base + 2]) << 8 | UInt32(pending[base + 3])
            }
            for index in 16..<80 {
                w[index] = (w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16]).rotatedLeft(by: 1)
            }
            var (a, b, c, d, e) = (h0, h1, h2, h3, h4)
            for index in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch index {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = a.rotatedLeft(by: 5) &+ f &+ e &+ k &+ w[index]
                (e, d, c, b, a) = (d, c, b.rotatedLeft(by: 30), a, temp)
            }
            h0 &+= a
            h1 &+= b
            h2 &+= c
            h3 &+= d
            h4 &+= e
        }
        pending.removeAll(keepingCapacity: true)
    }
}

extension UInt32 {
    /// The bits rotated `count` places towards the most significant end (FIPS 180-4's ROTL).
    @inline(__always)
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        self << count | self >> (32 - count)
    }
}
