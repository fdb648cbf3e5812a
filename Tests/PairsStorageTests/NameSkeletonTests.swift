@testable import PairsStorage
import PairsTestSupport
import Testing

@Suite("Claimed names that look alike")
struct NameSkeletonTests {
    /// `ann` and the look-alikes claimed beside it on a live server: case, fullwidth, Cyrillic `а`, a
    /// combining long stroke, Armenian `ո`, and a few more of the same kind.
    static let lookalikesOfAnn = ["ann", "Ann", "ANN", "ａｎｎ", "\u{0430}nn", "ann\u{0336}", "an\u{0578}", "\u{00E1}nn",
                                  "a\u{0301}nn", "ann\u{200B}", "𝐚𝐧𝐧", "Ａnn", "\u{0391}NN"]

    @Test("every look-alike of ann has ann's skeleton", arguments: lookalikesOfAnn)
    func lookalikesShareASkeleton(name: String) {
        #expect(NameSkeleton.of(name) == "ann")
    }

    @Test("names a reader tells apart keep different skeletons")
    func differentNamesStayDifferent() {
        let names = ["ann", "anna", "bob", "ben", "an", "nan", "alice", "a-nn", "ann2", "émile", "zoë", "李"]
        #expect(Set(names.map(NameSkeleton.of)).count == names.count)
    }

    @Test("capital I, l, 1 and |; 0 and o; rn and m; vv and w look alike")
    func asciiLookalikes() {
        #expect(NameSkeleton.of("Ian") == NameSkeleton.of("lan"))
        #expect(NameSkeleton.of("b1ll") == NameSkeleton.of("bill") || NameSkeleton.of("b1ll") == NameSkeleton.of("bl|l"))
        #expect(NameSkeleton.of("b0b") == NameSkeleton.of("bob"))
        #expect(NameSkeleton.of("rnary") == NameSkeleton.of("mary"))
        #expect(NameSkeleton.of("vvill") == NameSkeleton.of("will"))
    }

    @Test("with ann claimed, no look-alike can be claimed: each is refused, naming ann, and nothing is written",
          arguments: BackEnd.tested)
    func claimsAreUniqueUnderTheSkeleton(_ backEnd: BackEnd) throws {
        let fixture = try BackEndFixture(backEnd)
        #expect(try fixture.store.claimOrVerify(name: "ann", password: "ann's secret") == .claimed)
        for name in Self.lookalikesOfAnn.dropFirst() {
            #expect(try fixture.store.claimOrVerify(name: name, password: "mallory") == .looksLike(claimedName: "ann"), "\(name)")
            #expect(fixture.store.standing(of: name) == .looksLike(claimedName: "ann"), "\(name)")
        }
        #expect(fixture.store.standing(of: "ann") == .claimed)
        #expect(fixture.store.standing(of: "bob") == .free)
        #expect(try fixture.outsideRows("SELECT name, skeleton FROM names") == ["ann=ann"])
    }

    @Test("claimed names are known from memory after reopening, so whether a name is free needs no disk",
          arguments: BackEnd.tested)
    func claimedNamesReloaded(_ backEnd: BackEnd) throws {
        let (location, directory) = try BackEndFixture.newLocation(backEnd)
        defer { withExtendedLifetime(directory) {} }
        do {
            let store = try BackEndFixture.open(backEnd, location)
            #expect(try store.claimOrVerify(name: "ann", password: "secret") == .claimed)
        }
        let store = try BackEndFixture.open(backEnd, location)
        #expect(store.standing(of: "ann") == .claimed)
        #expect(store.standing(of: "ANN") == .looksLike(claimedName: "ann"))
        #expect(try store.claimOrVerify(name: "ann", password: "secret") == .verified)
    }

    @Test("a version 2 file that holds two claimed look-alikes opens: both keep their claims and passwords, and no third look-alike can be claimed")
    func versionTwoWithLookalikesMigrates() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pairs.db")
        do {
            let old = try outsideConnection(path, .readWriteCreate)
            try Schema.migrate(old, path: path, ladders: Ladders(tau: 0.75), upTo: 2)
            for (name, password) in [("ann", "first"), ("Ann", "second")] {
                try old.run("INSERT INTO names VALUES (?1, ?2, 0)", binding: [.text(name), .text(try PasswordHash.make(password))])
            }
        }
        let store = try openStore(path)
        let outside = try outsideConnection(path)
        #expect(try outside.integer("PRAGMA user_version") == Schema.current)
        #expect(try outside.rows("SELECT skeleton FROM names ORDER BY name") { $0.text(at: 0) } == ["ann", "ann"])
        #expect(try store.claimOrVerify(name: "ann", password: "first") == .verified)
        #expect(try store.claimOrVerify(name: "Ann", password: "second") == .verified)
        #expect(try store.claimOrVerify(name: "Ann", password: "first") == .wrongPassword)
        guard case .looksLike = try store.claimOrVerify(name: "ANN", password: "third") else {
            Issue.record("a third look-alike was claimed"); return
        }
    }

    @Test("a password holding a NUL, an empty one and one too long are found before any hashing")
    func passwordProblems() {
        #expect(GameStore.problem(withPassword: "a\u{0}b") == .containsNul)
        #expect(GameStore.problem(withPassword: "") == .empty)
        #expect(GameStore.problem(withPassword: String(repeating: "x", count: 257)) == .tooLong(bytes: 257))
        #expect(GameStore.problem(withPassword: "correct horse") == nil)
    }
}
