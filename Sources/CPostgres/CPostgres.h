// libpq, PostgreSQL's client library, for the shared store (Sources/PairsStorage/Postgres*.swift): only builds
// with the Cluster trait include it.
#include <libpq-fe.h>
