/// The ASCII bytes the wire formats are made of, named so that byte-level code reads like the grammar it
/// implements instead of like a table of hex numbers. Shared with the other modules that read and write the
/// wire byte by byte (the load client's state scanner) through `package` access, so each byte has one name.
///
/// The bytes are inlinable, so that in another module a byte is a constant again rather than a call: as
/// stored `let`s, reading them cost the load client's scanner about 5 % of its CPU at one game. The type is
/// `public` (its members are not) because a `package` type kept the compiler from inlining them into other
/// modules (Swift 6.3).
public enum ASCII {
    @inlinable package static var tab: UInt8 { 0x09 }
    @inlinable package static var newline: UInt8 { 0x0A }
    @inlinable package static var carriageReturn: UInt8 { 0x0D }
    @inlinable package static var space: UInt8 { 0x20 }
    @inlinable package static var quote: UInt8 { 0x22 }
    @inlinable package static var plus: UInt8 { 0x2B }
    @inlinable package static var comma: UInt8 { 0x2C }
    @inlinable package static var minus: UInt8 { 0x2D }
    @inlinable package static var period: UInt8 { 0x2E }
    @inlinable package static var slash: UInt8 { 0x2F }
    @inlinable package static var zero: UInt8 { 0x30 }
    @inlinable package static var one: UInt8 { 0x31 }
    @inlinable package static var nine: UInt8 { 0x39 }
    @inlinable package static var colon: UInt8 { 0x3A }
    @inlinable package static var upperA: UInt8 { 0x41 }
    @inlinable package static var upperE: UInt8 { 0x45 }
    @inlinable package static var upperF: UInt8 { 0x46 }
    @inlinable package static var leftBracket: UInt8 { 0x5B }
    @inlinable package static var backslash: UInt8 { 0x5C }
    @inlinable package static var rightBracket: UInt8 { 0x5D }
    @inlinable package static var lowerA: UInt8 { 0x61 }
    @inlinable package static var lowerB: UInt8 { 0x62 }
    @inlinable package static var lowerE: UInt8 { 0x65 }
    @inlinable package static var lowerF: UInt8 { 0x66 }
    @inlinable package static var lowerN: UInt8 { 0x6E }
    @inlinable package static var lowerR: UInt8 { 0x72 }
    @inlinable package static var lowerT: UInt8 { 0x74 }
    @inlinable package static var lowerU: UInt8 { 0x75 }
    @inlinable package static var leftBrace: UInt8 { 0x7B }
    @inlinable package static var rightBrace: UInt8 { 0x7D }
    @inlinable package static var delete: UInt8 { 0x7F }

    /// Whether `byte` is `0` through `9`.
    @inlinable @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool {
        byte &- zero < 10
    }
}
