import PairsClient

/// `--password` of `pairs play` and `pairs bot`, and the `PAIRS_PASSWORD` variable scripts use instead.
///
/// The flag takes no value: a password typed on the command line would show in the process list and the
/// shell's history. It asks for the password without showing it (or, when standard input is not a
/// terminal, reads its first line).
enum PasswordFlag {
    static let variable = "PAIRS_PASSWORD"

    /// The flag's lines in a command's usage, its words starting at column `column` like the other flags'.
    static func usage(column: Int) -> String {
        let indent = String(repeating: " ", count: column)
        let flag = "  --password"
        return flag + String(repeating: " ", count: max(1, column - flag.count))
            + "claim the name (or prove it is yours) with a password, asked for without\n"
            + indent + "showing it; only games between claimed names are rated. Scripts set\n"
            + indent + "\(variable) instead."
    }

    /// Refuses a value given to `--password`, which would be on show.
    static func check(_ arguments: [String]) throws(UsageError) {
        for (index, argument) in arguments.enumerated() where argument == "--password" || argument.hasPrefix("--password=") {
            let hasValue = argument.contains("=") || (index + 1 < arguments.count && !arguments[index + 1].hasPrefix("-"))
            if hasValue {
                throw UsageError("--password takes no value (it would show in the process list): it asks for the password, or set \(variable)")
            }
        }
    }

    /// Where the password comes from: `PAIRS_PASSWORD` when set, else a question when `--password` was given.
    static func source(_ flags: Flags, environment: [String: String]) -> PasswordSource {
        if let password = environment[variable], !password.isEmpty { return .given(password) }
        return flags.isSet("password") ? .ask : .none
    }
}
