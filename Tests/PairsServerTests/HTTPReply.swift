import Foundation

/// An HTTP response as a test reads it from the socket: the status, the header fields, the body.
struct HTTPReply: CustomStringConvertible {
    var status: Int
    var fields: [(name: String, value: String)]
    var body: [UInt8]

    /// Parses everything the server sent before closing; nil when it is not one whole HTTP/1.1 response
    /// whose `Content-Length` (when there is one) matches the body, or has no body when it answers `HEAD`.
    init?(_ bytes: [UInt8], answering request: [UInt8] = []) {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else { return nil }
        self.status = status
        fields = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body = Array(bytes[end.upperBound...])
        if request.starts(with: Array("HEAD ".utf8)) {
            guard body.isEmpty else { return nil }
        } else if let length = self["Content-Length"], Int(length) != body.count {
            return nil
        }
    }

    /// The value of the field called `name` (in any case), if there is one.
    subscript(name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    var description: String { "\(status) \(fields.map { "\($0.name): \($0.value)" }) \(text.prefix(80).debugDescription)" }
}
