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

/* Replaces path with data durably: a temporary file in the same directory, fsync'd, renamed
 * over path, then the directory fsync'd, so that a crash leaves either the old file or the new
 * one, never a truncated mix. The file keeps path's permission bits when it exists. */
errata_code write_file_atomic(const char *path, const char *data, size_t len, errata_error *err);

#endif
