/*
 * library.c — what the library says of itself: the version of the liberrata that is running,
 * which may differ from the ERRATA_VERSION a program was compiled against (errata.h).
 */
#include "errata.h"

const char *errata_version(void) { return ERRATA_VERSION; }
