/*
 * error.h — filling an errata_error, the library's one way of reporting a failure.
 */
#ifndef ERRATA_ERROR_H
#define ERRATA_ERROR_H

#include "errata.h"

/* Sets err (which may be NULL) and returns code, so a failure is one line:
 *     return set_error(err, ERRATA_ERR_IO, "%s: %s", path, strerror(errno)); */
errata_code set_error(errata_error *err, errata_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
