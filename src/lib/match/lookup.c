/*
 * lookup.c — errata_lookup(): from pasted text to ranked matches.
 *
 *   normalise → one Hyperscan pass over the whole text (which records may match?)
 *             → PCRE2 on each candidate (does it really match, where, with which captures?)
 *             → score and rank.
 *
 * The Hyperscan pass costs the same whatever the number of records, and PCRE2 runs only on the
 * few records Hyperscan reports plus the rare patterns Hyperscan cannot take at all.
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "error.h"
#include "lookup.h"
#include "normalize.h"
#include "search.h"

/* At most this many occurrences of one pattern are weighed to find its best one: a log that
 * repeats a line a million times should not cost a million PCRE2 calls. */
#define MAX_OCCURRENCES 1000

/* The patterns to confirm: a list, not a bitmap of every record, so that a lookup of a short
 * text costs the same at any size of the knowledge base. */
typedef struct {
    size_t *ids;
    size_t n, cap;
    size_t n_entries;   /* the db's: ids are below it */
    bool stray;         /* Hyperscan reported an id >= n_entries: the index is inconsistent */
    bool failed;        /* out of memory */
} scan_state;

static bool add_candidate(scan_state *st, size_t id)
{
    if (st->n == st->cap) {
        size_t cap = st->cap ? 2 * st->cap : 32;
        size_t *p = realloc(st->ids, cap * sizeof *p);
        if (!p) {
            st->failed = true;
            return false;
        }
        st->ids = p, st->cap = cap;
    }
    st->ids[st->n++] = id;
    return true;
}

static int on_hs_match(unsigned int id, unsigned long long from, unsigned long long to,
                       unsigned int flags, void *ctx)
{
    (void)from, (void)to, (void)flags;
    scan_state *st = ctx;
    if (id >= st->n_entries) { /* errata_open checks the counts agree; never trust a file that far */
        st->stray = true;
        return 1; /* stop scanning */
    }
    return add_candidate(st, id) ? 0 : 1; /* SINGLEMATCH: each id once */
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts the candidates and drops repeats: every pattern is confirmed once, in id order. */
static void unique_candidates(scan_state *st)
{
    if (st->n < 2)
        return;
    qsort(st->ids, st->n, sizeof *st->ids, cmp_size);
    size_t k = 1;
    for (size_t i = 1; i < st->n; i++)
        if (st->ids[i] != st->ids[k - 1])
            st->ids[k++] = st->ids[i];
    st->n = k;
}

static bool add_warning(errata_result *res, const char *fmt, const char *arg)
{
    size_t len = strlen(fmt) + strlen(arg) + 1;
    char *w = malloc(len);
    char **p = realloc(res->warnings, (res->n_warnings + 1) * sizeof *p);
    if (!w || !p) {
        free(w);
        if (p)
            res->warnings = p;
        return false;
    }
    snprintf(w, len, fmt, arg);
    res->warnings = p;
    res->warnings[res->n_warnings++] = w;
    return true;
}

/* Whether m already holds a capture of that name, set or not. */
static bool has_capture(const errata_match *m, const char *name)
{
    for (size_t i = 0; i < m->n_caps; i++)
        if (strcmp(m->caps[i].name, name) == 0)
            return true;
    return false;
}

static errata_code collect_captures(const pcre2_code *re, const char *text, PCRE2_SIZE *ov,
                                    errata_match *m)
{
    uint32_t count = 0, entry_size = 0;
    PCRE2_SPTR table = NULL;
    pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &count);
    if (count == 0)
        return ERRATA_OK;
    pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
    pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);
    if (!(m->caps = calloc(count, sizeof *m->caps)))
        return ERRATA_ERR_NOMEM;
    /* First the groups that matched; then, once per name, the ones that did not. */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < count; i++) {
            PCRE2_SPTR e = table + (size_t)i * entry_size;
            const char *name = (const char *)e + 2;
            unsigned group = (unsigned)(e[0] << 8 | e[1]);
            PCRE2_SIZE s = ov[2 * group], t = ov[2 * group + 1];
            bool set = s != PCRE2_UNSET && t >= s;
            if (set != (pass == 0) || (pass == 1 && has_capture(m, name)))
                continue;
            capture *c = &m->caps[m->n_caps];
            c->name = strdup(name);
            c->value = set ? strndup(text + s, t - s) : strdup(name);
            c->unset = !set;
            if (!c->name || !c->value) {
                free(c->name), free(c->value);
                return ERRATA_ERR_NOMEM;
            }
            for (char *v = c->value; !set && *v; v++)
                *v = (char)toupper((unsigned char)*v);
            m->n_caps++;
        }
    }
    return ERRATA_OK;
}

