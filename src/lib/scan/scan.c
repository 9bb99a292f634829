/*
 * scan.c — errata_scan_*: the streaming scan of a whole log; see scan.h.
 *
 * Offsets are absolute positions in the escape-free stream. The scan keeps only the tail of it
 * that a window can still reach (text, starting at offset base) plus the chunk being read, so
 * memory does not grow with the input.
 */
#define _POSIX_C_SOURCE 200809L
#include "scan.h"

#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "error.h"
#include "normalize.h"
#include "pattern.h"
#include "prefilter.h"

/* Input is taken in pieces of at most this many bytes, whatever the caller feeds. */
#define FEED_PIECE ((size_t)1 << 20)

typedef enum { ESC_NONE, ESC_START, ESC_CSI, ESC_OSC, ESC_OSC_ESC } esc_state;

typedef struct {
    uint64_t end;     /* the offset just past the literal */
    uint32_t pattern; /* the db entry whose literal it is */
} hit;

/* A window whose hits name more patterns than this tries every pattern. */
#define WINDOW_MAX_CANDIDATES 64

struct errata_scan {
    errata_db *db;
    errata_scan_options opts;
    const prefilter *pf;  /* owned by the db */
    prefilter_state pfs;
    esc_state esc;

    strbuf text;          /* the stream from offset base on */
    uint64_t base;        /* offset of text.buf[0] */
    uint64_t total;       /* offsets read so far (the end of text) */
    uint64_t cursor;      /* an offset ≥ base whose line number is cursor_line */
    uint64_t cursor_line;

    hit *hits;            /* what the prefilter reported in the piece being read */
    size_t n_hits, cap_hits;

    bool open;            /* a window is being gathered */
    uint64_t w_start, w_last_hit;
    uint32_t cand[WINDOW_MAX_CANDIDATES]; /* the window's patterns whose literals it holds */
    size_t n_cand;        /* WINDOW_MAX_CANDIDATES + 1: too many, try every pattern */
    uint64_t closed_end;  /* where the last closed window ended: windows never overlap */

    errata_finding **f;   /* in order of first line */
    size_t n_f;
    int32_t *by_entry;    /* db entry → index in f, or -1 */
    uint64_t lines_total; /* set by finish */
    bool finished;
    char **warnings;      /* distinct warnings of the windows' lookups */
    size_t n_warnings;
};

/* ------------------------------------------------------------------ line numbers */

/* Eight bytes at a time: a line count over a whole log must run at memory speed, and a byte
 * loop does not. For each byte b of x = word ^ "\n\n…", the high bit of
 * ((b & 0x7f) + 0x7f) | b is set exactly when b is not zero. */
static uint64_t count_newlines(const char *p, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fu, nl = ones * '\n';
    uint64_t c = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        uint64_t x = w ^ nl;
        uint64_t zero = ~(((x & low7) + low7) | x) & highs; /* high bit of each '\n' byte */
        c += ((zero >> 7) * ones) >> 56;
    }
    for (; i < n; i++)
        c += p[i] == '\n';
    return c;
}

static const char *at(const errata_scan *s, uint64_t off) { return s->text.buf + (off - s->base); }

/* The line number of offset off (≥ the cursor); moves the cursor there. */
static uint64_t line_of(errata_scan *s, uint64_t off)
{
    s->cursor_line += count_newlines(at(s, s->cursor), (size_t)(off - s->cursor));
    s->cursor = off;
    return s->cursor_line;
}

/* ------------------------------------------------------------------ escapes */

/* Appends in to text without ANSI escape sequences (CSI "ESC [ … final", OSC "ESC ] … BEL" or
 * "… ESC \", and two-byte "ESC x"); the state carries a sequence over to the next chunk. */
static void append_without_escapes(errata_scan *s, const char *in, size_t n)
{
    if (s->esc == ESC_NONE && !memchr(in, 0x1b, n)) {
        sb_append(&s->text, in, n);
        return;
    }
    if (!sb_reserve(&s->text, n))
        return;
    char *out = s->text.buf + s->text.len;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)in[i];
        switch (s->esc) {
        case ESC_NONE:
            if (c == 0x1b)
                s->esc = ESC_START;
            else
                out[o++] = (char)c;
            break;
        case ESC_START:
            s->esc = c == '[' ? ESC_CSI : c == ']' ? ESC_OSC : ESC_NONE;
            break;
        case ESC_CSI:
            if (c >= 0x40 && c <= 0x7e)
                s->esc = ESC_NONE;
            else if (c == '\n') /* a broken sequence never eats a line */
                out[o++] = '\n', s->esc = ESC_NONE;
            break;
        case ESC_OSC:
            if (c == 0x07 || c == '\n')
                s->esc = ESC_NONE;
            else if (c == 0x1b)
                s->esc = ESC_OSC_ESC;
            if (c == '\n')
                out[o++] = '\n';
            break;
        case ESC_OSC_ESC:
            s->esc = ESC_NONE;
            break;
        }
    }
    s->text.len += o;
    s->text.buf[s->text.len] = '\0';
}

