// swift-tools-version:6.1
// Pairs: a two-player Memory match server. The toolchain is the only dependency.
import PackageDescription

let package = Package(
    name: "Pairs",
    products: [
        .executable(name: "pairs", targets: ["pairs"]),
    ],
    // `Cluster`: several `pairs serve` instances as one service over Redis and PostgreSQL. Off by default, so a
    // machine with only the toolchain builds and tests the default server without hiredis or libpq.
    traits: [
        .trait(name: "Cluster", description: "Shared stores on PostgreSQL and Redis; needs libpq-dev and libhiredis-dev."),
    ],
    targets: [
        // The rules of the game as a pure state machine: no I/O, no clock, no randomness of its own.
        .target(name: "PairsRules"),
        // What a finished game leaves (its players' results, a name's totals): one record for the store that
        // keeps it and the wire that carries it.
        .target(name: "PairsRecords"),
        // The wire: messages, the JSON codec, text commands and line framing. Knows bytes, not sockets.
        .target(name: "PairsWire", dependencies: ["PairsRules", "PairsRecords"]),
        // <sys/epoll.h>, which the toolchain's Glibc module leaves out. A header only: glibc has the code.
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        // Many sockets in one epoll set behind one Dispatch source: the server's and the load client's
        // readiness, one wakeup per batch instead of one per socket event.
        .target(name: "PairsPolling", dependencies: ["CEpoll", "PairsRules"]),
        // <sqlite3.h> and <crypt.h> from the system (libsqlite3-dev, libcrypt-dev): headers and link lines only.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CCrypt", path: "Sources/CCrypt"),
        // What outlives the server: finished games, claimed names, ratings, in one SQLite file, written off
        // the rooms' queue. Knows nothing of sockets, the wire or the rules' internals.
        // <libpq-fe.h> (libpq-dev), for the PostgreSQL store: with the Cluster trait only.
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq"),
        .target(name: "PairsStorage", dependencies: ["CSQLite", "CCrypt", "PairsRecords", .target(name: "CPostgres", condition: .when(traits: ["Cluster"]))]),
        // Tournaments as pure code: Swiss and arena pairing, scores and tie-breaks, and a director per
        // tournament that says which games to start and when; reads no clock, like the lobby.
        .target(name: "PairsTournament", dependencies: ["PairsRules", "PairsRecords"]),
        // The lobby: rooms, seats, quick match, chat, limits and what every request does. Decides, and says
        // what to send and whom to close; touches no socket and reads no clock.
        .target(name: "PairsLobby", dependencies: ["PairsRules", "PairsRecords", "PairsWire", "PairsTournament"]),
        // The browser's side of the wire as pure codecs: connection sniffing, HTTP requests and responses, the
        // WebSocket handshake and frames, and the client page. Knows bytes, not sockets; depends on nothing.
        .target(name: "PairsWeb", resources: [.embedInCode("Page/client.html"), .embedInCode("Page/dashboard.html")]),
        // The TCP transport: sockets, the epoll set, Dispatch queues and timers, output buffers and goodbyes.
        // Carries out what the lobby decides.
        .target(name: "PairsServer", dependencies: ["PairsLobby", "PairsRules", "PairsWire", "PairsPolling", "PairsStorage", "PairsWeb"]),
        // How a bot decides, as pure code: what it knows of the board, the sets faces make, the turn planner,
        // the strategies' names. Shared by the bundled bots and the load generator; knows no message.
        .target(name: "PairsBots", dependencies: ["PairsRules"]),
        // The bundled clients: a client connection, bots and their strategies, the terminal player.
        .target(name: "PairsClient", dependencies: ["PairsRules", "PairsWire", "PairsPolling", "PairsBots"]),
        // The load generator: thousands of bot games over real TCP from one process, on one epoll set.
        .target(name: "PairsLoad", dependencies: ["PairsBots", "PairsWire", "PairsRules", "PairsPolling", "PairsWeb"]),
        // <hiredis/hiredis.h> from the system (libhiredis-dev), linked only by builds with the `Cluster` trait.
        .systemLibrary(name: "CHiredis", path: "Sources/CHiredis"),
        // What instances of a cluster share in Redis: which are alive, who owns a room, who waits for a quick
        // match, where a resume token lives: a synchronous Redis client and registry, run off the rooms' loops on
        // a queue of their own by `ClusterAgent`. Empty without `Cluster`.
        .target(name: "PairsCluster", dependencies: [.target(name: "CHiredis", condition: .when(traits: ["Cluster"]))]),
        // The one executable: a thin command-line front over the modules above.
        .executableTarget(name: "pairs", dependencies: ["PairsRules", "PairsWire", "PairsLobby", "PairsPolling", "PairsServer", "PairsStorage", "PairsBots", "PairsClient", "PairsLoad"]),

        // Helpers shared by the test targets (seeded games played with the real rules, finding the built
        // binary and the tools CI installs, a WebSocket client and the Autobahn cases); not shipped.
        .target(name: "PairsTestSupport", dependencies: ["PairsRules", "PairsWire", "PairsWeb"], path: "Tests/PairsTestSupport"),
        .testTarget(name: "PairsRulesTests", dependencies: ["PairsRules", "PairsWire", "PairsTestSupport"]),
        .testTarget(name: "PairsBotsTests", dependencies: ["PairsBots", "PairsRules"]),
        .testTarget(name: "PairsPollingTests", dependencies: ["PairsPolling", "PairsRules", "PairsTestSupport"]),
        .testTarget(name: "PairsStorageTests", dependencies: ["PairsStorage", "PairsRecords", "CSQLite", "PairsTestSupport"]),
        .testTarget(name: "PairsWireTests", dependencies: ["PairsWire", "PairsRules", "PairsRecords", "PairsTestSupport"]),
        .testTarget(name: "PairsWebTests", dependencies: ["PairsWeb", "PairsRules", "PairsTestSupport"]),
        .testTarget(name: "PairsTournamentTests", dependencies: ["PairsTournament", "PairsRules", "PairsRecords"]),
        .testTarget(name: "PairsLobbyTests", dependencies: ["PairsLobby", "PairsWire", "PairsRules", "PairsRecords", "PairsTestSupport"]),
        .testTarget(name: "PairsServerTests", dependencies: ["PairsServer", "PairsLobby", "PairsStorage", "PairsWire", "PairsRules", "PairsWeb", "PairsTestSupport"]),
        .testTarget(name: "PairsClientTests", dependencies: ["PairsClient", "PairsBots", "PairsServer", "PairsLobby", "PairsWire", "PairsRules", "PairsTestSupport"]),
        // Its sources are all `#if Cluster`: without the trait it builds to nothing and runs nothing.
        .testTarget(name: "PairsClusterTests", dependencies: ["PairsCluster", "PairsTestSupport"]),
        .testTarget(name: "PairsLoadTests", dependencies: ["PairsLoad", "PairsBots", "PairsServer", "PairsLobby", "PairsClient", "PairsWire", "PairsRules", "PairsTestSupport"]),
    ]
)