static double role_bonus(line_role role)
{
    switch (role) {
    case LINE_ROOT: return RANK_ROLE_ROOT;
    case LINE_KEY: return RANK_ROLE_KEY;
    case LINE_FRAMING: return RANK_ROLE_FRAMING;
    case LINE_PLAIN: break;
    }
    return 0.0;
}

static size_t line_start_of(const char *text, size_t at)
{
    while (at > 0 && text[at - 1] != '\n')
        at--;
    return at;
}

/* Finds the best occurrence of entry i's pattern in text: the one whose own score (specificity
 * of the alternative that matched, role of its line, position) is highest, the later one on a
 * tie. A log that shows an error line and then make's "Error 127" framing is so answered from
 * the error line. Returns 1 (and fills m) on a match, 0 on none, -1 when PCRE2 gave up (a match
 * limit) before any occurrence and -2 when out of memory. */
static int confirm(errata_db *db, size_t i, const char *text, size_t len, size_t total_lines,
                   pcre2_match_data *md, errata_match *m)
{
    const pcre2_code *re = db_pattern(db, i, NULL);
    if (!re)
        return -1;
    const db_entry *e = &db->entries[i];
    PCRE2_SIZE start = 0;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    uint32_t pairs = pcre2_get_ovector_count(md);
    PCRE2_SIZE *best_ov = NULL;
    double best = -1e300;
    size_t line = 1, counted_to = 0; /* line number of offset counted_to */
    score_parts best_parts = {0};
    size_t best_line = 0, n_occ = 0, first_line = 0, last_line = 0;
    for (int k = 0; k < MAX_OCCURRENCES && start <= len; k++) {
        int rc = pcre2_match(re, (PCRE2_SPTR)text, len, start, PCRE2_NO_UTF_CHECK, md, db->mctx);
        if (rc == PCRE2_ERROR_NOMATCH)
            break;
        if (rc < 0) {
            if (!best_ov)
                return -1;
            break; /* keep the occurrences found before PCRE2 gave up */
        }
        for (const char *nl; counted_to < ov[0] &&
                             (nl = memchr(text + counted_to, '\n', ov[0] - counted_to));) {
            line++;
            counted_to = (size_t)(nl - text) + 1;
        }
        counted_to = ov[0];
        if (n_occ++ == 0)
            first_line = line;
        last_line = line;
        PCRE2_SPTR mark = pcre2_get_mark(md);
        long alt = mark ? strtol((const char *)mark, NULL, 10) : -1;
        score_parts p = {0};
        p.specificity = alt >= 0 && (size_t)alt < e->n_alts ? e->alt_literals[alt] : e->literals;
        p.role = classify_line(text, len, line_start_of(text, ov[0]));
        p.role_bonus = role_bonus(p.role);
        p.position = total_lines > 1 ? (double)(line - 1) / (double)(total_lines - 1) : 1.0;
        double local = p.specificity * RANK_W_SPECIFICITY + p.role_bonus +
                       p.position * RANK_W_POSITION;
        if (local >= best) {
            if (!best_ov && !(best_ov = malloc(2 * pairs * sizeof *best_ov)))
                return -2;
            memcpy(best_ov, ov, 2 * pairs * sizeof *best_ov);
            best = local;
            best_parts = p;
            best_line = line;
        }
        start = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
        while (start < len && ((unsigned char)text[start] & 0xC0) == 0x80)
            start++; /* never restart inside a UTF-8 sequence */
    }
    if (!best_ov)
        return 0;
    memset(m, 0, sizeof *m);
    m->entry = i;
    m->start = best_ov[0];
    m->end = best_ov[1];
    m->line = best_line;
    m->occurrences = n_occ, m->first_line = first_line, m->last_line = last_line;
    m->parts = best_parts;
    m->text = strndup(text + m->start, m->end - m->start);
    errata_code rc = m->text ? collect_captures(re, text, best_ov, m) : ERRATA_ERR_NOMEM;
    free(best_ov);
    return rc == ERRATA_OK ? 1 : -2;
}

