import PairsRules

/// Card faces seen by a scanner, each given a small number the first time it is seen, so that a state's
/// cards can be held as numbers (no string per card per state) and compared by number.
///
/// Faces are short words (`cat`, `owl`) or playing cards (`10♥`, five bytes): any face of up to 7 bytes is
/// packed with its length into one `UInt64` and looked up by that; longer ones, which the server does not
/// deal today, go through a dictionary of byte arrays.
public struct FaceTable: Sendable {
    private var shortFaces: [UInt64: Int32] = [:]
    private var longFaces: [[UInt8]: Int32] = [:]
    /// Face names by number.
    public private(set) var names: [String] = []
    /// The playing card each face shows, by number (nil for a word): read once, when the face is first
    /// met, so a bot playing with a deck of cards never parses a face again.
    public private(set) var cards: [PlayingCard?] = []

    /// Faces kept at most: a board has at most 32 distinct faces, so only a hostile or broken server could
    /// send more, and it should not make the load client grow without bound.
    public static let maxFaces = 4096

    public init() {}

    /// The number of the face spelled by `bytes` (valid UTF-8, no escapes), or nil when the table is full.
    @inline(__always)
    public mutating func number(of bytes: UnsafeRawBufferPointer) -> Int32? {
        if bytes.count <= 7 {
            var key = UInt64(bytes.count) << 56
            for (offset, byte) in bytes.enumerated() { key |= UInt64(byte) << UInt64(offset * 8) }
            if let number = shortFaces[key] { return number }
            guard let number = add(bytes) else { return nil }
            shortFaces[key] = number
            return number
        }
        let array = [UInt8](bytes)
        if let number = longFaces[array] { return number }
        guard let number = add(bytes) else { return nil }
        longFaces[array] = number
        return number
    }

    /// The number of the face `name`, or nil when the table is full.
    public mutating func number(of name: String) -> Int32? {
        var name = name
        return name.withUTF8 { number(of: UnsafeRawBufferPointer($0)) }
    }

    /// The face named `number`.
    public func name(_ number: Int32) -> String {
        names[Int(number)]
    }

    private mutating func add(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard names.count < Self.maxFaces else { return nil }
        let name = String(decoding: bytes, as: UTF8.self)
        names.append(name)
        cards.append(PlayingCard(face: name))
        return Int32(names.count - 1)
    }
}