/* ------------------------------------------------------------------ findings */

static bool add_warnings(errata_scan *s, const errata_result *res)
{
    for (size_t i = 0; i < res->n_warnings; i++) {
        bool seen = false;
        for (size_t k = 0; k < s->n_warnings && !seen; k++)
            seen = strcmp(s->warnings[k], res->warnings[i]) == 0;
        if (seen || s->n_warnings >= 64)
            continue;
        char **p = realloc(s->warnings, (s->n_warnings + 1) * sizeof *p);
        if (!p)
            return false;
        s->warnings = p;
        if (!(s->warnings[s->n_warnings] = strdup(res->warnings[i])))
            return false;
        s->n_warnings++;
    }
    return true;
}

/* The lines [first, last] of the window text w (whose first line is line w_line), each cut to
 * CONTEXT_LINE_MAX bytes. */
static char *context_of(const char *w, size_t len, uint64_t w_line, uint64_t first, uint64_t last)
{
    strbuf out;
    sb_init(&out);
    uint64_t line = w_line;
    for (size_t i = 0; i < len && line <= last;) {
        const char *nl = memchr(w + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - w) : len;
        if (line >= first) {
            size_t n = end - i > CONTEXT_LINE_MAX ? CONTEXT_LINE_MAX : end - i;
            while (n > 0 && n < end - i && ((unsigned char)w[i + n] & 0xC0) == 0x80)
                n--; /* never cut inside a UTF-8 sequence */
            if (out.len)
                sb_putc(&out, '\n');
            sb_append(&out, w + i, n);
            if (n < end - i)
                sb_puts(&out, " …");
        }
        line++;
        i = end + 1;
    }
    if (out.failed) {
        sb_free(&out);
        return NULL;
    }
    /* The lines as the log has them, but valid UTF-8 without controls, as every output needs
     * (the same normalisation the patterns saw). */
    strbuf clean;
    sb_init(&clean);
    normalize_text(out.buf ? out.buf : "", out.len, &clean);
    sb_free(&out);
    if (clean.failed) {
        sb_free(&clean);
        return NULL;
    }
    return clean.buf ? clean.buf : strdup("");
}

/* Moves match k out of res into a finding of its own. */
static errata_finding *new_finding(errata_result *res, size_t k)
{
    errata_finding *f = calloc(1, sizeof *f);
    errata_result *one = calloc(1, sizeof *one);
    errata_match *m = malloc(sizeof *m);
    if (!f || !one || !m) {
        free(f), free(one), free(m);
        return NULL;
    }
    *m = res->m[k];
    memset(&res->m[k], 0, sizeof res->m[k]);
    one->m = m, one->n = 1;
    one->input_bytes = res->input_bytes, one->input_lines = res->input_lines;
    one->has_env = res->has_env;
    f->first = one;
    f->m = m;
    return f;
}

static void finding_free(errata_finding *f)
{
    if (!f)
        return;
    errata_result_free(f->first);
    free(f->context);
    free(f);
}

/* The number of lines the text of a match spans, less one. */
static uint64_t extra_lines(const errata_match *m)
{
    return m->text ? count_newlines(m->text, strlen(m->text)) : 0;
}

/* Adds the findings of one window's ranked matches. A match whose lines overlap a better one's
 * is another explanation of the same error, and a framing line ("make: *** Error 1") beside a
 * real error only reports that error: both are left out. */
