/*
 * diag.c — validation findings; see diag.h.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

errata_diags *diags_new(void) { return calloc(1, sizeof(errata_diags)); }

void diags_add(errata_diags *d, errata_severity sev, const char *file, int line, int col,
               const char *field, const char *fmt, ...)
{
    /* Counted first: a finding that cannot be stored still makes the record invalid. */
    if (sev == ERRATA_SEV_ERROR)
        d->errors++;
    else
        d->warnings++;
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        errata_diag *p = realloc(d->items, cap * sizeof *p);
        if (!p) {
            d->nomem = true;
            return;
        }
        d->items = p;
        d->cap = cap;
    }
    strbuf msg;
    sb_init(&msg);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&msg, fmt, ap);
    va_end(ap);
    char *m = sb_finish(&msg);
    char *f = strdup(file ? file : "");
    char *fl = strdup(field ? field : "");
    if (!m || !f || !fl) {
        free(m), free(f), free(fl);
        d->nomem = true;
        return;
    }
    d->items[d->n++] = (errata_diag){sev, f, line, col, fl, m};
}

size_t errata_diags_count(const errata_diags *d) { return d ? d->n : 0; }
const errata_diag *errata_diags_get(const errata_diags *d, size_t i)
{
    return d && i < d->n ? &d->items[i] : NULL;
}
size_t errata_diags_errors(const errata_diags *d) { return d ? d->errors : 0; }
size_t errata_diags_warnings(const errata_diags *d) { return d ? d->warnings : 0; }
size_t errata_diags_files(const errata_diags *d) { return d ? d->files : 0; }
size_t errata_diags_records(const errata_diags *d) { return d ? d->records : 0; }

void errata_diags_free(errata_diags *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++) {
        free((char *)d->items[i].file);
        free((char *)d->items[i].field);
        free((char *)d->items[i].message);
    }
    free(d->items);
    free(d);
}
