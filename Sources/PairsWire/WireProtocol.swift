/// The version of protocol.md this module speaks, and where it is spoken by default.
public enum WireProtocol {
    /// Sent in `welcome`; a `hello` asking for another version gets `unsupported_protocol`.
    public static let version = 1
    /// The TCP port protocol.md names: `pairs serve` listens on it, and every client connects to it, unless
    /// told otherwise.
    public static let defaultPort = 7777
}
