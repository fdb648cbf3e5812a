import PairsTournament
import Testing

/// The Hamilton Chess Club championship 2018, 27 players, six rounds, as published with its tie-breaks at
/// https://hamiltonchess.net/2018/04/11/richard-on-tie-break/ ("Richard On Tie Break", 11 April 2018):
/// rank, name, score, then each round's result (+ win, = draw, - loss), colour and opponent's rank, or a
/// bye (a half-point `=BYE` or a whole `+BYE`). The page gives, for the two players tied on 5.5:
///
///     Pos Name         DirE Cmlt BucT S-B   Buc1
///     1   Richard_Dare 0.5  19.5 22.5 19.75 20.0
///     2   Graham_Nolan 0.5  19.5 20.0 17.25 19.5
///
/// BucT is the plain Buchholz and S-B the Sonneborn-Berger that `SwissTieBreaks` computes.
private let hamilton2018 = """
1 Richard_Dare 5.5 +W10 +B17 +W12 =W2 +B4 +B3
2 Graham_Nolan 5.5 +B27 +W16 +W9 =B1 +W8 +B10
3 Milton_Severinsen 4.0 =BYE +W11 +B6 =W4 +B5 -W1
4 Prashant_Mistry 4.0 +W22 +B15 =W8 =B3 -W1 +B13
5 William_Lynn 4.0 -W16 +B14 +W22 +B15 -W3 +B8
6 Gary_Judkins 4.0 -W21 +B27 -W3 +B23 +W16 +B14
7 Kevin_Li 4.0 -W9 -B23 +W27 +B19 +W15 +B12
8 William_Crombie 3.5 +B25 +W21 =B4 +W13 -B2 -W5
9 Hilton_Bennett 3.5 +B7 +W13 -B2 =BYE +W18
10 Michael_Lin 3.5 -B1 +W25 +W26 =B12 +B17 -W2
11 Murray_Tuatini 3.5 =BYE -B3 -W14 +B25 +W20 +W17
12 Eushin_Kang 3.0 +B20 +W18 -B1 =W10 =B14 -W7
13 Christopher_Symon 3.0 +W23 -B9 +W19 -B8 +W21 -W4
14 Ruchira_Silva 3.0 =BYE -W5 +B11 +B22 =W12 -W6
15 Rowan_Lightfoot 3.0 +B26 -W4 +B21 -W5 -B7 +W24
16 Leo_Dizon 3.0 +B5 -B2 -W17 +W24 -B6 +B22
17 Lara_Heppenstall 2.5 +B24 -W1 +B16 =BYE -W10 -B11
18 Ian_Kennedy 2.5 +W19 -B12 +W23 =BYE -B9
19 Joel_Crombie 2.5 -B18 +W20 -B13 -W7 =B25 +W21
20 Daniel_Dizon 2.5 -W12 -B19 =W25 +B27 -B11 +W26
21 Ronja_Ripp 2.0 +B6 -B8 -W15 +W26 -B13 -B19
22 Alex_Treat 2.0 -B4 +W24 -B5 -W14 +B26 -W16
23 Nathanial_Loy 2.0 -B13 +W7 -B18 -W6 -B24 +W27
24 Andy_Song 2.0 -W17 -B22 +BYE -B16 +W23 -B15
25 Sean_Clark 2.0 -W8 -B10 =B20 -W11 =W19 +BYE
26 Lasen_Silva 1.0 -W15 +BYE -B10 -B21 -W22 -B20
27 Maureen_Murphy 1.0 -W2 -W6 -B7 -W20 +BYE -B23
"""

private struct Crosstable {
    var names: [Int: String] = [:]
    var published: [String: Int] = [:]
    var entries: [String: [SwissEntry]] = [:]

