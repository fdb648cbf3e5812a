/// Where a server listens, as clients, `pairs load` and the instances of a cluster name it: a host name
/// (`localhost`, `game.lan`) or a numeric IPv4 or IPv6 address, and a TCP port.
public struct ServerEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String = "localhost", port: Int = WireProtocol.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST:PORT` or `[V6]:PORT`. A host alone (`game.lan`, `::1`, `[::1]`) takes `defaultPort`,
    /// or is refused when there is none. Nil when the port is not one or the host is empty.
    public init?(_ text: String, defaultPort: Int? = nil) {
        var host = Substring(text), port = defaultPort
        if text.hasPrefix("[") {
            guard let end = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<end]
            let rest = text[text.index(after: end)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = text.firstIndex(of: ":"), text.lastIndex(of: ":") == colon {
            // One colon: HOST:PORT. More than one without brackets: an IPv6 address alone.
            guard let number = Int(text[text.index(after: colon)...]) else { return nil }
            host = text[..<colon]
            port = number
        }
        guard !host.isEmpty, let port, (1...65535).contains(port) else { return nil }
        self.init(host: String(host), port: port)
    }

    /// `HOST:PORT`, with an IPv6 address in brackets so the port stays unambiguous (`[::1]:7777`); what
    /// `init?(_:defaultPort:)` reads back.
    public var description: String {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare.contains(":") ? "[\(bare)]:\(port)" : "\(bare):\(port)"
    }
}
