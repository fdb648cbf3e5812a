@testable import PairsWeb
import PairsRules
import Testing

/// RFC 4648 §10.
private let rfcVectors: [(text: String, encoded: String)] = [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
]

@Test("Base64 encodes and decodes the RFC 4648 test vectors", arguments: rfcVectors)
func base64RFCVectors(text: String, encoded: String) {
    #expect(Base64.encode(Array(text.utf8)) == encoded)
    #expect(Base64.decode(encoded) == Array(text.utf8))
}

@Test("Base64 round-trips every byte string of random content up to 100 bytes, with every digit in use")
func base64RoundTrips() {
    var random = SplitMix64(seed: 4648)
    var digitsSeen = Set<Character>()
    for length in 0...100 {
        for _ in 0..<20 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let encoded = Base64.encode(bytes)
            #expect(encoded.count == (length + 2) / 3 * 4)
            #expect(Base64.decode(encoded) == bytes)
            digitsSeen.formUnion(encoded)
        }
    }
    #expect(digitsSeen.count == 65)
}

@Test("Base64 decoding refuses every spelling that is not canonical padded Base64", arguments: [
    "Zg", "Zg=", "Zm9", "Zh==", "Zm9=", "Zg==Zg==", "=Zg=", "Z===", "====", "Zm9v\n", "Zm 9v", "Zm9v YmFy", "Zm-v", "Zm_v", "Zm9vYg=a",
])
func base64RefusesNonCanonical(text: String) {
    #expect(Base64.decode(text) == nil)
}