    init(_ text: String) throws {
        let rows = text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        for row in rows { names[Int(row[0])!] = row[1] }
        for row in rows {
            let name = row[1]
            published[name] = Int(Double(row[2])! * 2)
            entries[name] = try row.dropFirst(3).map { cell in
                let points = try #require(["+": 2, "=": 1, "-": 0][cell.first!])
                let rest = cell.dropFirst()
                if rest == "BYE" { return SwissEntry(opponent: nil, points: points) }
                let opponent = try #require(names[Int(rest.dropFirst())!])
                return SwissEntry(opponent: opponent, points: points, seat: rest.first == "W" ? 0 : 1)
            }
        }
    }
}

@Suite("Swiss tie-breaks")
struct TieBreakTests {
    @Test("the published crosstable is transcribed right: every game reads the same from both sides and every score adds up")
    func crosstableIsConsistent() throws {
        let table = try Crosstable(hamilton2018)
        #expect(table.entries.count == 27)
        #expect(SwissTieBreaks.scores(table.entries) == table.published)
        for (name, entries) in table.entries {
            for entry in entries {
                guard let opponent = entry.opponent else { continue }
                let back = table.entries[opponent]!.filter { $0.opponent == name }
                #expect(back.count == 1, "\(name) v \(opponent)")
                #expect(back.first.map { $0.points + entry.points } == 2, "\(name) v \(opponent)")
            }
        }
    }

    @Test("Buchholz and Sonneborn-Berger reproduce the Hamilton 2018 championship's published values: 22.5 and 19.75 for Richard Dare, 20.0 and 17.25 for Graham Nolan")
    func hamiltonTieBreaks() throws {
        let table = try Crosstable(hamilton2018)
        let scores = SwissTieBreaks.scores(table.entries)
        // Half-points and quarter-points.
        #expect(SwissTieBreaks.buchholz(of: "Richard_Dare", in: table.entries, scores: scores) == 45)
        #expect(SwissTieBreaks.sonnebornBerger(of: "Richard_Dare", in: table.entries, scores: scores) == 79)
        #expect(SwissTieBreaks.buchholz(of: "Graham_Nolan", in: table.entries, scores: scores) == 40)
        #expect(SwissTieBreaks.sonnebornBerger(of: "Graham_Nolan", in: table.entries, scores: scores) == 69)
    }

    @Test("the standings put the higher Buchholz first among equal scores, and number every player")
    func standingsOrder() throws {
        let table = try Crosstable(hamilton2018)
        let rows = SwissTieBreaks.standings(table.entries, ratings: [:])
        #expect(rows.prefix(2).map(\.name) == ["Richard_Dare", "Graham_Nolan"])
        #expect(rows.map(\.rank) == Array(1...27))
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.score >= $1.score })
        #expect(rows.first { $0.name == "Hilton_Bennett" }?.games == 4)
    }

    @Test("Sonneborn-Berger breaks a tie of score and Buchholz: a win against the stronger opponent counts more")
    func sonnebornBergerBreaksBuchholzTie() {
        // a beat c (who ends on 2 points) and lost to d (1 point); b beat d and lost to c.
        let entries: [String: [SwissEntry]] = [
            "a": [SwissEntry(opponent: "c", points: 2), SwissEntry(opponent: "d", points: 0)],
            "b": [SwissEntry(opponent: "d", points: 2), SwissEntry(opponent: "c", points: 0)],
            "c": [SwissEntry(opponent: "a", points: 0), SwissEntry(opponent: "b", points: 2), SwissEntry(opponent: nil, points: 2)],
            "d": [SwissEntry(opponent: "b", points: 0), SwissEntry(opponent: "a", points: 2)],
        ]
        let rows = SwissTieBreaks.standings(entries, ratings: ["a": 1000, "b": 2000])
        let a = rows.first { $0.name == "a" }!, b = rows.first { $0.name == "b" }!
        #expect(a.score == b.score && a.buchholz == b.buchholz)
        #expect(a.sonnebornBerger! > b.sonnebornBerger!)
        #expect(a.rank < b.rank)
    }
}
