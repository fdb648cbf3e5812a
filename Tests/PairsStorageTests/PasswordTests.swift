@testable import PairsStorage
import Testing

@Test("a name is claimed with a password, proved with it, and refused with any other", arguments: BackEnd.tested)
func claimVerifyAndRefuse(_ backEnd: BackEnd) throws {
    let store = try BackEndFixture(backEnd).store
    #expect(try store.isClaimed("alice") == false)
    #expect(try store.claimOrVerify(name: "alice", password: "correct horse") == .claimed)
    #expect(try store.isClaimed("alice"))
    #expect(try store.claimOrVerify(name: "alice", password: "correct horse") == .verified)
    #expect(try store.claimOrVerify(name: "alice", password: "correct hors") == .wrongPassword)
    #expect(try store.claimOrVerify(name: "alice", password: "correct horse ") == .wrongPassword)
    #expect(try store.claimOrVerify(name: "alice", password: "Correct horse") == .wrongPassword)
    #expect(try store.claimOrVerify(name: "Alice", password: "other") == .looksLike(claimedName: "alice"))
    // A password that cannot be one is refused before any hashing, not counted as a wrong one.
    #expect(throws: StoreError.password(.tooLong(bytes: 300))) {
        try store.claimOrVerify(name: "alice", password: String(repeating: "x", count: 300))
    }
}

@Test("the stored hash is a salted crypt(3) hash, never the password, different for every claim", arguments: BackEnd.tested)
func hashesAreSalted(_ backEnd: BackEnd) throws {
    let fixture = try BackEndFixture(backEnd)
    let store = fixture.store
    let password = "correct horse"
    #expect(try store.claimOrVerify(name: "alice", password: password) == .claimed)
    #expect(try store.claimOrVerify(name: "bob", password: password) == .claimed)
    let hashes = try fixture.outsideRows("SELECT password_hash FROM names ORDER BY name")
    try #require(hashes.count == 2)
    for hash in hashes {
        #expect(!hash.contains(password))
        #expect(hash.hasPrefix("$y$") || hash.hasPrefix("$6$"))
        #expect(PasswordHash.verify(password, against: hash))
    }
    #expect(hashes[0] != hashes[1])
}

@Test("passwords that cannot be hashed whole are refused with the reason", arguments: BackEnd.tested)
func badPasswordsAreRefused(_ backEnd: BackEnd) throws {
    let store = try BackEndFixture(backEnd).store
    #expect(throws: StoreError.password(.empty)) { try store.claimOrVerify(name: "alice", password: "") }
    #expect(throws: StoreError.password(.containsNul)) { try store.claimOrVerify(name: "alice", password: "a\u{0}b") }
    let tooLong = String(repeating: "p", count: PasswordHash.maxPasswordBytes + 1)
    #expect(throws: StoreError.password(.tooLong(bytes: tooLong.utf8.count))) {
        try store.claimOrVerify(name: "alice", password: tooLong)
    }
    #expect(throws: StoreError.nameLength(bytes: 0)) { try store.claimOrVerify(name: "", password: "p") }
    #expect(try store.isClaimed("alice") == false)
    let longest = String(repeating: "p", count: PasswordHash.maxPasswordBytes)
    #expect(try store.claimOrVerify(name: "alice", password: longest) == .claimed)
    #expect(try store.claimOrVerify(name: "alice", password: longest) == .verified)
}

@Test("verification fails, without crashing, against a hash that is not one")
func verifyRejectsNonsenseHashes() {
    for hash in ["", "*", "$y$", "$6$rounds=1$", "plain text", "$1$"] {
        #expect(PasswordHash.verify("", against: hash) == false)
        #expect(PasswordHash.verify("password", against: hash) == false)
    }
}
