@testable import PairsWeb
import PairsRules
import PairsTestSupport
import Testing

private func validates(_ bytes: [UInt8]) -> Bool {
    var validator = UTF8Validator()
    return validator.consume(bytes) && validator.isAtBoundary
}

@Test("the validator agrees with the standard library on Markus Kuhn's test sequences")
func kuhnSequences() {
    for (bytes, isValid) in utf8Sequences {
        #expect(validates(bytes) == isValid, "\(bytes)")
        #expect(isValidUTF8(bytes) == isValid, "\(bytes)")
    }
}

@Test("the validator agrees with the standard library on random byte strings, and on the first and last scalars of every length")
func randomAndEdgeBytes() {
    var random = SplitMix64(seed: 3629)
    let interesting: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
    for _ in 0..<20_000 {
        let bytes = (0..<random.next(below: 8)).map { _ in interesting[random.next(below: interesting.count)] }
        #expect(validates(bytes) == isValidUTF8(bytes), "\(bytes)")
    }
    for scalar in [0x0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF] {
        #expect(validates(Array(String(Unicode.Scalar(scalar)!).utf8)))
    }
}

@Test("a character cut anywhere is incomplete but not invalid, so validation can span fragments")
func prefixesAreIncompleteNotInvalid() {
    for text in ["é", "€", "😀", "κόσμε"] {
        let bytes = Array(text.utf8)
        for cut in 1..<bytes.count {
            var validator = UTF8Validator()
            let headIsValid = validator.consume(bytes[..<cut])
            #expect(headIsValid)
            #expect(validator.isAtBoundary == isValidUTF8(Array(bytes[..<cut])))
            let tailIsValid = validator.consume(bytes[cut...])
            #expect(tailIsValid && validator.isAtBoundary)
        }
    }
}

@Test("reading a buffer, with its runs of ASCII taken eight bytes at a time, agrees with reading byte by byte, cut anywhere")
func buffersAgreeWithBytes() {
    var random = SplitMix64(seed: 6455)
    let pieces: [[UInt8]] = [Array("{\"type\":\"state\",".utf8), [0x61], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80],
                             [0xC3], [0xED, 0xA0, 0x80], [0xFF], [0x80]]
    let weights = [40, 40, 6, 6, 6, 1, 1, 1, 1]
    for _ in 0..<2_000 {
        let bytes = (0..<random.next(below: 12)).flatMap { _ -> [UInt8] in
            var pick = random.next(below: weights.reduce(0, +))
            for (index, weight) in weights.enumerated() {
                if pick < weight { return pieces[index] }
                pick -= weight
            }
            return []
        }
        let cut = random.next(below: bytes.count + 1)
        var whole = UTF8Validator()
        var byBytes = UTF8Validator()
        let wholeValid = bytes.withUnsafeBytes { buffer in
            whole.consume(UnsafeRawBufferPointer(rebasing: buffer[..<cut])) && whole.consume(UnsafeRawBufferPointer(rebasing: buffer[cut...]))
        }
        let bytesValid = byBytes.consume(bytes[...])
        #expect(wholeValid == bytesValid, "\(bytes) cut at \(cut)")
        #expect(wholeValid == isValidUTF8Prefix(bytes), "\(bytes)")
        if wholeValid { #expect(whole.isAtBoundary == isValidUTF8(bytes), "\(bytes)") }
    }
}
