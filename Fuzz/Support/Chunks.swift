/// A stream cut into chunks where the fuzzer says, for targets that must give the same answer however a
/// connection's bytes arrive. The fuzzer's bytes read as: a parameter byte for the target, how many cuts
/// (1 byte), where each cut is (2 bytes each), then the stream. Short inputs are all stream.
struct ChunkedInput {
    /// The target's own knob (a limit, say); 0 for inputs too short to have one.
    var parameter: UInt8 = 0
    var cuts: [Int] = []
    var stream: [UInt8]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 2 else {
            stream = Array(bytes)
            return
        }
        parameter = bytes[0]
        let cutCount = min(Int(bytes[1] % 16), (bytes.count - 2) / 2)
        let positions = bytes[2..<(2 + 2 * cutCount)]
        stream = Array(bytes[(2 + 2 * cutCount)...])
        for index in stride(from: positions.startIndex, to: positions.endIndex, by: 2) {
            let position = Int(positions[index]) | Int(positions[index + 1]) << 8
            cuts.append(position % (stream.count + 1))
        }
        cuts.sort()
    }

    /// The stream cut at `cuts`; empty chunks included, as a read may return nothing new.
    var chunks: [ArraySlice<UInt8>] {
        zip([0] + cuts, cuts + [stream.count]).map { stream[$0..<$1] }
    }
}
