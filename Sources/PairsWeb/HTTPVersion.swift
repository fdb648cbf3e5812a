/// The HTTP versions a request line may name: the two of HTTP/1 (RFC 9112).
public enum HTTPVersion: Sendable, Hashable {
    case http1_0
    case http1_1
}
