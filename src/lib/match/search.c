/*
 * search.c — full-text search and the lookup fallback; see search.h.
 *
 * The query is built from words, not from the raw text: FTS5's query syntax would reject or
 * misread punctuation-heavy error output, and most of a log's words (paths, numbers, "error")
 * carry no information. Each remaining word becomes a quoted term, OR-ed, and BM25 ranks the
 * records with the signature and aliases weighted above root cause and workarounds.
 */
#define _GNU_SOURCE
#include "search.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "keylines.h"
#include "normalize.h"

#define MAX_TERMS 16

/* The fallback keeps a record only when the query's words cover this much of it. */
#define GUARD_MIN_HITS 2           /* distinct terms found in the record's texts */
#define GUARD_MIN_SIGNATURE_HITS 2 /* … of which in its signature or aliases */
#define GUARD_MIN_SHARE 0.5        /* … and this share of the terms (of at most 8) */
#define GUARD_MIN_RELATIVE 0.6     /* … and at least this share of the best guess's BM25 */
#define GUARD_MIN_NAME_LEN 8       /* a lone query word: at least this long */
/* A term found in more than this share of the records ("java", "exception") says nothing about
 * which record is meant, so the guard does not count it. */
#define GUARD_MAX_DOC_SHARE 0.05

/* ------------------------------------------------------------------ CJK */

static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    if ((s[0] & 0xE0) == 0xC0 && (s[1] & 0xC0) == 0x80) {
        *cp = (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3F);
        return 2;
    }
    if ((s[0] & 0xF0) == 0xE0 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80) {
        *cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
        return 3;
    }
    if ((s[0] & 0xF8) == 0xF0 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80 &&
        (s[3] & 0xC0) == 0x80) {
        *cp = (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
              (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
        return 4;
    }
    *cp = 0xFFFD;
    return 1;
}

static bool is_cjk(uint32_t cp)
{
    return (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x3040 && cp <= 0x30FF) ||
           (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0x20000 && cp <= 0x2FFFF);
}

/* CJK punctuation and full-width forms separate words. */
static bool is_cjk_punct(uint32_t cp)
{
    return (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFF00 && cp <= 0xFFEF);
}

void cjk_bigrams(const char *text, strbuf *out)
{
    const unsigned char *s = (const unsigned char *)text;
    const unsigned char *prev = NULL; /* previous CJK character in the current run */
    size_t prev_len = 0, run = 0;
    while (*s) {
        uint32_t cp;
        size_t l = utf8_decode(s, &cp);
        if (is_cjk(cp)) {
            if (run == 0)
                sb_putc(out, ' ');
            else {
                if (run > 1)
                    sb_putc(out, ' ');
                sb_append(out, (const char *)prev, prev_len);
                sb_append(out, (const char *)s, l);
            }
            prev = s, prev_len = l;
            run++;
        } else {
            if (run == 1)
                sb_append(out, (const char *)prev, prev_len); /* a lone character */
            if (run)
                sb_putc(out, ' ');
            run = 0;
            if (is_cjk_punct(cp))
                sb_putc(out, ' ');
            else
                sb_append(out, (const char *)s, l);
        }
        s += l;
    }
    if (run == 1)
        sb_append(out, (const char *)prev, prev_len);
}

/* ------------------------------------------------------------------ terms */

static bool stopword(const char *w)
{
    static const char *const stop[] = {
        "the", "and", "for", "with", "not", "from", "this", "that", "was", "were", "are", "has",
        "have", "had", "you", "your", "can", "could", "cannot", "into", "onto", "but", "all",
        "any", "its", "use", "using", "did", "does", "error", "errors", "failed", "failure",
        "fail", "fails", "warning", "warnings", "line", "file", "exit", "status", "code",
        "true", "false", "null", "none", "http", "https", "www", "com", "org", "home", "user",
        "usr", "lib", "tmp", "src", "var", "run", "see", "more", "info", "when", "while",
        "there", "been", "will", "would", "should", "then", "than", "which", "what", "got",
        NULL};
    for (const char *const *s = stop; *s; s++)
        if (strcmp(*s, w) == 0)
            return true;
    return false;
}

typedef struct {
    char *v[MAX_TERMS];
    size_t n;
} terms;

static void add_term(terms *t, const char *s, size_t n)
{
    if (t->n >= MAX_TERMS)
        return;
    for (size_t i = 0; i < t->n; i++)
        if (strlen(t->v[i]) == n && memcmp(t->v[i], s, n) == 0)
            return;
    char *w = strndup(s, n);
    if (w)
        t->v[t->n++] = w;
}

/* ASCII words of three or more characters that are not stopwords or numbers, lower-cased, and
 * CJK bigrams. */
static void extract_terms(const char *text, size_t len, terms *t)
{
    strbuf sb;
    sb_init(&sb);
    sb_append(&sb, text, len);
    strbuf cjk;
    sb_init(&cjk);
    cjk_bigrams(sb.buf ? sb.buf : "", &cjk);
    sb_free(&sb);
    const char *s = cjk.buf ? cjk.buf : "";
    while (*s && t->n < MAX_TERMS) {
        unsigned char c = (unsigned char)*s;
        if (isalpha(c)) {
            const char *start = s;
            while (isalnum((unsigned char)*s) || *s == '_')
                s++;
            size_t n = (size_t)(s - start);
            char w[64];
            if (n >= 3 && n < sizeof w) {
                for (size_t i = 0; i < n; i++)
                    w[i] = (char)tolower((unsigned char)start[i]);
                w[n] = '\0';
                if (!stopword(w))
                    add_term(t, w, n);
            }
        } else if (c >= 0x80) {
            const char *start = s;
            while ((unsigned char)*s >= 0x80)
                s++;
            uint32_t cp;
            utf8_decode((const unsigned char *)start, &cp);
            if (is_cjk(cp))
                add_term(t, start, (size_t)(s - start));
        } else {
            s++;
        }
    }
    sb_free(&cjk);
}

static void free_terms(terms *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i]);
    t->n = 0;
}

