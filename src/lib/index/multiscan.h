/*
 * multiscan.h — the multi-pattern database: every record regex compiled into one Hyperscan
 * database, so that a message or a whole log is scanned once whatever the number of records.
 *
 * Hyperscan is only the first pass. PCRE2 confirms every hit with the exact Python-compatible
 * semantics and extracts captures, which lets Hyperscan take patterns in "prefilter" mode (a
 * superset of the matches) when it cannot take them exactly. A pattern neither mode accepts is
 * run by PCRE2 alone on every lookup.
 */
#ifndef ERRATA_MULTISCAN_H
#define ERRATA_MULTISCAN_H

#include <hs/hs.h>
#include <stddef.h>

#include "errata.h"

typedef enum {
    ENGINE_HS = 0,        /* Hyperscan matches exactly what PCRE2 does */
    ENGINE_PREFILTER = 1, /* Hyperscan matches a superset; PCRE2 decides */
    ENGINE_PCRE_ONLY = 2  /* PCRE2 runs the pattern on every lookup */
} engine_kind;

/* Which engine can take this record regex. */
engine_kind multiscan_classify(const char *regex);

/* Compiles the patterns whose engines[i] is not ENGINE_PCRE_ONLY into one database, pattern i
 * reporting id i. A pattern the full compile refuses although multiscan_classify() accepted it
 * is demoted (exact → prefilter → PCRE2 only) in engines[] and the compile retried, so the
 * caller must store engines[] as they are on return. *out is NULL (and ERRATA_OK returned) when
 * no pattern is left for Hyperscan. */
errata_code multiscan_compile(const char *const *regexes, engine_kind *engines, size_t n,
                              hs_database_t **out, errata_error *err);

#endif
