/// Where the store keeps its file, as `--data` gives it: a path, or `none` to keep nothing.
public enum StoreLocation: Sendable, Hashable {
    /// Keep nothing: no file, no history (load tests, throwaway servers).
    case disabled
    /// The database file at this path, created with its directories on first use.
    case file(path: String)

    /// The value `--data` takes to keep nothing.
    public static let disabledArgument = "none"

    /// The location `argument` names: `none` or a path; nil for an empty argument.
    public init?(argument: String) {
        if argument == Self.disabledArgument {
            self = .disabled
        } else if argument.isEmpty {
            return nil
        } else {
            self = .file(path: argument)
        }
    }

    /// The default file: `$XDG_DATA_HOME/pairs/pairs.db`, or `$HOME/.local/share/pairs/pairs.db` when
    /// XDG_DATA_HOME is unset or not absolute (the XDG Base Directory rule); nil when neither is usable.
    /// `environment` reads a variable, so a test can give its own.
    public static func defaultFile(environment: (String) -> String?) -> StoreLocation? {
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") {
            return .file(path: join(data, "pairs/pairs.db"))
        }
        if let home = environment("HOME"), home.hasPrefix("/") {
            return .file(path: join(home, ".local/share/pairs/pairs.db"))
        }
        return nil
    }

    private static func join(_ directory: String, _ relative: String) -> String {
        directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }
}
