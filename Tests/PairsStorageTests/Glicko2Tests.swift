@testable import PairsStorage
import Testing

@Test("Glicko-2 reproduces the worked example in Glickman's paper to its printed precision")
func glickoMatchesThePaper() {
    // "Example of the Glicko-2 system", section "Example calculation": a 1500/200/0.06 player beats a
    // 1400/30 player and loses to 1550/100 and 1700/300, with tau 0.5.
    let player = Glicko2Rating(rating: 1500, deviation: 200, volatility: 0.06)
    let results: [(opponent: Glicko2Rating, score: Double)] = [
        (Glicko2Rating(rating: 1400, deviation: 30, volatility: 0.06), 1),
        (Glicko2Rating(rating: 1550, deviation: 100, volatility: 0.06), 0),
        (Glicko2Rating(rating: 1700, deviation: 300, volatility: 0.06), 0),
    ]
    let after = player.updated(with: results, tau: 0.5)
    // The paper prints 1464.06, 151.52 and 0.05999, computed from intermediate values it rounded to four
    // places (v = 1.7785, Δ = -0.4834): the exact computation lands within a unit of the last printed place.
    #expect(abs(after.rating - 1464.06) < 0.01)
    #expect(abs(after.deviation - 151.52) < 0.01)
    #expect(abs(after.volatility - 0.05999) < 0.00001)
    // In full precision, as an independent transcription of the paper's steps (Python, doubles) gives.
    #expect(abs(after.rating - 1464.05067) < 0.00001)
    #expect(abs(after.deviation - 151.51652) < 0.00001)
    #expect(abs(after.volatility - 0.05999598) < 0.00000001)
}

@Test("a rating period without games only widens the deviation, by the volatility")
func idlePeriodWidensDeviation() {
    let player = Glicko2Rating(rating: 1500, deviation: 200, volatility: 0.06)
    let after = player.updated(with: [], tau: 0.5)
    #expect(after.rating == 1500)
    #expect(after.volatility == 0.06)
    // The paper's step 6 for a player who did not compete: phi' = sqrt(phi^2 + sigma^2).
    let phi = 200 / Glicko2Rating.scale
    #expect(abs(after.deviation - (phi * phi + 0.06 * 0.06).squareRoot() * Glicko2Rating.scale) < 1e-9)
}

@Test("a win raises a rating and narrows its deviation; the loser moves down by as much between equals")
func oneGameBetweenEquals() {
    let start = Glicko2Rating.initial
    let winner = start.updated(with: [(start, 1)], tau: Glicko2Rating.productionTau)
    let loser = start.updated(with: [(start, 0)], tau: Glicko2Rating.productionTau)
    #expect(winner.rating > 1500)
    #expect(abs((winner.rating - 1500) - (1500 - loser.rating)) < 1e-9)
    #expect(winner.deviation < start.deviation)
    #expect(winner.isProvisional)
    let draw = start.updated(with: [(start, 0.5)], tau: Glicko2Rating.productionTau)
    #expect(abs(draw.rating - 1500) < 1e-9)
}

@Test("provisional means a deviation above 110, as lichess shows it with a question mark")
func provisionalThreshold() {
    #expect(Glicko2Rating(rating: 1500, deviation: 110.5, volatility: 0.06).isProvisional)
    #expect(!Glicko2Rating(rating: 1500, deviation: 110, volatility: 0.06).isProvisional)
}
