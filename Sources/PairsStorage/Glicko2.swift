#if canImport(Glibc)
import Glibc
#endif

/// A Glicko-2 rating: the estimate of a player's strength, how sure it is, and how erratic the player is.
///
/// Computed exactly as in Mark Glickman's "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf),
/// steps 1-8, on the Glicko scale (1500 is average). The store treats each rated game as a rating period
/// of its own for both players, as lichess does, so a rating moves as soon as a game ends.
struct Glicko2Rating: Sendable, Hashable {
    /// The strength estimate; 1500 is where everyone starts.
    var rating: Double
    /// The rating deviation (RD): how far off `rating` may be. Shrinks with every game.
    var deviation: Double
    /// The volatility: how much the player's strength is expected to swing.
    var volatility: Double

    init(rating: Double, deviation: Double, volatility: Double) {
        self.rating = rating
        self.deviation = deviation
        self.volatility = volatility
    }

    /// A newcomer: the paper's suggested starting values (1500, RD 350, volatility 0.06).
    static let initial = Glicko2Rating(rating: 1500, deviation: 350, volatility: 0.06)

    /// A deviation above this means the rating is still a guess, shown with a `?`: lichess's threshold.
    static let provisionalDeviation = 110.0

    /// Whether the rating is still provisional.
    var isProvisional: Bool { deviation > Self.provisionalDeviation }

    /// The system constant τ, which bounds how fast volatility changes. Glickman gives 0.3 to 1.2 as
    /// reasonable, smaller values keeping volatility (and so ratings) from jumping on improbable results.
    /// lichess, which rates many short games between players of every level, uses 0.75; Pairs is the same
    /// shape: short games with luck in every result (which a large τ would mistake for changes in strength)
    /// and bots whose strength changes in jumps with a new version (which a very small τ would follow
    /// slowly). So 0.75, as lichess.
    static let productionTau = 0.75

    /// The rating after one rating period with `results`: each opponent's rating at the start of the period
    /// and the score against them (1 win, 0.5 draw, 0 loss). No results: only the deviation grows (step 6).
    func updated(with results: [(opponent: Glicko2Rating, score: Double)], tau: Double) -> Glicko2Rating {
        // Step 2: onto the Glicko-2 scale.
        let mu = (rating - 1500) / Self.scale
        let phi = deviation / Self.scale
        guard !results.isEmpty else {
            let grown = (phi * phi + volatility * volatility).squareRoot()
            return Glicko2Rating(rating: rating, deviation: grown * Self.scale, volatility: volatility)
        }
        // Steps 3 and 4: the estimated variance `v` from the games alone, and the improvement `delta`.
        var inverseVariance = 0.0
        var weightedSurprise = 0.0
        for (opponent, score) in results {
            let opponentMu = (opponent.rating - 1500) / Self.scale
            let g = Self.g(opponent.deviation / Self.scale)
            let expected = 1 / (1 + exp(-g * (mu - opponentMu)))
            inverseVariance += g * g * expected * (1 - expected)
            weightedSurprise += g * (score - expected)
        }
        let v = 1 / inverseVariance
        let delta = v * weightedSurprise
        // Step 5: the new volatility.
        let sigma = Self.newVolatility(phi: phi, sigma: volatility, v: v, delta: delta, tau: tau)
        // Steps 6 and 7: the new deviation and rating.
        let phiStar = (phi * phi + sigma * sigma).squareRoot()
        let newPhi = 1 / (1 / (phiStar * phiStar) + 1 / v).squareRoot()
        let newMu = mu + newPhi * newPhi * weightedSurprise
        // Step 8: back onto the Glicko scale.
        return Glicko2Rating(rating: newMu * Self.scale + 1500, deviation: newPhi * Self.scale, volatility: sigma)
    }

    /// The factor between the two scales, 400 / ln 10.
    static let scale = 173.7178

    /// The paper's g(φ), which discounts a result by how unsure the opponent's rating is.
    private static func g(_ phi: Double) -> Double {
        1 / (1 + 3 * phi * phi / (Double.pi * Double.pi)).squareRoot()
    }

    /// The paper's convergence tolerance for step 5.
    private static let epsilon = 0.000001

    /// The most iterations of step 5's root search. The Illinois algorithm converges in well under twenty
    /// on any real input; the bound only keeps a NaN from looping for ever.
    private static let maxIterations = 100

    /// Step 5: the volatility that solves f(x) = 0, by the Illinois algorithm exactly as the paper gives it.
    private static func newVolatility(phi: Double, sigma: Double, v: Double, delta: Double, tau: Double) -> Double {
        let a = log(sigma * sigma)
        func f(_ x: Double) -> Double {
            let ex = exp(x)
            let denominator = phi * phi + v + ex
            return ex * (delta * delta - phi * phi - v - ex) / (2 * denominator * denominator) - (x - a) / (tau * tau)
        }
        var lower = a
        var upper: Double
        if delta * delta > phi * phi + v {
            upper = log(delta * delta - phi * phi - v)
        } else {
            var k = 1.0
            while f(a - k * tau) < 0, k < Double(maxIterations) { k += 1 }
            upper = a - k * tau
        }
        var fLower = f(lower)
        var fUpper = f(upper)
        var iterations = 0
        while abs(upper - lower) > epsilon, iterations < maxIterations {
            iterations += 1
            let c = lower + (lower - upper) * fLower / (fUpper - fLower)
            let fC = f(c)
            if fC * fUpper <= 0 {
                lower = upper
                fLower = fUpper
            } else {
                fLower /= 2
            }
            upper = c
            fUpper = fC
        }
        return exp(lower / 2)
    }
}
