import PairsRules

/// The addresses that loaded the client page lately: a silent connection from one of them may be a
/// browser's socket opened ahead of need, so its `welcome` waits longer.
///
/// Browsers open sockets before they need them (Chromium preconnects as it predicts a page load or a
/// reload) and may leave one unused for up to 10 s before sending a request on it. Greeted with `welcome`
/// after the usual short wait, such a socket hands the browser a JSON line where it expects an HTTP
/// response, and the page fails to load (Chromium: ERR_INVALID_HTTP_RESPONSE). So a connection from an
/// address that loaded the page within `memoryMilliseconds` waits `ServerConfiguration.pageVisitorWelcomeWaitMilliseconds`
/// for its first bytes instead; whatever it sends first still decides at once, so a bot on the same
/// machine that speaks first is not held up.
public struct PageVisitors: Sendable {
    /// How long an address is remembered after it last loaded the page, in milliseconds: an evening of
    /// reloads keeps a player's address fresh, and a machine that stopped browsing the page soon gets the
    /// short wait back.
    public static let memoryMilliseconds: Int64 = 10 * 60 * 1000
    /// Addresses remembered at most, so the table stays small whoever loads the page from however many
    /// addresses; a LAN has far fewer machines. When it is full, the address seen longest ago goes.
    public static let maxAddresses = 4096

    private var lastVisits: [String: Moment] = [:]

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

    /// Whether `host` loaded the page within `memoryMilliseconds` of `now`.
    public func loadedThePageRecently(_ host: String, at now: Moment) -> Bool {
        // Most servers never serve the page: their accepts skip hashing the address.
        guard !lastVisits.isEmpty, let last = lastVisits[host] else { return false }
        return last.milliseconds(until: now) <= Self.memoryMilliseconds
    }

    private mutating func forgetOld(at now: Moment) {
        lastVisits = lastVisits.filter { $0.value.milliseconds(until: now) <= Self.memoryMilliseconds }
    }
}
