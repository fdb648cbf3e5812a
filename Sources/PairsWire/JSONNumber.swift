/// A JSON number, keeping integers exact.
///
/// JSON itself has one number type, but the protocol counts things (card indexes, scores, message ids) and a
/// `Double` silently loses integers above 2^53. So a literal without a fraction or exponent that fits `Int64`
/// stays an exact `.integer`; everything else is a `.double`, which is always finite.
public enum JSONNumber: Sendable, Hashable {
    /// A literal written without fraction or exponent whose value fits `Int64`, such as `42` or `-7`.
    case integer(Int64)
    /// Any other finite number, such as `1.5`, `2e3` or `99999999999999999999`.
    case double(Double)
}
