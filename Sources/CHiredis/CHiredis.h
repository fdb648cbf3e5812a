// hiredis, Redis's own C client, for the cluster registry (Sources/PairsCluster).
#include <hiredis/hiredis.h>
