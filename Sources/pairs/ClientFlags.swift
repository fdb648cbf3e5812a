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

    /// `--name`, cleaned as the server will clean it. A name the server would cut is refused here, so
    /// nobody sits down under a name they did not choose.
    func playerName() throws(UsageError) -> String? {
        guard let raw = string("name") else { return nil }
        guard let name = TextCleaner.cleanName(raw) else { throw UsageError("--name needs at least one printable character") }
        // Cleaned without the name's limit (a chat line's is far longer): whatever differs was cut.
        if let whole = TextCleaner.cleanChat(raw), whole != name {
            throw UsageError("--name '\(whole)' is too long: a name is \(TextCleaner.maxNameCharacters) characters at most")
        }
        return name
    }
}