/* ------------------------------------------------------------------ guard */

/* Drops from t the terms too common in the knowledge base to tell records apart, using FTS5's
 * own document counts (a temporary fts5vocab view: the index itself is opened read-only). */
static errata_code keep_informative_terms(errata_db *db, terms *t, errata_error *err)
{
    if (sqlite3_exec(db->sql,
                     "CREATE VIRTUAL TABLE IF NOT EXISTS temp.records_vocab "
                     "USING fts5vocab(main, records_fts, row)",
                     NULL, NULL, NULL) != SQLITE_OK)
        return set_error(err, ERRATA_ERR_CORRUPT, "%s: full-text vocabulary: %s", db->path,
                         sqlite3_errmsg(db->sql));
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->sql, "SELECT doc FROM temp.records_vocab WHERE term = ?1", -1, &st,
                           NULL) != SQLITE_OK)
        return set_error(err, ERRATA_ERR_CORRUPT, "%s: full-text vocabulary: %s", db->path,
                         sqlite3_errmsg(db->sql));
    double limit = GUARD_MAX_DOC_SHARE * (double)db->n;
    if (limit < 2)
        limit = 2;
    size_t kept = 0;
    for (size_t i = 0; i < t->n; i++) {
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, t->v[i], -1, SQLITE_STATIC);
        double docs = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_double(st, 0) : 0;
        if (docs > limit)
            free(t->v[i]);
        else
            t->v[kept++] = t->v[i];
    }
    t->n = kept;
    sqlite3_finalize(st);
    return ERRATA_OK;
}

static bool in_text(const char *hay, const char *term)
{
    return hay && strcasestr(hay, term) != NULL;
}

/* Whether the informative terms cover enough of the record to call it related. */
static bool covers(const record *r, const terms *t)
{
    size_t hits = 0, sig_hits = 0;
    for (size_t i = 0; i < t->n; i++) {
        const char *w = t->v[i];
        bool sig = in_text(r->signature, w) || in_text(r->signature_zh, w) || in_text(r->id, w);
        for (size_t a = 0; !sig && a < r->aliases.n; a++)
            sig = in_text(r->aliases.v[a], w);
        bool any = sig || in_text(r->root_cause, w) || in_text(r->root_cause_zh, w);
        hits += any;
        sig_hits += sig;
    }
    size_t denom = t->n < 8 ? t->n : 8;
    /* A query of one informative word ("ModuleNotFoundError", "EADDRINUSE") names an error
     * when that word is in the record's signature and long enough to be a name, not a word. */
    if (t->n == 1)
        return sig_hits == 1 && strlen(t->v[0]) >= GUARD_MIN_NAME_LEN;
    return hits >= GUARD_MIN_HITS && sig_hits >= GUARD_MIN_SIGNATURE_HITS &&
           (double)hits >= GUARD_MIN_SHARE * (double)denom;
}

/* ------------------------------------------------------------------ search */

static errata_code add_fuzzy(errata_db *db, size_t entry, double score, errata_result *res,
                             errata_error *err)
{
    const record *r = db_record(db, entry, err);
    if (!r)
        return ERRATA_ERR_CORRUPT;
    errata_match *p = realloc(res->m, (res->n + 1) * sizeof *p);
    if (!p)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory searching");
    res->m = p;
    errata_match *m = &res->m[res->n];
    memset(m, 0, sizeof *m);
    m->rec = r;
    m->entry = entry;
    m->raw_json = db->entries[entry].json; /* read by db_record above */
    m->fuzzy = true;
    m->score = score;
    if (!(m->text = strdup("")))
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory searching");
    res->n++;
    return ERRATA_OK;
}

