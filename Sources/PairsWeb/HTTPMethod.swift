/// The request methods this server answers. Every resource it has is read-only, so `GET` and `HEAD` are all
/// there is; any other method is refused with 405 (`HTTPRequestError.methodNotAllowed`).
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case head = "HEAD"

    /// The value of the `Allow` header a 405 carries: the methods listed above.
    public static let allowHeaderValue = allCases.map(\.rawValue).joined(separator: ", ")
}
