/*
 * lookup.h — the result of a lookup (errata_result, errata_match) and how matches are ranked.
 */
#ifndef ERRATA_LOOKUP_H
#define ERRATA_LOOKUP_H

#include <stddef.h>

#include "record.h"

/* Score = the weighted sum of the parts below. Specificity dominates: a pattern that pins down
 * more literal text is the more precise explanation of the error. Position breaks near-ties in
 * favour of the later line (the final error of a log rather than a warning before it);
 * confidence and fix rate break the remaining ties. */
#define RANK_W_SPECIFICITY 1.0
#define RANK_W_POSITION 10.0
#define RANK_W_CONFIDENCE 5.0
#define RANK_W_FIX_RATE 2.0

typedef struct {
    double specificity;      /* literal characters of the pattern's least specific alternative */
    double position;         /* 0 for the first line of the input, 1 for the last */
    double confidence;       /* the record's confidence */
    double fix_success_rate; /* the record's fix_success_rate */
} score_parts;

typedef struct {
    char *name, *value;
} capture;

struct errata_match {
    const record *rec; /* owned by the db */
    size_t entry;      /* the record's entry in the db */
    double score;
    score_parts parts;
    size_t line;       /* 1-based, in the normalised input */
    size_t start, end; /* byte offsets in the normalised input */
    char *text;        /* the matched text */
    capture *caps;
    size_t n_caps;
};

struct errata_result {
    errata_match *m; /* ranked, best first */
    size_t n;
    size_t input_bytes, input_lines;
    char **warnings; /* records skipped on this input, and why */
    size_t n_warnings;
};

#endif
