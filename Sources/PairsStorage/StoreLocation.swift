/// Where the store keeps its data, as `--data` gives it: a path, a PostgreSQL URL, or `none` to keep nothing.
public enum StoreLocation: Sendable, Hashable {
    /// Keep nothing: no file, no history (load tests, throwaway servers).
    case disabled
    /// The database file at this path, created with its directories on first use.
    case file(path: String)
    /// The PostgreSQL database at this URL (`postgresql://USER@HOST:PORT/DB`), which several servers may
    /// share: needs a build with the Cluster trait.
    case postgres(url: String)

    /// The value `--data` takes to keep nothing.
    public static let disabledArgument = "none"
    /// How a PostgreSQL URL begins, in either spelling libpq takes.
    public static let postgresSchemes = ["postgresql://", "postgres://"]

    /// The location `argument` names: `none`, a PostgreSQL URL or a path; nil for an empty argument.
    public init?(argument: String) {
        if argument == Self.disabledArgument {
            self = .disabled
        } else if Self.postgresSchemes.contains(where: argument.hasPrefix) {
            self = .postgres(url: argument)
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

/// What the store shows of a PostgreSQL URL.
public enum PostgresURL {
    /// `url` with the password of its user part (`postgresql://USER:PASSWORD@HOST/DB`), if any, left out:
    /// the URL is shown in the log and in errors.
    public static func withoutPassword(_ url: String) -> String {
        let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let at = parts[1].firstIndex(of: "@"),
              let colon = parts[1][..<at].firstIndex(of: ":") else { return url }
        return parts[0] + "://" + parts[1][..<colon] + parts[1][at...]
    }
}
