/// Recognises the one request a game is made of, a flip, in the exact form bots send it
/// (`{"type":"flip","card":3,"id":17}`, or without the id), without building a JSON tree.
///
/// Every flip of every game goes through the decoder, and the general path parses the line into a
/// dictionary first. This matches the compact form byte for byte and gives up (nil) on anything else:
/// other key orders, spaces, signs, leading zeros, more digits than an Int64 surely holds. The general
/// path then decodes the line as always, so the answer never depends on which path took it; a test holds
/// the two to the same result.
enum FlipFastPath {
    /// More digits than this may not fit an Int64, and no card or id a bot sends needs them.
    static let maxDigits = 18

    private static let prefix = Array(#"{"type":"flip","card":"#.utf8)
    private static let idKey = Array(#","id":"#.utf8)

    static func decode(_ line: UnsafeRawBufferPointer) -> Request? {
        guard line.count > prefix.count + 1, line.last == UInt8(ascii: "}"),
              line.starts(with: prefix) else { return nil }
        var index = prefix.count
        guard let card = number(in: line, at: &index) else { return nil }
        let end = line.count - 1
        if index == end { return Request(id: nil, .flip(card: card)) }
        guard line[index...].starts(with: idKey) else { return nil }
        index += idKey.count
        guard let id = number(in: line, at: &index), index == end else { return nil }
        return Request(id: .integer(Int64(id)), .flip(card: card))
    }

    /// A JSON non-negative integer starting at `index`, which moves past it.
    private static func number(in line: UnsafeRawBufferPointer, at index: inout Int) -> Int? {
        let start = index
        var value = 0
        while index < line.count, line[index] >= UInt8(ascii: "0"), line[index] <= UInt8(ascii: "9") {
            // Checked before the digit is added, so no number of digits can overflow `value`.
            guard index - start < maxDigits else { return nil }
            value = value * 10 + Int(line[index] - UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - start
        guard digits > 0 else { return nil }
        guard digits == 1 || line[start] != UInt8(ascii: "0") else { return nil } // JSON has no leading zeros
        return value
    }
}
