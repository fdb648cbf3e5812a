/// The stable error codes of protocol.md. Clients branch on these; the wording of `message` may change.
public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
    /// The line is not a JSON object (or not valid UTF-8).
    case badJSON = "bad_json"
    /// The line is longer than the line limit; it was discarded up to its newline.
    case tooLong = "too_long"
    /// The `type` (or text command) is not one the server knows.
    case unknownType = "unknown_type"
    /// A field is missing, has the wrong type, or is out of range.
    case badField = "bad_field"
    /// The request needs a room and the connection is in none.
    case notInRoom = "not_in_room"
    /// The request needs the connection to be in no room.
    case alreadyInRoom = "already_in_room"
    /// A flip by the seat that is not on turn.
    case notYourTurn = "not_your_turn"
    /// A flip or rematch in a phase that does not allow it.
    case notPlaying = "not_playing"
    /// A flip of a card that is not on the board or not face down.
    case badCard = "bad_card"
    /// Both seats of the room are taken.
    case roomFull = "room_full"
    /// No room has that name.
    case noSuchRoom = "no_such_room"
    /// The room name is not 1-32 letters, digits, `-` or `_`.
    case badRoom = "bad_room"
    /// The resume token is unknown, expired or already used.
    case badToken = "bad_token"
    /// Too many messages: this one was dropped.
    case rateLimited = "rate_limited"
    /// The server is at its connection limit.
    case serverFull = "server_full"
    /// The `hello` asked for a protocol version the server does not speak.
    case unsupportedProtocol = "unsupported_protocol"
    /// A second rematch request for the same game.
    case rematchPending = "rematch_pending"
    /// Spectators watch; they cannot flip or ask for rematches.
    case notAPlayer = "not_a_player"
    /// The name belongs to someone: `hello` without its password.
    case nameTaken = "name_taken"
    /// The password is not the name's.
    case badPassword = "bad_password"
    /// No finished game has that id.
    case noSuchGame = "no_such_game"
    /// The server keeps nothing (`pairs serve --data none`): no history, replays, ratings or claimed names.
    case noStorage = "no_storage"
    /// A `join` would make a room while the address (or the server) already holds as many seats of
    /// players who dropped as it may (`RoomLimits`).
    case tooManyRooms = "too_many_rooms"
    /// Too many wrong passwords lately, from the address or for the name: the password was not checked;
    /// `retry_after` says in how many seconds one will be.
    case tooManyGuesses = "too_many_guesses"
    /// The server has too many passwords waiting to be checked: nothing was checked; try again shortly.
    case busy = "busy"
    /// The store did not answer within its deadline (a stalled disk): the request may or may not have
    /// taken effect; try again later.
    case storageTimeout = "storage_timeout"
    /// No tournament has that name.
    case noSuchTournament = "no_such_tournament"
    /// `tournament_create` with the name of a tournament that exists.
    case tournamentExists = "tournament_exists"
    /// The tournament has as many players as it takes.
    case tournamentFull = "tournament_full"
    /// The tournament has started: a Swiss takes no one, and it cannot start again.
    case tournamentStarted = "tournament_started"
    /// The tournament is over.
    case tournamentOver = "tournament_over"
    /// Only the tournament's creator starts it.
    case notTheCreator = "not_the_creator"
    /// `tournament_create` whose format, length and rules do not go together: a format other than swiss or
    /// arena, an arena without minutes, a Swiss with minutes, rounds for an arena, solo rules.
    case badFormat = "bad_format"
    /// The tournament takes claimed names only, and the connection's name is not one it proved.
    case claimedOnly = "claimed_only"
    /// `tournament_start` with fewer than two players entered.
    case tooFewPlayers = "too_few_players"
    /// `tournament_join` of a tournament the name has entered (and is not paused in).
    case alreadyEntered = "already_entered"
    /// `tournament_leave` of a tournament the name has not entered.
    case notEntered = "not_entered"
    /// `tournament_create` while the server holds as many tournaments as it may, or the creator's address
    /// as many unfinished ones (`TournamentHosting`).
    case tooManyTournaments = "too_many_tournaments"
}
