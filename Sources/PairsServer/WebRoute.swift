/// Where an HTTP request goes, by its path (the query is the page's to read): the server's whole site.
enum WebRoute: Sendable, Hashable {
    /// `/`: the client page (`ClientPage`).
    case page
    /// `/ws`: the WebSocket whose text frames carry protocol.md's messages.
    case webSocket
    /// `/stats`: the `stats` message's counters, as JSON, for operators and monitoring.
    case statistics
    /// Anything else: 404.
    case notFound

    init(path: Substring) {
        switch path {
        case "/": self = .page
        case "/ws": self = .webSocket
        case "/stats": self = .statistics
        default: self = .notFound
        }
    }
}
