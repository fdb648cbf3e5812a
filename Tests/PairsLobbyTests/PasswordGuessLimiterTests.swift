import PairsLobby
import PairsRules
import PairsWire
import Testing

@Suite("Wrong passwords limited per address and per name, across connections")
struct PasswordGuessLimiterTests {
    private let start = Moment(milliseconds: 1_000_000)

    @Test("after the free wrong passwords an address waits, twice as long after each further one, up to the bound")
    func addressWaitsLongerEachTime() {
        var limiter = PasswordGuessLimiter()
        var now = start
        var waits: [Int64] = []
        for _ in 0..<14 {
            guard case .check = limiter.admit(name: "ann", address: "10.0.0.9", at: now) else {
                Issue.record("a guess was refused when its wait was over"); return
            }
            let counted = limiter.failed(name: "ann", address: "10.0.0.9", at: now)
            waits.append(now.milliseconds(until: counted.retryAt))
            now = counted.retryAt
        }
        #expect(waits == [0, 0, 0, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000])
    }

    @Test("a guess before the wait is over is refused, whatever connection or name it comes with, and says until when")
    func waitingIsAcrossConnectionsAndNames() {
        var limiter = PasswordGuessLimiter()
        for _ in 0..<4 { limiter.failed(name: "ann", address: "10.0.0.9", at: start) }
        let later = start.adding(milliseconds: 999)
        #expect(limiter.admit(name: "ann", address: "10.0.0.9", at: later) == .wait(until: start.adding(milliseconds: 1_000), because: .address))
        #expect(limiter.admit(name: "bob", address: "10.0.0.9", at: later) == .wait(until: start.adding(milliseconds: 1_000), because: .address))
        #expect(limiter.admit(name: "ann", address: "10.0.0.9", at: start.adding(milliseconds: 1_000)) == .check)
    }

    @Test("a wrong guess within the free ones, stamped by one loop's clock, is no wait for another loop whose clock read a moment earlier")
    func anEarlierClockOnAnotherLoopIsNotAWait() {
        var limiter = PasswordGuessLimiter()
        // One loop counts a typo at `start`; another loop read its clock 5 ms before and admits now.
        limiter.failed(name: "ann", address: "10.0.0.9", at: start)
        let earlier = start.adding(milliseconds: -5)
        #expect(limiter.admit(name: "ann", address: "10.0.0.9", at: earlier) == .check)
        #expect(limiter.admit(name: "bob", address: "10.0.0.9", at: earlier) == .check)
        // Past the free ones the delay still holds, whichever loop asks.
        for _ in 0..<3 { limiter.failed(name: "ann", address: "10.0.0.9", at: start) }
        #expect(limiter.admit(name: "ann", address: "10.0.0.9", at: earlier) == .wait(until: start.adding(milliseconds: 1_000), because: .address))
    }

    @Test("the right password from another address is checked at once while the guesser waits")
    func anotherAddressIsNotHeldBack() {
        var limiter = PasswordGuessLimiter()
        for _ in 0..<10 { limiter.failed(name: "ann", address: "10.0.0.9", at: start) }
        #expect(limiter.admit(name: "ann", address: "10.0.0.9", at: start) != .check)
        #expect(limiter.admit(name: "ann", address: "192.168.1.20", at: start) == .check)
    }

    @Test("an address that guessed wrong on its own waits out the name's delay too, so many addresses cannot share out one name")
    func nameDelayBindsGuessingAddresses() {
        var limiter = PasswordGuessLimiter()
        // Ten addresses, one wrong guess each: no address is past its free ones, but the name is.
        for index in 0..<10 { limiter.failed(name: "ann", address: "10.0.0.\(index)", at: start) }
        let verdict = limiter.admit(name: "ann", address: "10.0.0.3", at: start.adding(milliseconds: 10))
        guard case .wait(_, let scope) = verdict else { Issue.record("a guessing address was not held: \(verdict)"); return }
        #expect(scope == .name)
        #expect(limiter.admit(name: "bob", address: "10.0.0.3", at: start.adding(milliseconds: 10)) == .check)
        #expect(limiter.admit(name: "ann", address: "10.0.0.200", at: start.adding(milliseconds: 10)) == .check)
    }

