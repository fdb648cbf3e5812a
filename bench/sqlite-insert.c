// What SQLite itself costs the store per finished game, without Swift or the server: the statements
// GameInserts runs for one game (the games row with its deal made by json_array, two players rows, each game
// in a savepoint run through sqlite3_exec), in transactions of BATCH games, with the pragmas GameStore sets.
// Prints the process's CPU time per game. Asserts nothing (BENCHMARKS.md, "Per core: where the time goes,
// user and system time per flip").
//
//   gcc -O2 -o /tmp/sqlite-insert bench/sqlite-insert.c -lsqlite3
//   sqlite3 STORE.db .schema > /tmp/schema.sql         (any file `pairs serve --data STORE.db` made)
//   /tmp/sqlite-insert SCHEMA.sql NEW.db GAMES BATCH [savepoints|no-savepoints]
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

static void run(sqlite3 *db, const char *sql) {
    char *error = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &error) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, error);
        exit(1);
    }
}

static void step(sqlite3_stmt *statement) {
    int result;
    while ((result = sqlite3_step(statement)) == SQLITE_ROW) {}
    if (result != SQLITE_DONE) {
        fprintf(stderr, "step: %s\n", sqlite3_errmsg(sqlite3_db_handle(statement)));
        exit(1);
    }
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
}

static void text(sqlite3_stmt *statement, int index, const char *value) {
    sqlite3_bind_text(statement, index, value, -1, SQLITE_TRANSIENT);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s SCHEMA.sql NEW.db GAMES BATCH [savepoints|no-savepoints]\n", argv[0]);
        return 2;
    }
    int games = atoi(argv[3]), batch = atoi(argv[4]);
    int savepoints = argc < 6 || strcmp(argv[5], "no-savepoints") != 0;
    static char schema[1 << 16];
    FILE *file = fopen(argv[1], "r");
    if (!file) { perror(argv[1]); return 1; }
    schema[fread(schema, 1, sizeof schema - 1, file)] = 0;
    fclose(file);

    sqlite3 *db;
    if (sqlite3_open(argv[2], &db) != SQLITE_OK) { fprintf(stderr, "open %s\n", argv[2]); return 1; }
    run(db, "PRAGMA journal_mode = WAL");
    run(db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL");
    run(db, schema);

    char insert_game[1024] = "INSERT INTO games (room, rules, ladder, outcome, winner, ending, rated, started_ms, "
                             "ended_ms, flips, moves, tournament, deal) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                             "?10, ?11, ?12, json_array(";
    for (int parameter = 13; parameter < 29; parameter++) {
        char item[16];
        snprintf(item, sizeof item, "%s?%d", parameter > 13 ? ", " : "", parameter);
        strcat(insert_game, item);
    }
    strcat(insert_game, "))");
    sqlite3_stmt *game, *player;
    if (sqlite3_prepare_v2(db, insert_game, -1, &game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO players (game_id, seat, name, claimed, score) VALUES (?1, ?2, ?3, ?4, ?5)",
                           -1, &player, NULL) != SQLITE_OK) {
        fprintf(stderr, "prepare: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    // A classic game of 8 pairs as the server stores it: its rules, its ladder, 25 moves, 16 faces.
    const char *rules = "{\"seats\":2,\"match\":2,\"deck\":\"words\",\"scoring\":\"classic\",\"flip_cost\":1,"
                        "\"mismatch_penalty\":2,\"match_bonus\":4,\"game_seconds\":0,\"peek_ms\":0,\"pairs\":8,"
                        "\"turn_seconds\":0,\"reveal_ms\":0,\"again_on_match\":true}";
    const char *ladder = "{\"seats\":2,\"match\":2,\"deck\":\"words\",\"scoring\":\"classic\",\"flip_cost\":1,"
                         "\"mismatch_penalty\":2,\"match_bonus\":4,\"game_seconds\":0,\"peek_ms\":0}";
    char moves[1024] = "[";
    for (int move = 0; move < 25; move++) {
        char item[32];
        snprintf(item, sizeof item, "%s[%d,1,%d,%d]", move ? "," : "", move * 3, move % 2, move % 16);
        strcat(moves, item);
    }
    strcat(moves, "]");
    const char *faces[16] = {"cat", "boa", "cod", "cow", "bee", "ape", "cat", "cod",
                             "ape", "boa", "bee", "bat", "ant", "bat", "cow", "ant"};

    double start = cpu_seconds();
    for (int index = 0; index < games; index++) {
        if (index % batch == 0) run(db, "BEGIN IMMEDIATE");
        if (savepoints) run(db, "SAVEPOINT one");
        char room[16];
        snprintf(room, sizeof room, "lg%d", index % 100);
        text(game, 1, room);
        text(game, 2, rules);
        text(game, 3, ladder);
        text(game, 4, "won");
        sqlite3_bind_int(game, 5, 0);
        text(game, 6, "cleared");
        sqlite3_bind_int(game, 7, 0);
        sqlite3_bind_int64(game, 8, 1000 + index);
        sqlite3_bind_int64(game, 9, 2000 + index);
        sqlite3_bind_int(game, 10, 25);
        text(game, 11, moves);
        sqlite3_bind_null(game, 12);
        for (int face = 0; face < 16; face++) text(game, 13 + face, faces[face]);
        step(game);
        sqlite3_int64 id = sqlite3_last_insert_rowid(db);
        for (int seat = 0; seat < 2; seat++) {
            char name[16];
            snprintf(name, sizeof name, "player%d", (index * 2 + seat) % 400);
            sqlite3_bind_int64(player, 1, id);
            sqlite3_bind_int(player, 2, seat);
            text(player, 3, name);
            sqlite3_bind_int(player, 4, 0);
            sqlite3_bind_int(player, 5, 3);
            step(player);
        }
        if (savepoints) run(db, "RELEASE one");
        if (index % batch == batch - 1 || index == games - 1) run(db, "COMMIT");
    }
    double seconds = cpu_seconds() - start;
    printf("%d games, %d per transaction, %s: %.1f µs of CPU per game\n", games, batch,
           savepoints ? "a savepoint each" : "no savepoints", seconds * 1e6 / games);
    sqlite3_finalize(game);
    sqlite3_finalize(player);
    sqlite3_close(db);
    return 0;
}
