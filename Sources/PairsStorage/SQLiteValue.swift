/// A value bound to a parameter of an SQL statement.
///
/// Only the types the store writes: integers (also booleans, as 0 and 1), reals, text and NULL.
enum SQLiteValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    /// An integer value from an `Int`.
    static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }

    /// A boolean as SQLite stores it: 1 or 0.
    static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }

    /// Text, or NULL when `value` is nil.
    static func optionalText(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

    /// An integer, or NULL when `value` is nil.
    static func optionalInt(_ value: Int?) -> SQLiteValue { value.map { .int($0) } ?? .null }
}
