/*
 * applicability.h — does a record apply to this user's environment?
 *
 * A record's versions[] name packages and the version ranges in which the failure happens. The
 * answer is three-valued on purpose: "applies", "not affected" (naming the package and the
 * constraint that excludes it), or "unknown" when the environment does not say (a package it
 * lacks, a version scheme that cannot be compared). An unknown is never turned into a yes or a
 * no.
 */
#ifndef ERRATA_APPLICABILITY_H
#define ERRATA_APPLICABILITY_H

#include "env.h"
#include "record.h"

typedef struct {
    errata_applicability state;
    char *reason;        /* malloc'd; never NULL after applicability_of() */
    const char *os_key;  /* the os_specific key that fits the environment's OS, or NULL */
    const char *os_note; /* its note (owned by the record) */
    const char *source;  /* where the deciding package was read ("path:line"), or NULL */
} applicability;

/* Decides for record r and environment env (NULL: no environment given). Returns false only
 * when out of memory. */
bool applicability_of(const record *r, const environment *env, applicability *out);
void applicability_clear(applicability *a);
const char *applicability_name(errata_applicability state);

#endif
