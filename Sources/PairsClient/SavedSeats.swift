#if canImport(Glibc)
import Glibc
import PairsWire
#endif
import PairsPolling

/// The resume tokens of the seats `pairs play` holds, one small file per server, room and name, so that a
/// client that was killed (`kill -9`, a closed laptop, a crash, a closed terminal) takes its seat back when
/// the same command runs again, for as long as the server holds the seat.
///
/// The files live in `$XDG_STATE_HOME/pairs/` (or `~/.local/state/pairs/`), readable by their owner only
/// (0600, in a 0700 directory): a token is as good as the seat. Each is written whole to a temporary file
/// and renamed over the old one, so a crash mid-write leaves the old token or the new one, never half of
/// one. A file also names the process that wrote it: a seat whose client is still running is left to it,
/// so a second `pairs play` in another terminal takes a seat of its own instead of taking over the first's.
public struct SavedSeats: Sendable, Hashable {
    /// Which seat a file is for: the command line that took it.
    public struct Key: Sendable, Hashable {
        public var endpoint: ServerEndpoint
        /// The room asked for; nil for quick match.
        public var room: String?
        /// The name asked for; nil for the server's default.
        public var name: String?

        public init(endpoint: ServerEndpoint, room: String?, name: String?) {
            self.endpoint = endpoint
            self.room = room
            self.name = name
        }

        /// The lines that open the file, naming the seat exactly (the file name is only a digest of them).
        var header: String {
            "server \(endpoint)\nroom \(room ?? "")\nname \(name ?? "")\n"
        }
    }

    /// A seat found in a file.
    public struct Seat: Sendable, Hashable {
        public var token: String
        /// The process that saved it.
        public var writer: Int32
    }

    /// A file this long is not one of these; it is not read.
    static let maxFileBytes = 4096
    /// A token longer than this is not one (the server's are 32 hex digits); a little room for other servers.
    static let maxTokenBytes = 256
    /// The directory's mode: its owner's alone.
    static let directoryMode: mode_t = 0o700
    /// Each file's mode: a token is as good as the seat.
    static let fileMode: mode_t = 0o600

    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_STATE_HOME/pairs`, or `$HOME/.local/state/pairs`; nil when neither is an absolute path (the XDG
    /// specification says to ignore a relative one).
    public static func standardDirectory(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return join(state, "pairs") }
        if let home = environment["HOME"], home.hasPrefix("/") { return join(home, ".local/state/pairs") }
        return nil
    }

    /// The file of `key`: a readable name (server, room, name, cut short) and a digest of the exact key, since
    /// host names and player names can hold anything.
    public func path(for key: Key) -> String {
        let readable = "\(key.endpoint.host)-\(key.endpoint.port)-\(key.room ?? "quick")-\(key.name ?? "default")"
        let safe = String(readable.unicodeScalars.prefix(80).map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        })
        return Self.join(directory, "\(safe)-\(Self.digest(key.header)).seat")
    }

    /// The seat saved for `key`, if a well-formed file for exactly that key is there.
    public func seat(for key: Key) -> Seat? {
        guard let text = Self.contents(of: path(for: key)), text.hasPrefix(key.header) else { return nil }
        var token: String?
        var writer: Int32?
        for line in text.dropFirst(key.header.count).split(separator: "\n") {
            let field = line.split(separator: " ", maxSplits: 1)
            guard field.count == 2 else { continue }
            switch field[0] {
            case "token": token = String(field[1])
            case "pid": writer = Int32(field[1])
            default: continue
            }
        }
        guard let token, Self.isToken(token), let writer else { return nil }
        return Seat(token: token, writer: writer)
    }

    /// Saves `token` as the seat of `key`, replacing what was saved, in one rename.
    public func save(_ token: String, for key: Key) throws(SavedSeatError) {
        guard Self.isToken(token) else { throw .notAToken }
        try makeDirectory()
        let path = path(for: key)
        let temporary = "\(path).\(getpid()).new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, Self.fileMode)
        guard fd >= 0 else { throw .system(path: temporary, call: "open", errno: errno) }
        var text = key.header + "token \(token)\npid \(getpid())\n"
        let written = text.withUTF8 { BlockingWrite.all(UnsafeRawBufferPointer($0), to: fd) }
        let writeError = errno
        close(fd)
        guard written else {
            unlink(temporary)
            throw .system(path: temporary, call: "write", errno: writeError)
        }
        guard rename(temporary, path) == 0 else {
            let renameError = errno
            unlink(temporary)
            throw .system(path: path, call: "rename", errno: renameError)
        }
    }

    /// Forgets the seat of `key` (it was given up); nothing to do when none was saved.
    public func forget(_ key: Key) {
        unlink(path(for: key))
    }

    /// Whether the process `pid` (other than this one) is still running, so a seat it saved is still in use.
    /// A zombie is not: a client whose terminal closed has exited, though its parent (often init, once the
    /// shell went with the terminal) may take a moment to reap it.
    public static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0, pid != getpid() else { return false }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        // /proc/PID/stat: "PID (COMMAND) STATE ...", and the command may hold anything, parentheses too.
        guard let stat = contents(of: "/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state != "Z" && state != "X"
    }

    // MARK: Files

    /// Creates the directory and its missing parents, private to the user.
    private func makeDirectory() throws(SavedSeatError) {
        let components = directory.split(separator: "/")
        for depth in components.indices {
            let prefix = "/" + components[...depth].joined(separator: "/")
            if mkdir(prefix, Self.directoryMode) != 0, errno != EEXIST {
                throw .system(path: prefix, call: "mkdir", errno: errno)
            }
        }
    }

    /// The text of the file at `path`, if there is one no longer than `maxFileBytes`.
    private static func contents(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: maxFileBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        guard count <= maxFileBytes else { return nil }
        return String(validating: bytes[..<count], as: UTF8.self)
    }

    /// Printable ASCII without spaces, of a sensible length: what a token is on any server.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxTokenBytes && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// FNV-1a, 64 bits, in hex: a stable digest for a file name (Swift's `Hasher` is seeded per process).
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func join(_ directory: String, _ relative: String) -> String {
        directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }
}

/// Why a seat's token could not be saved.
public enum SavedSeatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server's token is not something a file can hold in a line.
    case notAToken
    /// A system call failed on `path`.
    case system(path: String, call: String, errno: Int32)

    public var description: String {
        switch self {
        case .notAToken: "the server's token is not printable text"
        case .system(let path, let call, let code): "\(call) \(path): \(String(cString: strerror(code)))"
        }
    }
}
