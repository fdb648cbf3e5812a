import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// Terminal controls a hostile client may try to pass to another player's netcat: ESC (C0), 8-bit CSI and
/// the other C1 controls, and the bidirectional overrides and isolates.
private func containsRawTerminalControl(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.unicodeScalars.contains { scalar in
        switch scalar.value {
        case 0x1B, 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F: true
        default: false
        }
    }
}

/// `text` with every scalar written as a JSON `\uXXXX` escape, so the payload travels inside valid JSON.
private func jsonEscaped(_ text: String) -> String {
    text.unicodeScalars.map { scalar in
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }.joined()
}

@Test("no string one client sends (name, chat, id, room, token) reaches another client carrying a raw terminal control")
func noEscapeCrossesBetweenClients() {
    let lobby = LobbyHarness()
    let victim = lobby.player("victim", joining: "room")
    let attacker = lobby.connect()
    let payloads = ["\u{1B}[2J", "\u{9B}2J", "\u{202E}", "\u{2066}x\u{2069}", "a\u{200F}b", "\u{85}"]
    for payload in payloads {
        let escaped = jsonEscaped(payload)
        lobby.send(#"{"type":"hello","name":"x\#(escaped)y","id":"\#(escaped)"}"#, from: attacker)
        lobby.send(#"{"type":"hello","name":"x\#(escaped)y"}"#, from: attacker)
    }
    lobby.send(#"{"type":"join","room":"room"}"#, from: attacker)
    for payload in payloads {
        let escaped = jsonEscaped(payload)
        lobby.send(#"{"type":"say","text":"hi\#(escaped)there","id":"\#(escaped)"}"#, from: attacker)
        lobby.send(#"{"type":"say","text":"hi\#(escaped)there"}"#, from: attacker)
        lobby.send(#"{"type":"flip","card":0,"id":"\#(escaped)"}"#, from: attacker)
        lobby.send(#"{"type":"rematch","id":"\#(escaped)"}"#, from: attacker)
    }
    #expect(!lobby.bytes[victim, default: []].isEmpty)
    #expect(!containsRawTerminalControl(lobby.bytes[victim, default: []]))
}
