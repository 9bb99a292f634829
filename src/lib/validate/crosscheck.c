/*
 * crosscheck.c — errata_cross_check(): does every record win on its own examples?
 *
 * Each record's examples.match texts are real output of its error. Looked up against the whole
 * knowledge base, each must return its own record first; any other record that also matches is
 * listed, because two records answering the same text is either a deliberate general/specific
 * pair (fine when the specific one wins) or a pattern that is too broad.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "error.h"
#include "index_build.h"
#include "lookup.h"
#include "normalize.h"
#include "pattern.h"
#include "strbuf.h"

struct errata_cross {
    errata_cross_entry *v;
    size_t n, cap;
    size_t outranked;
    size_t scan_missed;
};

static void free_entry(errata_cross_entry *e)
{
    free((char *)e->record_id);
    free((char *)e->top_id);
    free((char *)e->others);
}

void errata_cross_free(errata_cross *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        free_entry(&c->v[i]);
    free(c->v);
    free(c);
}

size_t errata_cross_count(const errata_cross *c) { return c ? c->n : 0; }
size_t errata_cross_outranked(const errata_cross *c) { return c ? c->outranked : 0; }
size_t errata_cross_scan_missed(const errata_cross *c) { return c ? c->scan_missed : 0; }

/* Whether the text holds one of the literals the scan prefilter looks for in r (caseless, in
 * the text's escape-free form, as a scan sees it). A record the scan never reports (category
 * "…_notice") has none and is not checked. */
static bool scan_would_try(const record *r, const char *text)
{
    size_t n = strlen(r->category);
    if (n >= 7 && strcmp(r->category + n - 7, "_notice") == 0)
        return true;
    char (*lits)[PATTERN_MAX_LITERAL + 1] = malloc(64 * sizeof *lits);
    strbuf norm;
    sb_init(&norm);
    normalize_text(text, strlen(text), &norm);
    bool found = false;
    size_t k = lits ? pattern_required_literals(r->regex, lits, 64) : 0;
    for (size_t i = 0; i < k && !found && norm.buf; i++)
        found = strcasestr(norm.buf, lits[i]) != NULL;
    free(lits);
    sb_free(&norm);
    return found;
}
const errata_cross_entry *errata_cross_get(const errata_cross *c, size_t i)
{
    return c && i < c->n ? &c->v[i] : NULL;
}

/* Looks up one example and appends what happened to c. */
static errata_code check_example(errata_db *db, const record *r, size_t j, errata_cross *c,
                                 errata_error *err)
{
    const char *text = r->examples_match.v[j];
    errata_lookup_options lo = {.max_results = 20};
    errata_result *res = NULL;
    errata_code rc = errata_lookup(db, text, strlen(text), &lo, &res, err);
    if (rc == ERRATA_ERR_ARG) /* an empty example: validate reports it */
        return ERRATA_OK;
    if (rc != ERRATA_OK)
        return rc;
    errata_cross_entry e = {0};
    strbuf others;
    sb_init(&others);
    for (size_t k = 0; k < res->n; k++) {
        const errata_match *m = &res->m[k];
        if (m->fuzzy)
            continue;
        if (strcmp(m->rec->id, r->id) == 0)
            e.rank = k + 1;
        else
            sb_printf(&others, "%s%s", others.len ? ", " : "", m->rec->id);
    }
    e.record_id = strdup(r->id);
    e.example = j;
    e.top_id = strdup(res->n && !res->m[0].fuzzy ? res->m[0].rec->id : "");
    e.after_cause = e.rank == 2 && res->m[0].parts.cause_of &&
                    strcmp(res->m[0].parts.cause_of->id, r->id) == 0;
    e.others = sb_finish(&others);
    e.scan_missed = !scan_would_try(r, text);
    errata_result_free(res);
    if (!e.record_id || !e.top_id || !e.others) {
        free_entry(&e);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        errata_cross_entry *p = realloc(c->v, cap * sizeof *p);
        if (!p) {
            free_entry(&e);
            return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
        }
        c->v = p;
        c->cap = cap;
    }
    c->outranked += e.rank != 1 && !e.after_cause;
    c->scan_missed += e.scan_missed != 0;
    c->v[c->n++] = e;
    return ERRATA_OK;
}

errata_code errata_cross_check(const char *const *kb_dirs, size_t n_dirs, errata_cross **out,
                               errata_error *err)
{
    *out = NULL;
    char path[4096];
    errata_db *db = NULL;
    errata_code rc = index_build_temporary(kb_dirs, n_dirs, path, sizeof path, &db, err);
    errata_cross *c = calloc(1, sizeof *c);
    if (rc == ERRATA_OK && !c)
        rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc == ERRATA_OK && i < db->n; i++) {
        const record *r = db_record(db, i, err);
        if (!r) {
            rc = ERRATA_ERR_CORRUPT;
            break;
        }
        for (size_t j = 0; rc == ERRATA_OK && j < r->examples_match.n; j++)
            rc = check_example(db, r, j, c, err);
    }
    errata_close(db);
    unlink(path);
    if (rc != ERRATA_OK) {
        errata_cross_free(c);
        return rc;
    }
    *out = c;
    return ERRATA_OK;
}
