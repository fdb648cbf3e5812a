/// The `id` a client may put on any request. Every reply, error and broadcast event caused by the request
/// carries it back unchanged, so a client can match answers to questions.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
    case integer(Int64)
    case string(String)

    /// A string id is echoed into every broadcast it causes; bounding it keeps the longest state line
    /// under the protocol's line limit.
    public static let maxStringBytes = 64

    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): value
        }
    }
}
