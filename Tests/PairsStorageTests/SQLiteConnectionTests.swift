@testable import PairsStorage
import PairsTestSupport
import Testing

/// A connection to a new database in `directory`, with one table to play with.
private func scratch(_ directory: TemporaryDirectory) throws -> SQLiteConnection {
    let connection = try outsideConnection(directory.file("scratch.db"), .readWriteCreate)
    try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, value ANY, UNIQUE (value)) STRICT")
    return connection
}

@Test("every kind of value binds and reads back as it went in, a NUL inside a text included")
func valuesRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let connection = try scratch(directory)
    let values: [SQLValue] = [.integer(.min), .integer(.max), .real(-0.125), .text(""), .text("a\u{0}b"), .text("Ω ♠ 🂡"), .null]
    for value in values { try connection.run("INSERT INTO t (value) VALUES (?1)", binding: [value]) }
    let read = try connection.rows("SELECT value, typeof(value) FROM t ORDER BY id") { row -> SQLValue in
        switch row.text(at: 1) {
        case "integer": .integer(row.int64(at: 0))
        case "real": .real(row.double(at: 0))
        case "text": .text(row.text(at: 0))
        default: row.isNull(at: 0) ? .null : .text("unexpected")
        }
    }
    #expect(read == values)
}

@Test("a transaction that throws leaves nothing behind, and one that returns is committed")
func transactionsCommitOrRollBack() throws {
    let directory = try TemporaryDirectory()
    let connection = try scratch(directory)
    #expect(throws: SQLiteError.self) {
        try connection.transaction { () throws(SQLiteError) in
            try connection.run("INSERT INTO t (value) VALUES (1)")
            try connection.run("INSERT INTO t (value) VALUES (1)")
        }
    }
    #expect(try connection.integer("SELECT count(*) FROM t") == 0)
    try connection.transaction { () throws(SQLiteError) in try connection.run("INSERT INTO t (value) VALUES (2)") }
    #expect(try connection.integer("SELECT count(*) FROM t") == 1)
}

@Test("a savepoint that throws undoes only its own changes; the transaction around it goes on")
func savepointsUndoOnlyThemselves() throws {
    let directory = try TemporaryDirectory()
    let connection = try scratch(directory)
    try connection.transaction { () throws(SQLiteError) in
        try connection.run("INSERT INTO t (value) VALUES ('kept')")
        do throws(SQLiteError) {
            try connection.savepoint { () throws(SQLiteError) in
                try connection.run("INSERT INTO t (value) VALUES ('undone')")
                try connection.run("INSERT INTO t (value) VALUES ('kept')")
            }
            Issue.record("the duplicate should have failed")
        } catch {
            #expect(error.code == .constraint)
        }
        try connection.run("INSERT INTO t (value) VALUES ('after')")
    }
    #expect(try connection.rows("SELECT value FROM t ORDER BY id") { $0.text(at: 0) } == ["kept", "after"])
}

@Test("failures carry a code to decide on and SQLite's message to log")
func failuresAreTyped() throws {
    let directory = try TemporaryDirectory()
    let connection = try scratch(directory)
    try connection.run("INSERT INTO t (value) VALUES (1)")
    do throws(SQLiteError) {
        try connection.run("INSERT INTO t (value) VALUES (1)")
        Issue.record("a duplicate was accepted")
    } catch {
        #expect(error.code == .constraint)
        #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.message.contains("UNIQUE"))
    }
    do throws(SQLiteError) {
        _ = try connection.prepare("SELEKT 1")
        Issue.record("nonsense was prepared")
    } catch {
        #expect(error.code == .other(1))
        #expect(error.message.contains("syntax error"))
    }
    #expect(throws: SQLiteError.self) { try connection.run("INSERT INTO t (value) VALUES (?1)", binding: [.integer(1), .integer(2)]) }
    // A failed statement leaves the cached one ready for the next run.
    try connection.run("INSERT INTO t (value) VALUES (?1)", binding: [.integer(3)])
    #expect(try connection.integer("SELECT count(*) FROM t") == 2)
}

@Test("a missing directory cannot be opened, with a typed error")
func missingDirectoryCannotOpen() throws {
    let directory = try TemporaryDirectory()
    #expect {
        _ = try SQLiteConnection(path: directory.file("no/such/dir.db"), mode: .readWriteCreate, busyTimeoutMilliseconds: 0)
    } throws: { error in
        (error as? SQLiteError)?.code == .cannotOpen
    }
}