/* The format of the output around a match: a traceback's header stands a few lines above its
 * last line, so a window of some kilobytes is enough and keeps a long log from costing more. */
#define FORMAT_WINDOW_BEFORE 2048
#define FORMAT_WINDOW_AFTER 512

/* Adds the record's own parts to the occurrence's (confirm()) and sums them. */
static bool score(errata_match *m, const char *text, size_t len, const errata_env *env)
{
    const record *r = m->rec;
    size_t line_start = line_start_of(text, m->start);
    size_t from = line_start > FORMAT_WINDOW_BEFORE ? line_start - FORMAT_WINDOW_BEFORE : 0;
    size_t to = len - m->end > FORMAT_WINDOW_AFTER ? m->end + FORMAT_WINDOW_AFTER : len;
    unsigned formats = detect_formats(text + from, to - from);
    m->parts.domain_fit = format_fits_domain(formats, r->domain);
    m->parts.confidence = r->confidence;
    m->parts.fix_success_rate = r->fix_success_rate;
    if (!applicability_of(r, env ? &env->e : NULL, &m->app))
        return false;
    m->parts.applicability_bonus =
        m->app.state == ERRATA_APPLICABILITY_NOT_AFFECTED ? RANK_NOT_AFFECTED
        : m->app.state == ERRATA_APPLICABILITY_APPLIES && r->n_versions ? RANK_APPLIES
                                                                          : 0.0;
    m->score = m->parts.applicability_bonus +
               m->parts.specificity * RANK_W_SPECIFICITY + m->parts.role_bonus +
               m->parts.position * RANK_W_POSITION +
               (m->parts.domain_fit ? RANK_W_DOMAIN_FIT : 0.0) +
               m->parts.confidence * RANK_W_CONFIDENCE +
               m->parts.fix_success_rate * RANK_W_FIX_RATE;
    return true;
}

static int cmp_match(const void *a, const void *b)
{
    const errata_match *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return strcmp(x->rec->id, y->rec->id);
}

static bool edge_names(const record *r, int kind, const char *id)
{
    for (size_t i = 0; i < r->n_edges[kind]; i++)
        if (strcmp(r->edges[kind][i].id, id) == 0)
            return true;
    return false;
}

/* The graph says a's error usually comes before b's: a is b's cause. */
bool lookup_is_cause_of(const record *a, const record *b)
{
    return edge_names(a, EDGE_LEADS_TO, b->id) || edge_names(b, EDGE_PRECEDED_BY, a->id);
}

/* When a cause and its knock-on error both matched, the cause is the answer even when the
 * knock-on's line scores higher (CMake's missing toolchain file before its "CMAKE_MAKE_PROGRAM
 * is not set", javac's missing package before "cannot find symbol"): the cause moves just above
 * it. Links both ways (a cycle in the graph) change nothing; every move is bounded. */
static void causes_first(errata_result *res)
{
    size_t budget = res->n * res->n;
    for (size_t i = 0; i < res->n;) {
        size_t j = i + 1;
        while (j < res->n && (res->m[j].fuzzy || !lookup_is_cause_of(res->m[j].rec, res->m[i].rec) ||
                              lookup_is_cause_of(res->m[i].rec, res->m[j].rec)))
            j++;
        if (j == res->n || budget == 0) {
            i++;
            continue;
        }
        budget--;
        errata_match cause = res->m[j];
        cause.parts.cause_of = res->m[i].rec;
        cause.parts.cause_of_line = res->m[i].line;
        memmove(&res->m[i + 1], &res->m[i], (j - i) * sizeof *res->m);
        res->m[i] = cause;
    }
}

