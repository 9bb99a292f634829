/*
 * index_build.h — what the rest of the library needs of the index builder beyond errata_build().
 */
#ifndef ERRATA_INDEX_BUILD_H
#define ERRATA_INDEX_BUILD_H

#include <stddef.h>

#include "errata.h"

/* Builds the knowledge base under kb_dirs into a new temporary index file (its name written to
 * path) and opens it. For tools that check records against each other (cross-check, verify):
 * the caller closes *db and unlinks path. Nothing is left behind on failure. */
errata_code index_build_temporary(const char *const *kb_dirs, size_t n_dirs, char *path,
                                  size_t path_size, errata_db **db, errata_error *err);

#endif
