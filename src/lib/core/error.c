/*
 * error.c — error codes, their names and the errata_error filler.
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

errata_code set_error(errata_error *err, errata_code code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

const char *errata_code_name(errata_code code)
{
    switch (code) {
    case ERRATA_OK: return "ok";
    case ERRATA_ERR_NOMEM: return "out of memory";
    case ERRATA_ERR_IO: return "input/output error";
    case ERRATA_ERR_ARG: return "invalid argument";
    case ERRATA_ERR_TOO_BIG: return "input too large";
    case ERRATA_ERR_NOT_INDEX: return "not an Errata index";
    case ERRATA_ERR_STALE: return "index of another format version";
    case ERRATA_ERR_CORRUPT: return "corrupt index";
    case ERRATA_ERR_NOT_FOUND: return "not found";
    case ERRATA_ERR_INVALID: return "invalid records";
    case ERRATA_ERR_REGEX: return "regular expression error";
    case ERRATA_ERR_INTERNAL: return "internal error";
    }
    return "unknown error";
}
