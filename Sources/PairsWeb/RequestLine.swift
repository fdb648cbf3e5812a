/// The first line of an HTTP/1 request as this server understands it, and the one grammar that both the
/// connection sniffer and the request parser read it with, so they can never disagree on what is HTTP.
///
/// The grammar is RFC 9112's request line narrowed to what a browser sends this server:
///
/// ```
/// request-line = method SP "/" *target-byte SP "HTTP/1." ("0" / "1") [CR] LF
/// method       = 1*20( "A"-"Z" / "-" )        ; registered methods are upper case
/// target-byte  = %x21-7E                       ; visible ASCII: browsers percent-encode the rest
/// ```
///
/// Only the origin form of a target (starting with `/`) is accepted: absolute-form is for proxies, and `*` for
/// `OPTIONS`, neither of which this server is. Lower-case methods are not methods, which keeps every
/// text command a person types in netcat (`get`, `join kitchen`, `say /me waves`) out of HTTP.
struct RequestLine: Sendable, Hashable {
    /// The method token, such as `GET`.
    var method: String
    /// The request target, starting with `/`.
    var target: String
    var version: HTTPVersion

    /// The longest method token, in bytes.
    ///
    /// The longest registered method (`UPDATEREDIRECTREF`) has 17; past this, a run of capital letters is
    /// someone shouting in netcat, and the sniffer can stop waiting for a space.
    static let maxMethodBytes = 20

    /// What the bytes at the start of a stream hold, as far as the request line goes.
    enum Scan: Hashable {
        /// A whole request line, `length` bytes including its terminator.
        case complete(RequestLine, length: Int)
        /// Every byte so far can start a request line, but its end has not arrived.
        case incomplete
        /// These bytes cannot start a request line.
        case mismatch
    }

    /// Reads a request line from the start of `bytes`, which may hold less or more than the line.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> Scan {
        var reader = Reader(bytes: bytes)
        return reader.scan()
    }

    /// A cursor over the bytes being scanned; each step either moves on or says why the scan stopped.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        /// Why a step could not continue.
        enum Stop: Error {
            case needMoreBytes
            case mismatch
        }

        mutating func scan() -> Scan {
            do throws(Stop) {
                let methodEnd = try skip(while: Self.isMethodByte, atMost: maxMethodBytes)
                guard methodEnd > 0 else { return .mismatch }
                try expect(UInt8(ascii: " "))
                let targetStart = offset
                try expect(UInt8(ascii: "/"))
                let targetEnd = try skip(while: Self.isTargetByte, atMost: Int.max)
                try expect(UInt8(ascii: " "))
                for byte in "HTTP/1.".utf8 {
                    try expect(byte)
                }
                let version: HTTPVersion = switch try next() {
                case UInt8(ascii: "0"): .http1_0
                case UInt8(ascii: "1"): .http1_1
                default: throw .mismatch
                }
                if try peek() == UInt8(ascii: "\r") {
                    offset += 1
                }
                try expect(UInt8(ascii: "\n"))
                let line = RequestLine(
                    method: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<methodEnd]), as: UTF8.self),
                    target: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[targetStart..<targetEnd]), as: UTF8.self),
                    version: version)
                return .complete(line, length: offset)
            } catch .needMoreBytes {
                return .incomplete
            } catch {
                return .mismatch
            }
        }

        /// The next byte, consumed.
        mutating func next() throws(Stop) -> UInt8 {
            let byte = try peek()
            offset += 1
            return byte
        }

        /// The next byte, not consumed.
        func peek() throws(Stop) -> UInt8 {
            guard offset < bytes.count else { throw .needMoreBytes }
            return bytes[offset]
        }

        /// Consumes `byte`, or stops.
        mutating func expect(_ byte: UInt8) throws(Stop) {
            guard try next() == byte else { throw .mismatch }
        }

        /// Consumes bytes while `accepts` them, at most `limit` of them, and returns the offset after them.
        /// Running out of bytes inside the run is `needMoreBytes`; a longer run is a mismatch.
        mutating func skip(while accepts: (UInt8) -> Bool, atMost limit: Int) throws(Stop) -> Int {
            let start = offset
            while try accepts(peek()) {
                offset += 1
                guard offset - start <= limit else { throw .mismatch }
            }
            return offset
        }

        static func isMethodByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-")
        }

        static func isTargetByte(_ byte: UInt8) -> Bool {
            (0x21...0x7E).contains(byte)
        }
    }
}
