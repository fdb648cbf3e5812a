/// How `pairs serve` writes its log (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// For people: `2026-11-21T19:51:39.042Z info join conn=c7 name=ann room=kitchen seat=0 peer=...`.
    case text
    /// For log collectors: one JSON object per line, `time`, `level` and `event` first, then the fields.
    case json
}