static void match_clear(errata_match *m)
{
    applicability_clear(&m->app);
    free(m->text);
    for (size_t i = 0; i < m->n_caps; i++)
        free(m->caps[i].name), free(m->caps[i].value);
    free(m->caps);
}

void errata_result_free(errata_result *res)
{
    if (!res)
        return;
    for (size_t i = 0; i < res->n; i++)
        match_clear(&res->m[i]);
    free(res->m);
    for (size_t i = 0; i < res->n_warnings; i++)
        free(res->warnings[i]);
    free(res->warnings);
    free(res);
}

/* Runs the confirmation step over every candidate and keeps the matches. */
static errata_code confirm_all(errata_db *db, const scan_state *st, const char *text,
                               size_t len, const errata_env *env, errata_result *res,
                               errata_error *err)
{
    size_t total_lines = res->input_lines;
    pcre2_match_data *md = NULL;
    errata_code rc = ERRATA_OK;
    for (size_t c = 0; c < st->n && rc == ERRATA_OK; c++) {
        size_t i = st->ids[c];
        const pcre2_code *re = db_pattern(db, i, NULL);
        if (!re) {
            add_warning(res, "the pattern of %s does not compile; it was skipped",
                        db->entries[i].id);
            continue;
        }
        pcre2_match_data_free(md);
        if (!(md = pcre2_match_data_create_from_pattern(re, NULL))) {
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory matching");
            break;
        }
        errata_match m;
        int got = confirm(db, i, text, len, total_lines, md, &m);
        if (got == -2) {
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory matching");
        } else if (got == -1) {
            add_warning(res, "the pattern of %s gave up on this input (match limit); it was "
                        "skipped", db->entries[i].id);
        } else if (got == 1) {
            if (!(m.rec = db_record(db, i, err))) {
                match_clear(&m);
                rc = ERRATA_ERR_CORRUPT;
                break;
            }
            m.raw_json = db->entries[i].json; /* read by db_record, then never changed */
            if (!score(&m, text, len, env)) {
                match_clear(&m);
                rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
                break;
            }
            errata_match *p = realloc(res->m, (res->n + 1) * sizeof *p);
            if (!p) {
                match_clear(&m);
                rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory matching");
                break;
            }
            res->m = p;
            res->m[res->n++] = m;
        }
    }
    pcre2_match_data_free(md);
    return rc;
}

errata_code errata_lookup(errata_db *db, const char *text, size_t len,
                          const errata_lookup_options *opts, errata_result **out,
                          errata_error *err)
{
    *out = NULL;
    if (!db || (!text && len))
        return set_error(err, ERRATA_ERR_ARG, "no database or text given");
    size_t max_input = opts && opts->max_input ? opts->max_input : ERRATA_DEFAULT_MAX_INPUT;
    size_t max_results = opts && opts->max_results ? opts->max_results : 5;
    if (len > max_input || len >= UINT_MAX / 2)
        return set_error(err, ERRATA_ERR_TOO_BIG,
                         "the input is %zu bytes, over the limit of %zu bytes; give the part of "
                         "the log around the error, or scan the whole log with errata scan",
                         len, max_input);
    return lookup_text(db, text, len, opts ? opts->env : NULL, true, max_results, NULL, 0, out,
                       err);
}

