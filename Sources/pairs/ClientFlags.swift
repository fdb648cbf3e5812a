import PairsClient
import PairsRules
import PairsWire

/// The flags `pairs play` and `pairs bot` share, checked the same way for both.
extension Flags {
    /// `--host` and `--port`, defaulting to localhost:7777.
    func endpoint() throws(UsageError) -> ServerEndpoint {
        var endpoint = ServerEndpoint()
        if let host = string("host") {
            guard !host.isEmpty else { throw UsageError("--host needs a host name or address") }
            endpoint.host = host
        }
        endpoint.port = try integer("port", in: 1...65535) ?? endpoint.port
        return endpoint
    }

    /// A room name from `flag`, checked against the protocol's rules.
    func room(_ flag: String) throws(UsageError) -> String? {
        guard let room = string(flag) else { return nil }
        guard RoomName.isValid(room) else {
            throw UsageError("--\(flag) must be 1-\(RoomName.maxLength) letters, digits, - or _, not '\(room)'")
        }
        return room
    }

    /// `--name`, cleaned as the server will clean it.
    func playerName() throws(UsageError) -> String? {
        guard let raw = string("name") else { return nil }
        guard let name = TextCleaner.cleanName(raw) else { throw UsageError("--name needs at least one printable character") }
        return name
    }
}
