// The `pairs` command: a thin front that picks the subcommand and hands over to a module.
#if canImport(Glibc)
import Glibc
#endif

let version = "0.1.0"

let usage = """
usage: pairs <command> [options]

commands:
  serve        run the match server
  play         play in the terminal
  bot          run a scripted player
  load         drive a server with many games at once
  history      the finished games a server keeps
  leaderboard  the best players of a ladder (also: top)
  profile      a name's ratings, totals and last games
  replay       a finished game again, move by move
  tournament   make, start, join, watch and list tournaments

  pairs <command> --help   options of one command
  pairs --version          print the version
"""

let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
switch arguments.first {
case "--help", "-h", "help":
    print(usage)
case "--version", "-V", "version":
    print("pairs \(version)")
case "serve":
    exit(ServeCommand.run(rest, version: version))
case "play":
    exit(PlayCommand.run(rest, environment: PlayCommand.environment()))
case "bot":
    exit(BotCommand.run(rest, environment: PlayCommand.environment()))
case "load":
    exit(LoadCommand.run(rest))
case "history":
    exit(HistoryCommand.run(rest))
case "leaderboard", "top":
    exit(LeaderboardCommand.run(rest))
case "profile":
    exit(ProfileCommand.run(rest))
case "tournament":
    exit(TournamentCommand.run(rest, environment: PlayCommand.environment()))
case "replay":
    exit(ReplayCommand.run(rest, environment: PlayCommand.environment()))
case nil:
    printError(usage)
    exit(2)
case let command?:
    printError("pairs: unknown command '\(command)'\n\n\(usage)")
    exit(2)
}
