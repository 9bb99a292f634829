/*
 * lookup.h — the result of a lookup (errata_result, errata_match) and how matches are ranked.
 */
#ifndef ERRATA_LOOKUP_H
#define ERRATA_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

#include "applicability.h"
#include "keylines.h"

/* Score = the weighted sum of the parts below (docs/json-output.md, "Score").
 * - Specificity dominates between records matching the same line: a pattern that pins down more
 *   literal text is the more precise explanation.
 * - The role of the matched line decides between lines: the error beats its framing ("make: ***
 *   Error 1"), the root of a chain beats the wrappers around it.
 * - Position prefers the later line (the final error of a log over a warning before it).
 * - Domain fit: a Python traceback favours python, pip, pytorch … records.
 * - Confidence and fix rate break the remaining ties. */
#define RANK_W_SPECIFICITY 1.0
#define RANK_ROLE_ROOT 12.0
#define RANK_ROLE_KEY 8.0
#define RANK_ROLE_FRAMING (-15.0)
#define RANK_W_POSITION 4.0
#define RANK_W_DOMAIN_FIT 3.0
#define RANK_W_CONFIDENCE 3.0
#define RANK_W_FIX_RATE 1.0
/* Applicability to the user's environment, when one is given: a record that cannot happen on
 * their versions drops below one that can, but is still shown (the environment may be stale). */
#define RANK_APPLIES 3.0
#define RANK_NOT_AFFECTED (-12.0)

typedef struct {
    double specificity;      /* literal characters of the pattern's least specific alternative */
    line_role role;          /* what the matched line is */
    double role_bonus;       /* the score the role adds (RANK_ROLE_*; 0 for a plain line) */
    double position;         /* 0 for the first line of the input, 1 for the last */
    bool domain_fit;         /* the input's format fits the record's domain */
    double confidence;       /* the record's confidence */
    double fix_success_rate; /* the record's fix_success_rate */
    double applicability_bonus; /* RANK_APPLIES, RANK_NOT_AFFECTED or 0 */
    /* Set when this match was moved above a higher-scored one because the record is its cause
     * (transition_graph): that knock-on's record and line. NULL otherwise. */
    const record *cause_of;
    size_t cause_of_line;
} score_parts;

typedef struct {
    char *name, *value;
    /* The group did not take part in the match (another alternative matched): value is then
     * the name in capitals (PORT), so a workaround reads as a hole to fill, never "{port}". */
    bool unset;
} capture;

struct errata_match {
    const record *rec; /* owned by the db */
    bool fuzzy;        /* a full-text guess, not a pattern match (score is then BM25's) */
    const char *raw_json; /* the record as the index stores it (owned by the db) */
    size_t entry;      /* the record's entry in the db */
    double score;
    score_parts parts;
    size_t line;       /* 1-based, in the normalised input */
    /* Every occurrence of the pattern in the input (at most MAX_OCCURRENCES are counted), and
     * the lines of the first and last. */
    size_t occurrences, first_line, last_line;
    size_t start, end; /* byte offsets in the normalised input */
    char *text;        /* the matched text */
    capture *caps;
    size_t n_caps;
    applicability app; /* to the lookup's environment */
};

struct errata_result {
    errata_match *m; /* ranked, best first */
    size_t n;
    size_t input_bytes, input_lines;
    char **warnings; /* records skipped on this input, and why */
    size_t n_warnings;
    bool has_env;    /* an environment was given: applicability is worth showing */
};

/* Whether the transition graph says a's error usually comes before b's (a is b's cause). */
bool lookup_is_cause_of(const record *a, const record *b);

/* errata_lookup with its parts chosen: guesses says whether to fall back on full-text guesses
 * when no pattern matched, max_results 0 keeps every match. candidates, when not NULL, are
 * the patterns that may match (n_candidates of them): the Hyperscan pass is skipped and only
 * they (and the patterns only PCRE2 runs) are tried. errata_scan confirms its windows with
 * it: no guesses, every match, the candidates its prefilter found. */
errata_code lookup_text(errata_db *db, const char *text, size_t len, const errata_env *env,
                        bool guesses, size_t max_results, const uint32_t *candidates,
                        size_t n_candidates, errata_result **out, errata_error *err);

#endif
