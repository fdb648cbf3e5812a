@testable import PairsWeb
import PairsTestSupport
import Testing

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// FIPS 180 and RFC 3174 test vectors.
private let standardVectors: [(message: String, digest: String)] = [
    ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
     "a49b2446a02c645bf419f995b67091253a04a259"),
    (String(repeating: "01234567", count: 80), "dea356a2cddd90c7a7ecedc5ebb563934f460452"),
]

@Test("SHA-1 gives the digests of the FIPS 180 and RFC 3174 test vectors", arguments: standardVectors)
func sha1StandardVectors(message: String, digest: String) {
    #expect(hex(SHA1.digest(of: Array(message.utf8))) == digest)
}

@Test("SHA-1 of a million 'a's, fed in pieces of 1000, is the standard's digest")
func sha1MillionA() {
    var hasher = SHA1()
    let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
    for _ in 0..<1000 {
        hasher.update(piece)
    }
    #expect(hex(hasher.finalize()) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
}

/// Digests around the padding's edges (a block holds 55 bytes and the length, or needs a second block),
/// worked out by Python's hashlib for the bytes `(i * 7 + 3) % 256`.
private let paddingEdgeVectors: [(length: Int, digest: String)] = [
    (55, "ddf57317ef34bfee3b6df83d359098930eb278bc"), (56, "a0d492bb0fc889d0eca3bc137066ab6f4f74f369"),
    (63, "c55856749bef509bdfe6bfebfc7bf4e793e82132"), (64, "bede92be29c3874e1b54ddc77988d606fc857a8e"),
    (65, "b05a80522b053d6dc7e0a517d0e70212c7dad11f"), (119, "504e27376a6e0f0dba8295b85cb25dc4dfa17d23"),
    (120, "82134b02fb3f702491be9bed581eeab59334acb2"), (128, "a09133e6730ffe899efb70204cb5646cd5dc24ee"),
]

@Test("SHA-1 is right at the edges of the padding, fed whole and in every piece size", arguments: paddingEdgeVectors)
func sha1PaddingEdges(length: Int, digest: String) {
    let message = (0..<length).map { UInt8(($0 * 7 + 3) % 256) }
    #expect(hex(SHA1.digest(of: message)) == digest)
    for size in Chunking.sizes(for: length) {
        var hasher = SHA1()
        for piece in Chunking.pieces(of: message, size: size) {
            hasher.update(piece)
        }
        #expect(hex(hasher.finalize()) == digest, "piece size \(size)")
    }
}
