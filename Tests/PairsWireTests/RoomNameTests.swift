import PairsWire
import Testing

@Test("room names of ASCII letters, digits, hyphens and underscores are valid", arguments: [
    "a", "lobby", "Room-42", "under_score", "-", "_", "ABCxyz0189", String(repeating: "r", count: 32),
])
func validRoomNames(name: String) {
    #expect(RoomName.isValid(name))
}

@Test("empty, over-long and room names with any other character are invalid", arguments: [
    "", String(repeating: "r", count: 33), "with space", "dot.ted", "slash/", "café", "ｆｕｌｌ",
    "tab\t", "new\nline", "nul\u{0}", "emoji😀", "bidi\u{202E}", "quote\"", "a:b",
])
func invalidRoomNames(name: String) {
    #expect(!RoomName.isValid(name))
}

@Test("the room name limit is 32 characters")
func roomNameLimit() {
    #expect(RoomName.maxLength == 32)
}
