import PairsRules
@testable import PairsServer
@testable import PairsStorage
import PairsLobby
import Testing

private let full = SQLiteError(result: 13, message: "database or disk is full")

private func at(_ milliseconds: Int64) -> Moment { Moment(milliseconds: milliseconds) }

@Test("the store's first failure is logged at once; the rest within 10 s make one line with their count and games lost")
func storageFailuresAreRateLimited() {
    var alarm = StorageAlarm()
    let first = alarm.failed(.batchFailed(.sqlite(full), games: 3), at: at(1_000))
    #expect(first == .init(level: .error, event: .storageFailed(failures: 1, gamesLost: 3, error: "the batch failed: \(full)")))
    for second in 1...9 {
        #expect(alarm.failed(.batchFailed(.sqlite(full), games: 2), at: at(1_000 + Int64(second) * 1_000)) == nil)
    }
    #expect(alarm.failed(.backlogFull(room: "r"), at: at(10_500)) == nil)
    #expect(alarm.heldDeadline == at(11_000))
    #expect(alarm.heldLine(at: at(10_999)) == nil)
    let held = alarm.heldLine(at: at(11_000))
    #expect(held == .init(level: .error, event: .storageFailed(
        failures: 10, gamesLost: 19, error: "the writer is \(GameWriter.maxBacklog) games behind the disk")))
    #expect(alarm.heldDeadline == nil)
    // A failure after a quiet interval is written at once again.
    #expect(alarm.failed(.batchFailed(.sqlite(full), games: 1), at: at(30_000)) != nil)
}

@Test("a store that writes again logs the failures still held, then storage_recovered with the spell's length and games lost")
func storageRecoveryIsLogged() {
    var alarm = StorageAlarm()
    _ = alarm.failed(.batchFailed(.sqlite(full), games: 4), at: at(2_000))
    _ = alarm.failed(.batchFailed(.sqlite(full), games: 5), at: at(3_000))
    let lines = alarm.recovered(failures: 2, gamesLost: 9, at: at(6_500))
    #expect(lines == [
        .init(level: .error, event: .storageFailed(failures: 1, gamesLost: 5, error: "the batch failed: \(full)")),
        .init(level: .warning, event: .storageRecovered(failures: 2, gamesLost: 9, seconds: 4.5)),
    ])
    #expect(alarm.heldDeadline == nil)
}
