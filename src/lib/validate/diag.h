/*
 * diag.h — the list of findings produced by validation (errata_diags in the public API).
 *
 * A finding owns copies of its strings, so the list outlives the files and JSON it describes.
 */
#ifndef ERRATA_DIAG_H
#define ERRATA_DIAG_H

#include <stdbool.h>

#include "errata.h"

struct errata_diags {
    errata_diag *items; /* owned; each item's strings owned too */
    size_t n, cap;
    size_t errors, warnings;
    size_t files;   /* files read */
    size_t records; /* records parsed (valid or not) */
    bool nomem;     /* a finding could not be stored (it is still counted) */
};

errata_diags *diags_new(void);
void diags_add(errata_diags *d, errata_severity sev, const char *file, int line, int col,
               const char *field, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

#endif
