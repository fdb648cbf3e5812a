// SQLite, for the game store (Sources/PairsStorage).
#include <sqlite3.h>
