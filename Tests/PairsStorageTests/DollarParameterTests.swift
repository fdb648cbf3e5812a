#if Cluster
@testable import PairsStorage
import Testing

/// The store's shared statements number parameters as SQLite does; the PostgreSQL connection spells them
/// its own way. Needs no PostgreSQL: the rewrite is text.
@Suite("SQLite's numbered parameters spelled for PostgreSQL")
struct DollarParameterTests {
    @Test("every ?N becomes $N, whatever its number of digits, and nothing else changes",
          arguments: [
              ("SELECT 1", "SELECT 1"),
              ("WHERE a = ?1 AND b = ?2", "WHERE a = $1 AND b = $2"),
              ("LIMIT ?12", "LIMIT $12"),
              ("ARRAY[?12::text, ?13::text]", "ARRAY[$12::text, $13::text]"),
              ("json_extract(value, '$[0]')", "json_extract(value, '$[0]')"),
              ("a ? b, ?x, ends in ?", "a ? b, ?x, ends in ?"),
              ("?1", "$1"),
          ])
    func numberedParameters(sql: String, expected: String) {
        #expect(PostgresConnection.dollarParameters(sql) == expected)
    }

    @Test("a statement whose parameters are already $N is left as it is")
    func dollarsStay() {
        let sql = "SELECT pg_advisory_xact_lock($1, hashtext($2))"
        #expect(PostgresConnection.dollarParameters(sql) == sql)
    }
}
#endif
