/*
 * version_schemes.h — how version.c reaches each scheme: the PEP 440 and generic versions the
 * shared clause driver (clauses.c) parses into, and each scheme's satisfies and order.
 */
#ifndef ERRATA_VERSION_SCHEMES_H
#define ERRATA_VERSION_SCHEMES_H

#include "version_common.h"

enum { PRE_A, PRE_B, PRE_RC, PRE_NONE };

typedef struct {
    span epoch;       /* digits; empty is epoch 0 */
    span release;     /* "1.2.3" as written */
    size_t n_release; /* how many numbers it has */
    int pre;          /* PRE_A, PRE_B, PRE_RC or PRE_NONE */
    span pre_n, post_n, dev_n; /* digits; empty is 0 (1.0a == 1.0a0) */
    bool post, dev;
    span local;    /* the label after '+'; empty when there is none */
    bool wildcard; /* a specifier's version ended in ".*" */
} pep_version;

typedef enum { SUFFIX_NONE, SUFFIX_PACKAGING, SUFFIX_PRE, SUFFIX_OTHER } suffix_kind;

typedef struct {
    span release;
    size_t n_release;
    suffix_kind kind;
    span suffix; /* what follows the numbers */
    bool wildcard;
} gen_version;

typedef union {
    pep_version pep;
    gen_version gen;
} any_version;

/* What the clause driver needs from PEP 440 and from the generic scheme. */
typedef struct {
    const char *name;
    bool single_eq;
    bool (*parse)(span text, bool wildcard_ok, any_version *out, char *why, size_t why_size);
    bool (*check)(clause_op op, const any_version *spec, char *why, size_t why_size);
    vmatch (*holds)(clause_op op, const any_version *version, const any_version *spec);
} clause_rules;

/* All comma-joined clauses of spec must hold for version, under rules (clauses.c). */
vmatch clauses_satisfied(const clause_rules *rules, span version, span spec, char *why,
                         size_t why_size);
extern const clause_rules PEP440_RULES;  /* pep440.c */
extern const clause_rules GENERIC_RULES; /* generic.c */

/* Each scheme's order of two versions: false when either does not parse. */
bool pep440_compare(span a, span b, int *c);
bool generic_compare(span a, span b, int *c);
bool semver_compare(span a, span b, int *c);
bool maven_compare(span a, span b, int *c);
/* The two schemes with range syntaxes of their own. */
vmatch semver_satisfies(span version, span range, char *why, size_t why_size);
vmatch maven_satisfies(span version, span spec, char *why, size_t why_size);

#endif
