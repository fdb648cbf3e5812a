/// Where an HTTP request goes, by its path (the query is the page's to read): the server's whole site.
enum WebRoute: Sendable, Hashable {
    /// `/`: the client page (`ClientPage`).
    case page
    /// `/ws`: the WebSocket whose text frames carry protocol.md's messages.
    case webSocket
    /// `/stats`: the `stats` message's counters, as JSON, for operators and monitoring.
    case statistics
    /// `/metrics`: the same counters in Prometheus's text format (`ServerMetrics`).
    case metrics
    /// `/dashboard`: a page that draws the counters live (`DashboardPage`); 404 with `--dashboard off`.
    case dashboard
    /// Anything else: 404.
    case notFound

    init(path: Substring) {
        switch path {
        case "/": self = .page
        case "/ws": self = .webSocket
        case "/stats": self = .statistics
        case "/metrics": self = .metrics
        case "/dashboard": self = .dashboard
        default: self = .notFound
        }
    }
}
