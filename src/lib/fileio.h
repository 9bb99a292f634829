/*
 * fileio.h — reading whole files and writing them safely.
 */
#ifndef ERRATA_FILEIO_H
#define ERRATA_FILEIO_H

#include <stddef.h>

#include "errata.h"

/* Reads path into a malloc'd, NUL-terminated buffer. Refuses files over max bytes. */
errata_code read_file(const char *path, size_t max, char **out, size_t *len, errata_error *err);

/* Reads a whole stream (stdin) the same way. */
errata_code read_stream(void *fp /* FILE* */, size_t max, char **out, size_t *len,
                        errata_error *err);

#endif
