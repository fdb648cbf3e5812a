/// A value bound to a parameter of an SQL statement, for either engine.
///
/// Only the types the store writes: integers, reals, text, booleans and NULL. SQLite stores a boolean as
/// the integer 0 or 1; PostgreSQL as `boolean`.
enum SQLValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case bool(Bool)
    case null

    /// An integer value from an `Int`.
    static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }

    /// Text, or NULL when `value` is nil.
    static func optionalText(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }

    /// An integer, or NULL when `value` is nil.
    static func optionalInt(_ value: Int?) -> SQLValue { value.map { .int($0) } ?? .null }
}
