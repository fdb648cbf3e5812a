import PairsLobby
import PairsRules

/// The addresses that loaded the client page (or opened its WebSocket) lately: a silent connection from one
/// of them may be a browser's socket opened ahead of need, so it is never greeted before it speaks.
///
/// Browsers open sockets before they need them (Chromium preconnects as it predicts a page load or a
/// reload) and may leave one unused for many seconds before sending a request on it. Greeted with
/// `welcome`, such a socket hands the browser a JSON line where it expects an HTTP response, and the page
/// fails to load (Chromium: ERR_INVALID_HTTP_RESPONSE), however long the server waited first. So a
/// connection from an address that loaded the page within `memoryMilliseconds` is greeted only once it has
/// said something, and closed without a byte if it stays silent for
/// `ServerConfiguration.WebOptions.pageVisitorSilenceMilliseconds`; whatever it sends first still decides
/// at once, so a bot on the same machine that speaks first is not held up.
public struct PageVisitors: Sendable {
    /// How long an address is remembered after it last loaded the page, in milliseconds: an evening of
    /// reloads keeps a player's address fresh, and a machine that stopped browsing the page soon gets the
    /// short wait back.
    public static let memoryMilliseconds: Int64 = 10 * 60 * 1000
    /// Addresses remembered at most, so the table stays small whoever loads the page from however many
    /// addresses; a LAN has far fewer machines. When it is full, the address seen longest ago goes.
    public static let maxAddresses = 4096

    private var lastVisits: [String: Moment] = [:]
    /// How many of the page's WebSockets are open from each address: one that has the page open is
    /// remembered however long ago it loaded it. At most one entry per open WebSocket.
    private var openWebSockets: [String: Int] = [:]
    /// The address each open WebSocket of the page came from, by connection: its close is noted by the
    /// connection alone, on whichever loop it ends (the peer may be gone by then).
    private var webSocketHosts: [ConnectionID: String] = [:]

    public init() {}

    /// How many addresses are remembered, recent or not.
    public var count: Int { lastVisits.count }

    /// Notes that `host` loaded the page at `now`.
    public mutating func record(_ host: String, at now: Moment) {
        if lastVisits[host] == nil, lastVisits.count >= Self.maxAddresses {
            forgetOld(at: now)
            if lastVisits.count >= Self.maxAddresses, let oldest = lastVisits.min(by: { $0.value < $1.value }) {
                lastVisits[oldest.key] = nil
            }
        }
        lastVisits[host] = now
    }

    /// Notes that `host` opened a WebSocket, `connection`, at `now`: it has the page open until the
    /// WebSocket closes.
    public mutating func webSocketOpened(_ host: String, by connection: ConnectionID, at now: Moment) {
        guard webSocketHosts.updateValue(host, forKey: connection) == nil else { return }
        record(host, at: now)
        openWebSockets[host, default: 0] += 1
    }

    /// Notes that `connection` closed at `now`. If it was one of the page's WebSockets, the page may be
    /// reloading, so its address is remembered for `memoryMilliseconds` from now; any other is no news.
    public mutating func closed(_ connection: ConnectionID, at now: Moment) {
        guard let host = webSocketHosts.removeValue(forKey: connection) else { return }
        record(host, at: now)
        guard let open = openWebSockets[host] else { return }
        openWebSockets[host] = open > 1 ? open - 1 : nil
    }

    /// Whether `host` has a WebSocket open, or loaded the page (or closed a WebSocket) within
    /// `memoryMilliseconds` of `now`.
    public func loadedThePageRecently(_ host: String, at now: Moment) -> Bool {
        // Most servers never serve the page: their accepts skip hashing the address.
        guard !lastVisits.isEmpty else { return false }
        if openWebSockets[host] != nil { return true }
        guard let last = lastVisits[host] else { return false }
        return last.milliseconds(until: now) <= Self.memoryMilliseconds
    }

    private mutating func forgetOld(at now: Moment) {
        lastVisits = lastVisits.filter { $0.value.milliseconds(until: now) <= Self.memoryMilliseconds }
    }
}
