import PairsClient
import Testing

@Test("a number flips that card, and commands work with or without the slash, in any case",
      arguments: [
          ("7", InputCommand.flip(card: 7)), (" 12 ", .flip(card: 12)), ("flip 3", .flip(card: 3)), ("/FLIP 3", .flip(card: 3)),
          ("/say good game", .say(text: "good game")), ("say  hi   there ", .say(text: "hi there")),
          ("/rematch", .rematch), ("REMATCH", .rematch), ("/leave", .leave), ("/join", .join(room: nil)),
          ("/join kitchen", .join(room: "kitchen")), ("/watch den", .watch(room: "den")), ("/help", .help), ("?", .help),
          ("/quit", .quit), ("exit", .quit),
      ])
func typedCommands(line: String, command: InputCommand) throws {
    #expect(try InputCommand.parse(line) == command)
}

@Test("a blank line is nothing")
func blankLines() throws {
    #expect(try InputCommand.parse("") == nil)
    #expect(try InputCommand.parse("   \t") == nil)
}

@Test("what is not a command is refused with words that say what to type instead",
      arguments: [
          ("banana", "\"banana\" is not a command: type a card number to flip it, or /help"),
          ("/flip", "flip which card? type its number"),
          ("flip x", "\"x\" is not a card number"),
          ("-3", "\"-3\" is not a card number"),
          ("/say", "say what? type /say and your message"),
          ("/join no spaces!", "a room name is 1-32 letters, digits, - or _"),
          ("/rematch now", "/rematch takes nothing after it"),
          ("\u{1B}[2J", "\"[2J\" is not a command: type a card number to flip it, or /help"),
      ])
func refusedLines(line: String, message: String) {
    #expect {
        _ = try InputCommand.parse(line)
    } throws: { error in
        "\(error)" == message
    }
}

@Test("a stray carriage return is refused as the server refuses it, never taken for a space",
      arguments: ["3\r", "/leave\r", "flip 3\r"])
func strayCarriageReturnIsRefused(line: String) {
    #expect(throws: InputError.self) { try InputCommand.parse(line) }
}
