@testable import PairsWire
import Testing

@Test("trimming takes spaces and tabs off both ends and keeps everything between",
      arguments: [
          ("flip 3", "flip 3"), ("  flip 3\t", "flip 3"), ("\t \tsay  a \t b  ", "say  a \t b"), ("", ""), (" \t ", ""),
          ("é 😀", "é 😀"),
      ])
func trimsSpacesAndTabs(text: String, trimmed: String) {
    #expect(text.trimmingWhitespace() == trimmed)
    #expect(text[...].trimmingWhitespace() == trimmed)
}

@Test("a carriage return is not whitespace: trimming keeps it, at either end and alone")
func carriageReturnIsKept() {
    #expect("flip 3\r".trimmingWhitespace() == "flip 3\r")
    #expect(" \rleave ".trimmingWhitespace() == "\rleave")
    #expect("\r".trimmingWhitespace() == "\r")
    #expect(!Character("\r").isCommandWhitespace)
    #expect(Character(" ").isCommandWhitespace && Character("\t").isCommandWhitespace)
}

@Test("a command splits into its first word and the rest, trimmed; a lone word has no rest",
      arguments: [
          ("say  hi there ", "say", "hi there"), ("flip\t3", "flip", "3"), ("leave", "leave", ""), ("join ", "join", ""),
          (" leave", "", "leave"),
      ])
func splitsTheCommandWord(text: String, word: String, rest: String) {
    let split = text[...].splittingCommandWord()
    #expect(split.word == word)
    #expect(split.rest == rest)
}