errata_code search_records(errata_db *db, const char *query, size_t len, size_t max, bool guard,
                           errata_result *res, errata_error *err)
{
    terms t = {{0}, 0}, informative = {{0}, 0};
    extract_terms(query, len, &t);
    if (t.n == 0)
        return ERRATA_OK;
    if (guard) {
        for (size_t i = 0; i < t.n; i++)
            add_term(&informative, t.v[i], strlen(t.v[i]));
        errata_code rc = keep_informative_terms(db, &informative, err);
        if (rc != ERRATA_OK || informative.n == 0) {
            free_terms(&t);
            free_terms(&informative);
            return rc;
        }
    }
    strbuf q;
    sb_init(&q);
    for (size_t i = 0; i < t.n; i++)
        sb_printf(&q, "%s\"%s\"", i ? " OR " : "", t.v[i]);
    sqlite3_stmt *st = NULL;
    errata_code rc = ERRATA_OK;
    if (q.failed) {
        rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory searching");
    } else if (sqlite3_prepare_v2(db->sql,
                                  "SELECT rowid, bm25(records_fts, 10.0, 6.0, 2.0, 1.0, 4.0) "
                                  "FROM records_fts WHERE records_fts MATCH ?1 "
                                  "ORDER BY 2, rowid LIMIT ?2",
                                  -1, &st, NULL) != SQLITE_OK) {
        rc = set_error(err, ERRATA_ERR_CORRUPT, "%s: full-text search failed: %s", db->path,
                       sqlite3_errmsg(db->sql));
    } else {
        sqlite3_bind_text(st, 1, q.buf, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)(guard ? 10 : max));
        int step;
        while (rc == ERRATA_OK && res->n < max && (step = sqlite3_step(st)) == SQLITE_ROW) {
            sqlite3_int64 rid = sqlite3_column_int64(st, 0);
            if (rid < 1 || (size_t)rid > db->n)
                continue;
            size_t entry = (size_t)rid - 1;
            const record *r = db_record(db, entry, err);
            if (!r) {
                rc = ERRATA_ERR_CORRUPT;
                break;
            }
            double score = -sqlite3_column_double(st, 1);
            if (guard && (!covers(r, &informative) ||
                          (res->n && score < GUARD_MIN_RELATIVE * res->m[0].score)))
                continue;
            rc = add_fuzzy(db, entry, score, res, err);
        }
    }
    sqlite3_finalize(st);
    sb_free(&q);
    free_terms(&t);
    free_terms(&informative);
    return rc;
}

/* ------------------------------------------------------------------ fallback query */

char *fallback_query(const char *text, size_t len)
{
    enum { KEEP = 5 };
    size_t key[KEEP], last[KEEP], n_key = 0, n_last = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        bool blank = true;
        for (size_t i = at; i < end && blank; i++)
            blank = text[i] == ' ' || text[i] == '\t';
        if (!blank) {
            line_role role = classify_line(text, len, at);
            if (role == LINE_KEY || role == LINE_ROOT)
                key[n_key++ % KEEP] = at;
            last[n_last++ % KEEP] = at;
        }
        at = end + 1;
    }
    /* A log with no error line in it has nothing to guess about; a short paste is taken whole
     * (it is the message the user is asking about, whatever its shape). */
    size_t *pick = n_key ? key : last;
    size_t count = n_key ? n_key : n_last > 3 ? 0 : n_last;
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "");
    for (size_t k = count > KEEP ? count - KEEP : 0; k < count; k++) {
        size_t at = pick[k % KEEP];
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        sb_append(&sb, text + at, end - at);
        sb_putc(&sb, '\n');
    }
    return sb_finish(&sb);
}

/* ------------------------------------------------------------------ public API */

errata_code errata_search(errata_db *db, const char *query, size_t len, size_t max,
                          errata_result **out, errata_error *err)
{
    *out = NULL;
    if (!db || !query)
        return set_error(err, ERRATA_ERR_ARG, "no database or query given");
    strbuf norm;
    sb_init(&norm);
    normalize_text(query, len, &norm);
    errata_result *res = calloc(1, sizeof *res);
    errata_code rc = ERRATA_OK;
    if (!res || norm.failed)
        rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    else if (normalized_blank(norm.buf ? norm.buf : "", norm.len))
        rc = set_error(err, ERRATA_ERR_ARG, "the query is empty: give words to search for");
    if (rc == ERRATA_OK) {
        res->input_bytes = len;
        res->input_lines = normalized_lines(norm.buf, norm.len);
        rc = search_records(db, norm.buf, norm.len, max ? max : 10, false, res, err);
    }
    sb_free(&norm);
    if (rc != ERRATA_OK) {
        errata_result_free(res);
        return rc;
    }
    *out = res;
    return ERRATA_OK;
}