/* Adds one accepted match of a window to its finding, or makes it a new finding. */
static errata_code take_match(errata_scan *s, errata_result *res, size_t k, const char *w,
                              size_t len, uint64_t w_line, errata_error *err)
{
    errata_match *m = &res->m[k];
    uint64_t first = w_line + m->first_line - 1, last = w_line + m->last_line - 1;
    int32_t idx = s->by_entry[m->entry];
    if (idx >= 0) {
        errata_finding *f = s->f[idx];
        f->occurrences += m->occurrences;
        if (last > f->last_line)
            f->last_line = last;
        if (f->n_lines < FINDING_LINES_MAX && first > f->lines[f->n_lines - 1])
            f->lines[f->n_lines++] = first;
        return ERRATA_OK;
    }
    uint64_t best = w_line + m->line - 1;
    errata_finding **p = realloc(s->f, (s->n_f + 1) * sizeof *p);
    if (!p)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory scanning");
    s->f = p;
    errata_finding *f = new_finding(res, k);
    if (!f)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory scanning");
    f->occurrences = f->m->occurrences;
    f->first_line = first, f->last_line = last;
    f->lines[0] = first, f->n_lines = 1;
    /* The context is around the occurrence the answer quotes (the best one of the window). */
    f->context_line = best > CONTEXT_LINES ? best - CONTEXT_LINES : 1;
    if (f->context_line < w_line)
        f->context_line = w_line;
    f->context = context_of(w, len, w_line, f->context_line, best + extra_lines(f->m) + CONTEXT_LINES);
    /* Lines of the answer are the input's, not the window's. */
    f->first->m[0].line = best;
    f->first->m[0].first_line = first;
    f->first->m[0].last_line = last;
    if (!f->context) {
        finding_free(f);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory scanning");
    }
    s->by_entry[f->m->entry] = (int32_t)s->n_f;
    s->f[s->n_f++] = f;
    if (s->opts.on_finding)
        s->opts.on_finding(f, s->opts.ctx);
    return ERRATA_OK;
}

/* Adds the findings of one window's ranked matches. A match whose lines overlap a better one's
 * is another explanation of the same error, and a framing line ("make: *** Error 1") beside a
 * real error only reports that error: both are left out. The rest are taken in line order, so
 * findings come in the order of the log. */
/* A record whose category ends in "_notice" explains a message that is not a failure (make's
 * "Nothing to be done"): a lookup answers it, a scan of a log does not report it. */
static bool is_notice(const record *r)
{
    size_t n = strlen(r->category);
    return n >= 7 && strcmp(r->category + n - 7, "_notice") == 0;
}

static errata_code take_matches(errata_scan *s, errata_result *res, const char *w, size_t len,
                                uint64_t w_line, errata_error *err)
{
    enum { MAX_TAKEN = 64 };
    uint64_t from[MAX_TAKEN], to[MAX_TAKEN];
    size_t taken[MAX_TAKEN], n = 0;
    for (size_t k = 0; k < res->n && n < MAX_TAKEN; k++) {
        errata_match *m = &res->m[k];
        if (m->fuzzy || is_notice(m->rec))
            continue;
        uint64_t a = m->line, b = m->line + extra_lines(m);
        bool covered = m->parts.role == LINE_FRAMING && n > 0;
        for (size_t j = 0; j < n && !covered; j++)
            covered = a <= to[j] && b >= from[j];
        if (covered)
            continue;
        /* insertion by line */
        size_t at = n;
        while (at > 0 && res->m[taken[at - 1]].line > m->line) {
            taken[at] = taken[at - 1], from[at] = from[at - 1], to[at] = to[at - 1];
            at--;
        }
        taken[at] = k, from[at] = a, to[at] = b;
        n++;
    }
    errata_code rc = ERRATA_OK;
    for (size_t j = 0; j < n && rc == ERRATA_OK; j++)
        rc = take_match(s, res, taken[j], w, len, w_line, err);
    return rc;
}

/* ------------------------------------------------------------------ windows */

/* The start of the window of a hit ending at off: WINDOW_LINES_BEFORE lines back from the
 * hit's line, at most WINDOW_BYTES_AROUND bytes, never before the last window's end. */
static uint64_t window_start(const errata_scan *s, uint64_t off)
{
    uint64_t floor = off > WINDOW_BYTES_AROUND ? off - WINDOW_BYTES_AROUND : 0;
    if (floor < s->closed_end)
        floor = s->closed_end;
    if (floor < s->base)
        floor = s->base;
    uint64_t p = off ? off - 1 : 0; /* the hit's last byte */
    int lines = 0;
    while (p > floor) {
        if (*at(s, p - 1) == '\n' && ++lines > WINDOW_LINES_BEFORE)
            break;
        p--;
    }
    return p;
}

