import PairsLobby
import PairsRules
import PairsStorage
import PairsWire

/// The store's records as the wire's messages: the answers to history questions and name checks, worked
/// out on the storage queue and the hashing pool, never on a loop's.
enum StoreAnswers {
    /// The store's answer to `query`, or the error to send instead.
    static func ask(_ store: any PairsStore, _ query: StorageQuery, request: RequestID?) -> ServerMessage {
        do throws(StoreError) {
            switch query {
            case .history(let name, let ladder, let tournament, let limit, let before):
                let entries = try store.history(name: name, ladder: ladder, tournament: tournament, limit: limit,
                                                before: before.map(GameID.init))
                let games = entries.compactMap { StoredGames.summary(id: $0.id, of: $0.summary, flips: $0.flips) }
                return .history(HistoryPage(games: games, id: request))
            case .replay(let game):
                guard let stored = try store.replay(GameID(game)), let replay = StoredGames.replay(stored, id: request) else {
                    return .error(RequestError(.noSuchGame, "no finished game is number \(game)", id: request))
                }
                return .replay(replay)
            case .leaderboard(let variant, let limit, let soloBy):
                let ladder = RulesJSON.ladder(of: variant)
                if variant.seats == .one {
                    let ranking: SoloRanking = soloBy == .time ? .bestTime : .fewestFlips
                    let places = try store.soloLeaderboard(ladder: ladder, ranking: ranking, limit: limit)
                        .map { Place(rank: $0.rank, standing: StoredGames.standing($0.record)) }
                    return .leaderboard(Leaderboard(variant: variant, places: .solo(places, by: soloBy), id: request))
                }
                let places = try store.leaderboard(ladder: ladder, limit: limit)
                    .map { Place(rank: $0.rank, standing: StoredGames.standing($0.record)) }
                return .leaderboard(Leaderboard(variant: variant, places: .rated(places), id: request))
            case .profile(let name, let tournament):
                guard let profile = try store.profile(name: name, tournament: tournament) else {
                    return .profile(PlayerProfile(name: name, claimed: false, ratings: [], solo: [], totals: .none, games: [], id: request))
                }
                let ratings = profile.ratings.compactMap { record in
                    RulesJSON.variant(ofLadder: record.ladder).map { OnLadder(variant: $0, standing: StoredGames.standing(record)) }
                }
                let solo = profile.solo.compactMap { record in
                    RulesJSON.variant(ofLadder: record.ladder).map { OnLadder(variant: $0, standing: StoredGames.standing(record)) }
                }
                let games = profile.lastGames.compactMap { StoredGames.summary(id: $0.id, of: $0.summary, flips: $0.flips) }
                return .profile(PlayerProfile(name: profile.name, claimed: profile.isClaimed, ratings: ratings, solo: solo,
                                              totals: profile.totals, games: games, id: request))
            }
        } catch {
            return .error(RequestError(.noStorage, "the history cannot be read right now: \(error)", id: request))
        }
    }

    /// The store's word on a name and password, as the lobby takes it.
    static func claimOrVerify(_ name: String, password: String, in store: any PairsStore) -> NameCheckResult {
        do throws(StoreError) {
            switch try store.claimOrVerify(name: name, password: password) {
            case .claimed: return .claimed
            case .verified: return .verified
            case .wrongPassword: return .wrongPassword
            case .looksLike(let claimed): return .looksLike(claimedName: claimed)
            }
        } catch {
            if case .password(let problem) = error { return .unusablePassword(reason: problem.description) }
            return .unavailable
        }
    }
}
