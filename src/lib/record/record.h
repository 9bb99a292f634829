/*
 * record.h — the record model: one known failure, exactly the fields of the seed record plus
 * the optional `examples` and `reproduce` (docs/format.md).
 *
 * record_from_json() checks structure (required fields, types, ranges, enumerations) and reports
 * each problem with its field path; the meaning checks that need more than one field or a regex
 * engine live in validate.c. record_to_json() writes every field back in the seed's order, so
 * that load → write → load gives an equal record.
 */
#ifndef ERRATA_RECORD_H
#define ERRATA_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "errata.h"

typedef struct {
    char **v; /* owned strings */
    size_t n;
} strvec;

typedef struct {
    char *version; /* "package<specifier>", never NULL */
    char *introduced, *deprecated, *removed, *behavior_change, *status; /* NULL = null */
} rec_version;

typedef struct {
    char *action, *why_fails, *condition; /* never NULL ("" when empty) */
    double fail_rate;
    strvec sources;
} rec_dead_end;

typedef struct {
    char *action, *how, *condition; /* never NULL */
    double success_rate;
    strvec sources;
} rec_workaround;

typedef struct {
    char *id;
    bool is_object;       /* written as {"id": …} rather than a bare string */
    bool has_probability; /* probability is a number, not null */
    double probability;
    char *condition; /* NULL = null or absent */
} rec_edge;

typedef struct {
    char *key, *value;
} rec_kv;

/* The three kinds of transition_graph edge, in the order the format lists them. */
enum { EDGE_LEADS_TO, EDGE_PRECEDED_BY, EDGE_CONFUSED_WITH, EDGE_KINDS };
extern const char *const edge_kind_names[EDGE_KINDS];

struct errata_record {
    char *id, *signature, *regex, *domain, *category, *root_cause; /* required */
    char *signature_zh, *subcategory, *root_cause_type, *root_cause_zh; /* NULL = null */
    int transient; /* 1 or 0 as the record says; -1: not said (record_is_transient derives it) */
    rec_version *versions;
    size_t n_versions;
    rec_kv *os_specific;
    size_t n_os_specific;
    rec_dead_end *dead_ends;
    size_t n_dead_ends;
    rec_workaround *workarounds;
    size_t n_workarounds;
    strvec workarounds_zh;
    strvec dead_ends_zh; /* optional; one per dead end when present */
    rec_edge *edges[EDGE_KINDS];
    size_t n_edges[EDGE_KINDS];
    char *official_doc_url, *official_doc_section, *error_code; /* NULL = null */
    char *verification_tier, *resolvable;                        /* required */
    double confidence, fix_success_rate;                         /* required */
    char *first_seen, *last_confirmed, *last_updated;            /* NULL = null */
    long long evidence_count;
    strvec tags;
    char *locale; /* never NULL; "en" by default */
    strvec aliases;
    bool has_examples;
    strvec examples_match, examples_no_match;
    bool has_reproduce;
    char *reproduce_command, *reproduce_notes;
    strvec reproduce_requires;
};

typedef struct errata_record record;

/* Where findings go while parsing one file. */
typedef struct {
    errata_diags *diags; /* may be NULL: findings are only counted */
    const char *file;
    size_t errors;
} parse_ctx;

void parse_error(parse_ctx *ctx, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void parse_warning(parse_ctx *ctx, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Builds a record from a parsed JSON value. Returns NULL when a structural error makes the record
 * unusable (ctx->errors > 0 then); out of memory is also reported as NULL with an error. */
record *record_from_json(const json_t *root, parse_ctx *ctx);

/* Parses JSON text (one record) with syntax errors reported as file:line:col. */
record *record_parse_text(const char *text, size_t len, parse_ctx *ctx);

json_t *record_to_json(const record *r);
void record_free(record *r);
bool record_equal(const record *a, const record *b);

/* Whether the failure is transient infrastructure (a network timeout, a registry's 5xx, DNS,
 * a rate limit, an OOM-killed runner): worth retrying unchanged. The record's own "transient"
 * when it says; otherwise true for category network_error only. */
bool record_is_transient(const record *r);

/* Whether r falls under list, comma-separated categories and the words "any", "transient"
 * and "defect" (not transient), as --fail-on takes them: 1 or 0, -1 when the list has an
 * empty or malformed item (anything but lowercase letters, digits and '_'). */
int record_in_list(const record *r, const char *list);

/* The index of the workaround shown k-th (from 0): by success rate, best first, equal rates in
 * the author's order. Every surface shows workarounds in this order and numbers them from 1.
 * Quadratic without allocating; a record has a handful of workarounds. */
size_t record_workaround_at(const record *r, size_t k);

/* The Chinese text of workaround or dead end i, or NULL when the record has none for it. */
const char *record_workaround_zh(const record *r, size_t i);
const char *record_dead_end_zh(const record *r, size_t i);

/* The top-level field names of the format, in the order records are written. */
extern const char *const record_field_names[];

#endif