    @Test("guesses sent all at once get only as many checks in flight as the address has free failures left, and one once it has none")
    func burstsAreCheckedOneAtATime() {
        var limiter = PasswordGuessLimiter()
        let clean = (0..<100).filter { _ in limiter.admit(name: "ann", address: "10.0.0.9", at: start) == .check }.count
        #expect(clean == 3)
        for _ in 0..<3 { limiter.failed(name: "ann", address: "10.0.0.9", at: start) }
        let spent = (0..<100).filter { _ in limiter.admit(name: "ann", address: "10.0.0.9", at: start) == .check }.count
        #expect(spent == 1)
        #expect(limiter.admit(name: "bob", address: "10.0.0.9", at: start) != .check, "the limit is the address's, whatever the name")
        limiter.finished(name: "ann", address: "10.0.0.9")
        #expect(limiter.admit(name: "ann", address: "10.0.0.9", at: start) == .check, "once the check in flight is answered, the next goes")
    }

    @Test("an hour without a wrong password forgets the address, and the table never holds more than its bound")
    func recordsAreForgottenAndBounded() {
        var policy = PasswordGuessLimiter.Policy()
        policy.maxRecords = 100
        var limiter = PasswordGuessLimiter(policy: policy)
        for _ in 0..<8 { limiter.failed(name: "ann", address: "10.0.0.9", at: start) }
        let anHourLater = start.adding(milliseconds: policy.forgetAfterMilliseconds)
        #expect(limiter.admit(name: "ann", address: "10.0.0.9", at: anHourLater) == .check)
        #expect(limiter.failed(name: "ann", address: "10.0.0.9", at: anHourLater).addressFailures == 1)
        for index in 0..<1_000 {
            limiter.failed(name: "n\(index)", address: "10.1.\(index / 256).\(index % 256)", at: anHourLater.adding(milliseconds: Int64(index)))
        }
        #expect(limiter.recordCount <= 2 * policy.maxRecords)
    }
}

@Suite("The lobby's limits on password guesses")
struct LobbyPasswordGuessTests {
    @Test("past the free wrong passwords, a hello with a password from the same address, on a new connection, is refused too_many_guesses with retry_after, unchecked, and logged for the operator")
    func reconnectingDoesNotReset() {
        let lobby = LobbyHarness { $0.keepsGames = true }
        for _ in 0..<4 {
            let guesser = lobby.connect()
            lobby.send(#"{"type":"hello","name":"ann","password":"guess"}"#, from: guesser)
            lobby.answerName(.wrongPassword)
            lobby.drop(guesser)
        }
        let fresh = lobby.connect()
        _ = lobby.take(fresh)
        lobby.send(#"{"type":"hello","name":"ann","password":"guess","id":9}"#, from: fresh)
        #expect(lobby.lookups.isEmpty, "the password is not checked")
        let answers = lobby.take(fresh)
        guard case .error(let error)? = answers.first else { Issue.record("no error: \(answers)"); return }
        #expect(error.code == .tooManyGuesses)
        #expect(error.retryAfterSeconds == 1)
        #expect(error.id == .integer(9))
        #expect(lobby.log.contains { entry in
            if case .passwordGuessing(let address, let name, let failures, _, let wait) = entry.event {
                address == "127.0.0.1" && name == "ann" && failures == 4 && wait == 1_000
            } else { false }
        })
        lobby.advance(by: 1_000)
        lobby.send(#"{"type":"hello","name":"ann","password":"guess"}"#, from: fresh)
        #expect(lobby.lookups.count == 1, "checked again once the wait is over")
    }

    @Test("a peer counts as its address without the port; an IPv6 one as its /64")
    func addressesOfPeers() {
        #expect(Lobby.address(ofPeer: "10.0.0.9:40001") == "10.0.0.9")
        #expect(Lobby.address(ofPeer: "[::1]:40001") == "0:0:0:0::/64")
        #expect(Lobby.address(ofPeer: "[::ffff:127.0.0.1]:7") == "::ffff:127.0.0.1")
        // Every address of one /64 is one guesser: a host picks among 2^64 of them at will.
        #expect(Lobby.address(ofPeer: "[2001:db8:1:2::9]:7") == "2001:db8:1:2::/64")
        #expect(Lobby.address(ofPeer: "[2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd]:7") == "2001:db8:1:2::/64")
        #expect(Lobby.address(ofPeer: "[2001:db8::1]:7") == "2001:db8:0:0::/64")
        #expect(Lobby.address(ofPeer: "[fe80::1%eth0]:7") == "fe80::1%eth0")
    }
}
