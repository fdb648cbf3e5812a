import PairsWeb
import PairsWire

extension ByeReason {
    /// The code of the close frame that follows `bye` on a WebSocket (RFC 6455 §7.4.1), whose reason is the
    /// `bye` reason's name: a browser that shows only the close event still learns why.
    var closeCode: WebSocketCloseCode {
        switch self {
        case .shutdown: .goingAway
        case .flooding, .tooSlow: .policyViolation
        case .serverFull: .tryAgainLater
        case .quit, .idle, .replaced: .normalClosure
        }
    }
}
