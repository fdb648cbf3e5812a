import PairsRules
import Testing

@Test("boards are laid out as close to square as their card count allows", arguments: [
    (4, 2, 2), (6, 2, 3), (12, 3, 4), (16, 4, 4), (20, 4, 5), (36, 6, 6), (62, 2, 31), (64, 8, 8),
])
func layoutIsAsSquareAsPossible(cards: Int, rows: Int, columns: Int) {
    let layout = BoardLayout(cardCount: cards)
    #expect(layout.rows == rows)
    #expect(layout.columns == columns)
}

@Test("SplitMix64 produces the published reference sequence for seed 0")
func splitMixMatchesReference() {
    var generator = SplitMix64(seed: 0)
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(generator.next() == 0x06C4_5D18_8009_454F)
}

@Test("bounded draws stay in range and cover every value")
func boundedDrawsCoverTheRange() {
    var generator = SplitMix64(seed: 42)
    var seen = Set<Int>()
    for _ in 0..<1000 {
        let value = generator.next(below: 7)
        #expect((0..<7).contains(value))
        seen.insert(value)
    }
    #expect(seen.count == 7)
}

@Test("the face catalogue has 32 distinct short printable faces")
func facesAreDistinctAndPrintable() {
    #expect(Faces.all.count == RuleSet.pairsLimits.upperBound)
    #expect(Set(Faces.all).count == Faces.all.count)
    for face in Faces.all {
        #expect(face.utf8.count <= 5)
        #expect(face.utf8.allSatisfy { (0x21...0x7E).contains($0) })
    }
}

@Test("options outside their ranges are refused with the offending value")
func optionsAreValidated() {
    #expect(throws: RuleError.pairsOutOfRange(1, allowed: 2...32, variant: .classic)) {
        try RuleSet(pairs: 1, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true).validate()
    }
    #expect(throws: RuleError.pairsOutOfRange(33, allowed: 2...32, variant: .classic)) {
        try RuleSet(pairs: 33, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true).validate()
    }
    #expect(throws: RuleError.turnSecondsOutOfRange(-1)) {
        try RuleSet(pairs: 8, turnSeconds: -1, revealMilliseconds: 0, againOnMatch: true).validate()
    }
    #expect(throws: RuleError.revealMillisecondsOutOfRange(60_001)) {
        try RuleSet(pairs: 8, turnSeconds: 0, revealMilliseconds: 60_001, againOnMatch: true).validate()
    }
    #expect(throws: Never.self) { try RuleSet.standard.validate() }
}
