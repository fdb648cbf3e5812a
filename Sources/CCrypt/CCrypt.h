// crypt(3) from libxcrypt, for hashing the passwords of claimed names (Sources/PairsStorage).
#include <crypt.h>