errata_code lookup_text(errata_db *db, const char *text, size_t len, const errata_env *env,
                        bool guesses, size_t max_results, const uint32_t *candidates,
                        size_t n_candidates, errata_result **out, errata_error *err)
{
    *out = NULL;
    strbuf norm;
    sb_init(&norm);
    normalize_text(text ? text : "", len, &norm);
    strip_line_prefixes(&norm);
    if (norm.failed) {
        sb_free(&norm);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory normalising the input");
    }
    if (normalized_blank(norm.buf ? norm.buf : "", norm.len)) {
        sb_free(&norm);
        return set_error(err, ERRATA_ERR_ARG, "the input is empty: give the error text to look up");
    }
    errata_result *res = calloc(1, sizeof *res);
    scan_state st = {.n_entries = db->n};
    errata_code rc = ERRATA_OK;
    if (!res)
        rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    if (rc == ERRATA_OK) {
        res->input_bytes = len;
        res->input_lines = normalized_lines(norm.buf, norm.len);
        res->has_env = env != NULL;
        for (size_t k = 0; k < db->n_pcre_only; k++)
            add_candidate(&st, db->pcre_only[k]);
        for (size_t k = 0; candidates && k < n_candidates; k++)
            if (candidates[k] < db->n)
                add_candidate(&st, candidates[k]);
        if (db->hs && !candidates) {
            hs_scratch_t *scratch = db_take_scratch(db);
            if (!scratch)
                rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory (pattern scratch space)");
            else if (hs_scan(db->hs, norm.buf, (unsigned)norm.len, 0, scratch, on_hs_match, &st) !=
                         HS_SUCCESS &&
                     !st.stray)
                rc = set_error(err, ERRATA_ERR_INTERNAL, "the pattern scan failed");
            if (st.stray)
                rc = set_error(err, ERRATA_ERR_CORRUPT, "%s: the index is corrupt (its pattern "
                               "database names more patterns than it has records); rebuild it "
                               "with errata build", db->path);
            db_give_scratch(db, scratch);
        }
        if (rc == ERRATA_OK && st.failed)
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
        unique_candidates(&st);
    }
    if (rc == ERRATA_OK)
        rc = confirm_all(db, &st, norm.buf, norm.len, env, res, err);
    if (rc == ERRATA_OK && res->n == 0 && guesses) {
        /* No pattern matched: offer the records the text's words point to, as guesses. */
        char *q = fallback_query(norm.buf, norm.len);
        if (!q)
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
        else
            rc = search_records(db, q, strlen(q), max_results, true, res, err);
        free(q);
    }
    free(st.ids);
    sb_free(&norm);
    if (rc != ERRATA_OK) {
        errata_result_free(res);
        return rc;
    }
    if (res->n > 1) {
        qsort(res->m, res->n, sizeof *res->m, cmp_match);
        causes_first(res);
    }
    while (max_results && res->n > max_results)
        match_clear(&res->m[--res->n]);
    /* Every match names its record and, for a pattern match, the text it matched. */
    for (size_t i = 0; i < res->n; i++)
        assert(res->m[i].rec && (res->m[i].fuzzy || res->m[i].text));
    *out = res;
    return ERRATA_OK;
}

/* ------------------------------------------------------------------ accessors */

size_t errata_result_count(const errata_result *res) { return res ? res->n : 0; }

const errata_match *errata_result_match(const errata_result *res, size_t i)
{
    return res && i < res->n ? &res->m[i] : NULL;
}

const errata_record *errata_match_record(const errata_match *m) { return m->rec; }
int errata_match_is_fuzzy(const errata_match *m) { return m->fuzzy; }

errata_applicability errata_match_applicability(const errata_match *m, const char **reason)
{
    if (reason)
        *reason = m->app.reason ? m->app.reason : "not decided (a full-text guess)";
    return m->app.state;
}

double errata_match_score(const errata_match *m) { return m->score; }
size_t errata_match_line(const errata_match *m) { return m->line; }
const char *errata_match_text(const errata_match *m) { return m->text; }

const char *errata_match_capture(const errata_match *m, const char *name)
{
    for (size_t i = 0; m && name && i < m->n_caps; i++)
        if (!m->caps[i].unset && strcmp(m->caps[i].name, name) == 0)
            return m->caps[i].value;
    return NULL;
}
