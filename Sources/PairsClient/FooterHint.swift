/// The screen's last line: what can be typed where the player is (the lobby, a game in play, watching, a
/// finished game), most useful first, as much of it as the terminal's width holds.
enum FooterHint {
    /// What to type, most useful first. `/help` is not among them: it goes last whenever it fits.
    static func items(for model: PlayModel) -> [String] {
        if model.confirmation != nil { return ["y + Enter: leave and forfeit", "Ctrl-C: leave and exit", "Enter: stay"] }
        switch model.link {
        case .connecting: return ["connecting…", "/quit"]
        case .reconnecting: return ["reconnecting…", "/quit"]
        case .closed: return ["/quit"]
        case .connected: break
        }
        guard model.room != nil else {
            return ["/join [ROOM] to play", "/watch ROOM", "/list rooms", "/who", "/stats", "/quit"]
        }
        if model.isWatching { return ["/say TEXT", "/who", "/leave", "/list", "/quit"] }
        guard let state = model.state else { return ["/say TEXT", "/leave", "/quit"] }
        switch state.phase {
        case .waiting: return ["/say TEXT", "/who", "/leave", "/list", "/quit"]
        case .over: return ["/rematch", "/say TEXT", "/leave", "/quit"]
        case .playing where model.isMyTurn: return ["card number + Enter", "/say TEXT", "/leave", "/quit"]
        case .playing, .reveal, .peek: return ["/say TEXT", "/who", "/leave", "/quit"]
        }
    }

    /// The hint for `model`, in at most `columns` columns: the items that fit, in order, then `/help`.
    static func line(for model: PlayModel, columns: Int) -> String {
        let separator = " · "
        let help = "/help"
        var chosen: [String] = []
        for item in items(for: model) {
            let candidate = (chosen + [item, help]).joined(separator: separator)
            if TerminalText.width(candidate) <= columns { chosen.append(item) } else { break }
        }
        let line = (chosen + [help]).joined(separator: separator)
        return TerminalText.width(line) <= columns ? line : TerminalText.fit(chosen.first ?? help, columns: columns)
    }
}