/* The end of the window whose last hit ends at off, as far as the text read so far goes;
 * *complete says whether the window would not grow with more input. */
static uint64_t window_end(const errata_scan *s, uint64_t off, bool *complete)
{
    uint64_t limit = off + WINDOW_BYTES_AROUND;
    *complete = true;
    if (limit > s->total)
        limit = s->total, *complete = s->finished;
    uint64_t p = off;
    int lines = 0;
    while (p < limit) {
        if (*at(s, p++) == '\n' && ++lines > WINDOW_LINES_AFTER)
            return p;
    }
    return p;
}

/* Runs the full patterns on the window [from, to) and adds what they found. */
static errata_code confirm_window(errata_scan *s, uint64_t from, uint64_t to, errata_error *err)
{
    if (to <= from)
        return ERRATA_OK;
    uint64_t w_line = line_of(s, from);
    size_t len = (size_t)(to - from);
    /* A lone CR is a progress bar redrawing its line, not a new line of the log: one line of
     * the input stays one line of the window, so line numbers are the file's. */
    char *w = malloc(len + 1);
    if (!w)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory scanning");
    memcpy(w, at(s, from), len);
    w[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (w[i] == '\r' && (i + 1 == len || w[i + 1] != '\n'))
            w[i] = ' ';
    errata_result *res = NULL;
    errata_error e = {0};
    bool all = s->n_cand > WINDOW_MAX_CANDIDATES;
    errata_code rc = lookup_text(s->db, w, len, s->opts.env, false, 0, all ? NULL : s->cand,
                                 all ? 0 : s->n_cand, &res, &e);
    if (rc == ERRATA_ERR_ARG) { /* nothing but blanks once normalised */
        free(w);
        return ERRATA_OK;
    }
    if (rc != ERRATA_OK) {
        free(w);
        if (err)
            *err = e;
        return rc;
    }
    rc = add_warnings(s, res) ? take_matches(s, res, w, len, w_line, err)
                              : set_error(err, ERRATA_ERR_NOMEM, "out of memory scanning");
    errata_result_free(res);
    free(w);
    return rc;
}

static errata_code close_window(errata_scan *s, errata_error *err)
{
    bool complete;
    uint64_t end = window_end(s, s->w_last_hit, &complete);
    s->open = false;
    errata_code rc = confirm_window(s, s->w_start, end, err);
    s->closed_end = end;
    return rc;
}

static int cmp_hit(const void *a, const void *b)
{
    const hit *x = a, *y = b;
    return x->end < y->end ? -1 : x->end > y->end;
}

static void add_candidate(errata_scan *s, uint32_t pattern)
{
    for (size_t i = 0; i < s->n_cand && i < WINDOW_MAX_CANDIDATES; i++)
        if (s->cand[i] == pattern)
            return;
    if (s->n_cand < WINDOW_MAX_CANDIDATES)
        s->cand[s->n_cand++] = pattern;
    else
        s->n_cand = WINDOW_MAX_CANDIDATES + 1;
}

/* A literal the prefilter defers (prefilter.h) ends at most this far before the end of the
 * text read; a window reaching into that tail stays open for the next piece. */
#define DEFERRED_TAIL (PATTERN_MAX_LITERAL + 8)

/* Gathers the hits of the piece just scanned into windows, confirming every window that is
 * complete. */
static errata_code take_hits(errata_scan *s, errata_error *err)
{
    errata_code rc = ERRATA_OK;
    /* The two kinds of literal (prefilter.h) report in their own order. */
    if (s->n_hits > 1)
        qsort(s->hits, s->n_hits, sizeof *s->hits, cmp_hit);
    for (size_t i = 0; i < s->n_hits && rc == ERRATA_OK; i++) {
        uint64_t h = s->hits[i].end;
        if (s->open) {
            bool complete;
            uint64_t end = window_end(s, s->w_last_hit, &complete);
            if (h <= end) { /* inside the window: its pattern is tried there */
                add_candidate(s, s->hits[i].pattern);
                if (h - s->w_start <= WINDOW_MAX_BYTES)
                    s->w_last_hit = h;
                continue;
            }
            rc = close_window(s, err);
        }
        s->open = true;
        s->w_start = window_start(s, h);
        s->w_last_hit = h;
        s->n_cand = 0;
        add_candidate(s, s->hits[i].pattern);
    }
    s->n_hits = 0;
    if (rc == ERRATA_OK && s->open) {
        bool complete;
        uint64_t end = window_end(s, s->w_last_hit, &complete);
        if (complete && (s->finished || end + DEFERRED_TAIL <= s->total))
            rc = close_window(s, err);
    }
    return rc;
}

/* Drops the text no window can reach any more. */
static void trim(errata_scan *s)
{
    uint64_t keep = s->total > WINDOW_BYTES_AROUND ? s->total - WINDOW_BYTES_AROUND : 0;
    if (s->open && s->w_start < keep)
        keep = s->w_start;
    if (keep <= s->base || keep - s->base < FEED_PIECE)
        return; /* not worth a move yet */
    if (keep > s->cursor)
        line_of(s, keep); /* the cursor must stay inside the text kept */
    size_t drop = (size_t)(keep - s->base);
    memmove(s->text.buf, s->text.buf + drop, s->text.len - drop);
    s->text.len -= drop;
    s->text.buf[s->text.len] = '\0';
    s->base = keep;
}

/* ------------------------------------------------------------------ the API */

static int on_hit(uint64_t end, uint32_t pattern, void *ctx)
{
    errata_scan *s = ctx;
    if (s->n_hits == s->cap_hits) {
        size_t cap = s->cap_hits ? 2 * s->cap_hits : 256;
        hit *p = realloc(s->hits, cap * sizeof *p);
        if (!p)
            return 1;
        s->hits = p, s->cap_hits = cap;
    }
    s->hits[s->n_hits++] = (hit){end, pattern};
    return 0;
}

static void free_prefilter(void *p) { prefilter_free(p); }

/* The db's prefilter, built from its scan literals on the first scan. */
static errata_code db_prefilter(errata_db *db, const prefilter **out, errata_error *err)
{
    pthread_mutex_lock(&db->lock);
    errata_code rc = ERRATA_OK;
    if (!db->scan_cache) {
        char **lits = NULL;
        uint32_t *ids = NULL;
        size_t n = 0;
        prefilter *p = NULL;
        rc = db_scan_literals(db, &lits, &ids, &n, err);
        if (rc == ERRATA_OK)
            rc = prefilter_new((const char *const *)lits, ids, n, &p, err);
        if (rc == ERRATA_OK)
            db->scan_cache = p, db->scan_cache_free = free_prefilter;
        for (size_t i = 0; i < n; i++)
            free(lits[i]);
        free(lits), free(ids);
    }
    *out = db->scan_cache;
    pthread_mutex_unlock(&db->lock);
    return rc;
}

errata_code errata_scan_open(errata_db *db, const errata_scan_options *opts, errata_scan **out,
                             errata_error *err)
{
    *out = NULL;
    if (!db)
        return set_error(err, ERRATA_ERR_ARG, "no database given");
    const prefilter *pf = NULL;
    errata_code rc = db_prefilter(db, &pf, err);
    if (rc != ERRATA_OK)
        return rc;
    errata_scan *s = calloc(1, sizeof *s);
    if (!s)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    if (opts)
        s->opts = *opts;
    s->db = db;
    s->cursor_line = 1;
    sb_init(&s->text);
    s->by_entry = malloc((db->n ? db->n : 1) * sizeof *s->by_entry);
    if (!s->by_entry || !sb_reserve(&s->text, FEED_PIECE + 2 * WINDOW_MAX_BYTES)) {
        errata_scan_free(s);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < db->n; i++)
        s->by_entry[i] = -1;
    s->pf = pf;
    if ((rc = prefilter_start(pf, &s->pfs, err)) != ERRATA_OK) {
        errata_scan_free(s);
        return rc;
    }
    *out = s;
    return ERRATA_OK;
}

static errata_code feed_piece(errata_scan *s, const char *buf, size_t len, errata_error *err)
{
    size_t before = s->text.len;
    append_without_escapes(s, buf, len);
    if (s->text.failed)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory scanning");
    size_t added = s->text.len - before;
    uint64_t from = s->total;
    s->total += added;
    errata_code rc = prefilter_scan(s->pf, &s->pfs, s->text.buf, s->base, from, s->total, false,
                                    on_hit, s, err);
    if (rc == ERRATA_OK)
        rc = take_hits(s, err);
    if (rc == ERRATA_OK)
        trim(s);
    return rc;
}

errata_code errata_scan_feed(errata_scan *s, const char *buf, size_t len, errata_error *err)
{
    if (!s || (!buf && len))
        return set_error(err, ERRATA_ERR_ARG, "no scan or input given");
    if (s->finished)
        return set_error(err, ERRATA_ERR_ARG, "the scan is finished: open another");
    for (size_t done = 0; done < len;) {
        size_t n = len - done > FEED_PIECE ? FEED_PIECE : len - done;
        errata_code rc = feed_piece(s, buf + done, n, err);
        if (rc != ERRATA_OK)
            return rc;
        done += n;
        if (s->opts.on_progress)
            s->opts.on_progress(s, s->opts.ctx);
    }
    return ERRATA_OK;
}

errata_code errata_scan_flush(errata_scan *s, errata_error *err)
{
    if (!s)
        return set_error(err, ERRATA_ERR_ARG, "no scan given");
    if (s->finished || !s->open)
        return ERRATA_OK;
    return close_window(s, err);
}

errata_code errata_scan_finish(errata_scan *s, errata_error *err)
{
    if (!s)
        return set_error(err, ERRATA_ERR_ARG, "no scan given");
    if (s->finished)
        return ERRATA_OK;
    s->finished = true;
    errata_code rc = prefilter_scan(s->pf, &s->pfs, s->text.buf, s->base, s->total, s->total,
                                    true, on_hit, s, err);
    if (rc == ERRATA_OK)
        rc = take_hits(s, err);
    if (rc == ERRATA_OK && s->open)
        rc = close_window(s, err);
    /* Lines: a last line without its newline still counts. */
    s->lines_total = line_of(s, s->total) - (s->total > s->base && *at(s, s->total - 1) == '\n');
    if (s->total == 0)
        s->lines_total = 0;
    return rc;
}

void errata_scan_free(errata_scan *s)
{
    if (!s)
        return;
    prefilter_end(&s->pfs);
    for (size_t i = 0; i < s->n_f; i++)
        finding_free(s->f[i]);
    free(s->f);
    for (size_t i = 0; i < s->n_warnings; i++)
        free(s->warnings[i]);
    free(s->warnings);
    free(s->by_entry);
    free(s->hits);
    sb_free(&s->text);
    free(s);
}

size_t errata_scan_findings(const errata_scan *s) { return s ? s->n_f : 0; }

const errata_finding *errata_scan_finding(const errata_scan *s, size_t i)
{
    return s && i < s->n_f ? s->f[i] : NULL;
}

unsigned long long errata_scan_bytes(const errata_scan *s) { return s ? s->total : 0; }
unsigned long long errata_scan_lines(const errata_scan *s) { return s ? s->lines_total : 0; }

int errata_scan_retryable(const errata_scan *s)
{
    if (!s || s->n_f == 0)
        return 0;
    for (size_t i = 0; i < s->n_f; i++)
        if (!record_is_transient(s->f[i]->m->rec))
            return 0;
    return 1;
}

static const char FAIL_ON_HINT[] =
    "give categories (network_error, build_error, …) or transient, defect, any, separated by "
    "commas";

int errata_scan_fails_on(const errata_scan *s, const char *fail_on, errata_error *err)
{
    if (!s || !fail_on)
        return set_error(err, ERRATA_ERR_ARG, "no scan or list given"), -1;
    static const record none = {.category = "", .transient = 0};
    if (record_in_list(&none, fail_on) < 0) /* the list is checked once, findings or not */
        return set_error(err, ERRATA_ERR_ARG, "'%s': %s", fail_on, FAIL_ON_HINT), -1;
    for (size_t i = 0; i < s->n_f; i++)
        if (record_in_list(s->f[i]->m->rec, fail_on) == 1)
            return 1;
    return 0;
}

size_t errata_scan_warning_count(const errata_scan *s) { return s ? s->n_warnings : 0; }
const char *errata_scan_warning(const errata_scan *s, size_t i)
{
    return s && i < s->n_warnings ? s->warnings[i] : NULL;
}

const errata_match *errata_finding_match(const errata_finding *f) { return f->m; }
const errata_result *errata_finding_result(const errata_finding *f) { return f->first; }
size_t errata_finding_occurrences(const errata_finding *f) { return f->occurrences; }
unsigned long long errata_finding_first_line(const errata_finding *f) { return f->first_line; }
unsigned long long errata_finding_last_line(const errata_finding *f) { return f->last_line; }

const char *errata_finding_context(const errata_finding *f, unsigned long long *first_line)
{
    if (first_line)
        *first_line = f->context_line;
    return f->context;
}
