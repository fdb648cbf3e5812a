// The `pairs` command: a thin front that parses arguments and hands over to a module.
#if canImport(Glibc)
import Glibc
#endif

let version = "0.1.0"

let usage = """
usage: pairs <command> [options]

commands:
  serve     run the match server
  play      play in the terminal
  bot       run a scripted player
  load      drive a server with many games at once

  pairs <command> --help   options of one command
  pairs --version          print the version
"""

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--help", "-h", "help":
    print(usage)
case "--version", "-V":
    print("pairs \(version)")
case nil:
    FileHandleOutput.standardError.write(usage + "\n")
    exit(2)
case let command?:
    FileHandleOutput.standardError.write("pairs: unknown command '\(command)'\n\n\(usage)\n")
    exit(2)
}

enum FileHandleOutput {
    case standardError
    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }
}
