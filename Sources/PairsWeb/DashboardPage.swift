/// The live dashboard (`Page/dashboard.html`): one HTML document with its CSS and JavaScript inline,
/// compiled into the binary as the client page is. It polls `/stats` every second and draws connections,
/// rooms, games, flips and messages a second, answer latency p50/p99, errors by code and the store's health
/// as inline SVG, from aggregates only: no card, token, name or address ever reaches it.
///
/// Stable hooks for tests: every counter shown as it is in `/stats` has `data-stat` (the field's name),
/// every chart line is a `path` with `data-series`, and `body[data-polls]` counts the polls drawn.
public enum DashboardPage {
    /// The document's bytes, as sent.
    public static let bytes: [UInt8] = PackageResources.dashboard_html

    /// The document as text, for tests and tools that read it.
    public static var html: String { String(decoding: bytes, as: UTF8.self) }

    /// The answer to `GET /dashboard`. Not cached: it is small, and a new server version must not hide
    /// behind an old copy.
    public static let response = HTTPResponse(
        status: .ok, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache"], body: bytes)
}
