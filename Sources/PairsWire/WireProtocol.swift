/// The version of protocol.md this module speaks.
public enum WireProtocol {
    /// Sent in `welcome`; a `hello` asking for another version gets `unsupported_protocol`.
    public static let version = 1
}
