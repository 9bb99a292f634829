/*
 * prefilter.c — the literal prefilter of errata_scan; see prefilter.h.
 */
#include "prefilter.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

/* Literals of at least LONG_MIN characters have PF_STRIDE anchors of 8 bytes; those of at
 * least SHORT_MIN, anchors of 4 bytes; shorter ones go to Hyperscan. */
#define LONG_MIN (PF_STRIDE + 7)
#define SHORT_MIN (PF_STRIDE + 3)

typedef struct {
    uint64_t anchor; /* width bytes of the literal from offset k, case-folded */
    uint64_t head;   /* the literal's first (up to) 8 bytes, case-folded: a cheap first check */
    uint32_t lit;
    uint32_t k;      /* where in the literal the anchor starts */
} anchor_entry;

/* The anchors of one width: a Bloom filter the scan tests at every PF_STRIDE-th position, and
 * behind it the anchors themselves. */
typedef struct {
    unsigned width;        /* 8 or 4 bytes */
    unsigned bloom_bits;   /* log2 of the filter's size in bits */
    uint8_t *bloom;
    anchor_entry *anchors; /* sorted by anchor */
    size_t n;
    /* Open addressing by hash: the index in anchors of the first entry of each distinct
     * anchor value, UINT32_MAX for an empty slot; slots is a power of two. */
    uint32_t *table;
    size_t slots;
} anchor_set;

struct prefilter {
    anchor_set wide, narrow;
    char **lits; /* lowercase */
    size_t *lens;
    uint32_t *ids; /* the pattern of each literal */
    size_t n;
    hs_database_t *short_db; /* the literals too short for anchors; NULL when none */
};

/* Sets bit 5 of every byte: ASCII letters become lowercase. Other bytes change too, but text
 * and anchors are folded alike, so a literal's occurrence always folds to its anchor; the
 * exact, caseless comparison comes after. */
static uint64_t fold(uint64_t w) { return w | UINT64_C(0x2020202020202020); }

static uint64_t hash(uint64_t folded) { return folded * UINT64_C(0x9E3779B97F4A7C15); }

static uint64_t load8(const char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* The first n (≤ 8) bytes at p as a little-endian word, the rest zero. */
static uint64_t load_upto8(const char *p, size_t n)
{
    uint64_t w = 0;
    memcpy(&w, p, n < 8 ? n : 8);
    return w;
}

/* The anchor of width bytes at p, folded: 8 bytes, or the low 4 of them. */
static uint64_t anchor_at(uint64_t folded8, unsigned width)
{
    return width == 8 ? folded8 : folded8 & UINT64_C(0xffffffff);
}

static void bloom_add(anchor_set *s, uint64_t h)
{
    uint64_t mask = (UINT64_C(1) << s->bloom_bits) - 1;
    uint64_t a = h >> (64 - s->bloom_bits), b = (h >> 20) & mask;
    s->bloom[a >> 3] |= (uint8_t)(1u << (a & 7));
    s->bloom[b >> 3] |= (uint8_t)(1u << (b & 7));
}

static inline __attribute__((always_inline)) bool bloom_has(const anchor_set *s, uint64_t h)
{
    uint64_t mask = (UINT64_C(1) << s->bloom_bits) - 1;
    uint64_t a = h >> (64 - s->bloom_bits), b = (h >> 20) & mask;
    return (s->bloom[a >> 3] >> (a & 7) & 1) && (s->bloom[b >> 3] >> (b & 7) & 1);
}

/* ------------------------------------------------------------------ choosing anchors */

/* How many literals hold each window of a width (case-folded): a window that many literals
 * share ("configur", " package") is a common word of logs too, and an anchor there would send
 * the scan to compare dozens of literals on every line that says it. */
typedef struct {
    uint64_t *keys;
    uint32_t *counts;
    size_t slots; /* a power of two; key 0 marks an empty slot (no window of text folds to 0) */
} window_counts;

static uint32_t *window_slot(window_counts *w, uint64_t key)
{
    size_t s = (size_t)(hash(key) >> 40) & (w->slots - 1);
    while (w->keys[s] && w->keys[s] != key)
        s = (s + 1) & (w->slots - 1);
    w->keys[s] = key;
    return &w->counts[s];
}

static bool count_windows(window_counts *w, unsigned width, char *const *lits, const size_t *lens,
                          size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += lens[i] >= width ? lens[i] - width + 1 : 0;
    w->slots = 64;
    while (w->slots < 2 * total)
        w->slots *= 2;
    w->keys = calloc(w->slots, sizeof *w->keys);
    w->counts = calloc(w->slots, sizeof *w->counts);
    if (!w->keys || !w->counts)
        return false;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j + width <= lens[i]; j++)
            ++*window_slot(w, anchor_at(fold(load_upto8(lits[i] + j, width)), width));
    return true;
}

/* Where the PF_STRIDE anchors of a literal start: the span whose windows the fewest literals
 * share, then the one with the fewest spaces (a space starts and ends the commonest words);
 * the earliest on a tie. */
static size_t anchor_offset(window_counts *w, unsigned width, const char *lit, size_t len)
{
    size_t best = 0;
    uint64_t best_score = UINT64_MAX;
    for (size_t j = 0; j + PF_STRIDE + width - 1 <= len; j++) {
        uint64_t score = 0;
        for (size_t k = 0; k < PF_STRIDE; k++)
            score += *window_slot(w, anchor_at(fold(load_upto8(lit + j + k, width)), width));
        score *= 64;
        for (size_t c = j; c < j + PF_STRIDE + width - 1; c++)
            score += lit[c] == ' ';
        if (score < best_score)
            best_score = score, best = j;
    }
    return best;
}

static int cmp_anchor(const void *a, const void *b)
{
    const anchor_entry *x = a, *y = b;
    return x->anchor < y->anchor ? -1 : x->anchor > y->anchor;
}

static size_t slot_of(const anchor_set *s, uint64_t h) { return (size_t)(h >> 32) & (s->slots - 1); }

static void anchor_set_free(anchor_set *s)
{
    free(s->bloom), free(s->anchors), free(s->table);
}

/* Builds the anchors of width for the literals whose length is in [min_len, max_len). */
static bool anchor_set_build(anchor_set *s, unsigned width, unsigned bloom_bits,
                             const prefilter *p, size_t min_len, size_t max_len)
{
    s->width = width, s->bloom_bits = bloom_bits;
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++)
        m += p->lens[i] >= min_len && p->lens[i] < max_len;
    window_counts wc = {0};
    s->bloom = calloc((size_t)1 << (bloom_bits - 3), 1);
    s->anchors = calloc(m * PF_STRIDE + 1, sizeof *s->anchors);
    bool ok = s->bloom && s->anchors && count_windows(&wc, width, p->lits, p->lens, p->n);
    for (size_t i = 0; ok && i < p->n; i++) {
        if (p->lens[i] < min_len || p->lens[i] >= max_len)
            continue;
        size_t from = anchor_offset(&wc, width, p->lits[i], p->lens[i]);
        uint64_t head = fold(load_upto8(p->lits[i], p->lens[i]));
        for (size_t k = from; k < from + PF_STRIDE; k++) {
            uint64_t a = anchor_at(fold(load_upto8(p->lits[i] + k, width)), width);
            s->anchors[s->n++] = (anchor_entry){a, head, (uint32_t)i, (uint32_t)k};
            bloom_add(s, hash(a));
        }
    }
    free(wc.keys), free(wc.counts);
    if (!ok)
        return false;
    qsort(s->anchors, s->n, sizeof *s->anchors, cmp_anchor);
    s->slots = 64;
    while (s->slots < 2 * s->n)
        s->slots *= 2;
    if (!(s->table = malloc(s->slots * sizeof *s->table)))
        return false;
    memset(s->table, 0xff, s->slots * sizeof *s->table);
    for (size_t i = 0; i < s->n; i++) {
        if (i > 0 && s->anchors[i].anchor == s->anchors[i - 1].anchor)
            continue; /* the run's first entry stands for it */
        size_t slot = slot_of(s, hash(s->anchors[i].anchor));
        while (s->table[slot] != UINT32_MAX)
            slot = (slot + 1) & (s->slots - 1);
        s->table[slot] = (uint32_t)i;
    }
    return true;
}

/* ------------------------------------------------------------------ building */

void prefilter_free(prefilter *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->lits[i]);
    free(p->lits);
    free(p->lens);
    free(p->ids);
    anchor_set_free(&p->wide);
    anchor_set_free(&p->narrow);
    hs_free_database(p->short_db);
    free(p);
}

static errata_code compile_short(prefilter *p, errata_error *err)
{
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++)
        m += p->lens[i] < SHORT_MIN;
    if (m == 0)
        return ERRATA_OK;
    const char **ex = malloc(m * sizeof *ex);
    size_t *lens = malloc(m * sizeof *lens);
    unsigned *flags = malloc(m * sizeof *flags), *ids = malloc(m * sizeof *ids);
    errata_code rc = ERRATA_OK;
    if (!ex || !lens || !flags || !ids) {
        rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory building the scan prefilter");
    } else {
        size_t j = 0;
        for (size_t i = 0; i < p->n; i++) {
            if (p->lens[i] >= SHORT_MIN)
                continue;
            ex[j] = p->lits[i], lens[j] = p->lens[i], flags[j] = HS_FLAG_CASELESS;
            ids[j] = p->ids[i];
            j++;
        }
        hs_compile_error_t *cerr = NULL;
        if (hs_compile_lit_multi(ex, flags, ids, lens, (unsigned)m, HS_MODE_STREAM, NULL,
                                 &p->short_db, &cerr) != HS_SUCCESS) {
            rc = set_error(err, ERRATA_ERR_INTERNAL, "could not compile the scan prefilter: %s",
                           cerr ? cerr->message : "unknown error");
            p->short_db = NULL;
        }
        hs_free_compile_error(cerr);
    }
    free(ex), free(lens), free(flags), free(ids);
    return rc;
}

errata_code prefilter_new(const char *const *lits, const uint32_t *ids, size_t n, prefilter **out,
                          errata_error *err)
{
    *out = NULL;
    prefilter *p = calloc(1, sizeof *p);
    if (!p || !(p->lits = calloc(n ? n : 1, sizeof *p->lits)) ||
        !(p->ids = malloc((n ? n : 1) * sizeof *p->ids)) ||
        !(p->lens = calloc(n ? n : 1, sizeof *p->lens))) {
        prefilter_free(p);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory building the scan prefilter");
    }
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(lits[i]);
        if (!(p->lits[p->n] = malloc(len + 1))) {
            prefilter_free(p);
            return set_error(err, ERRATA_ERR_NOMEM, "out of memory building the scan prefilter");
        }
        for (size_t c = 0; c <= len; c++) /* lowercase, whoever wrote it */
            p->lits[p->n][c] = (char)(lits[i][c] >= 'A' && lits[i][c] <= 'Z' ? lits[i][c] + 32
                                                                             : lits[i][c]);
        p->ids[p->n] = ids[i];
        p->lens[p->n++] = len;
    }
    /* 256 KiB and 8 KiB of filter: each fits the cache level it is tested from. */
    if (!anchor_set_build(&p->wide, 8, 21, p, LONG_MIN, SIZE_MAX) ||
        !anchor_set_build(&p->narrow, 4, 16, p, SHORT_MIN, LONG_MIN)) {
        prefilter_free(p);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory building the scan prefilter");
    }
    errata_code rc = compile_short(p, err);
    if (rc != ERRATA_OK) {
        prefilter_free(p);
        return rc;
    }
    *out = p;
    return ERRATA_OK;
}

errata_code prefilter_start(const prefilter *p, prefilter_state *st, errata_error *err)
{
    memset(st, 0, sizeof *st);
    if (p->short_db && (hs_alloc_scratch(p->short_db, &st->scratch) != HS_SUCCESS ||
                        hs_open_stream(p->short_db, 0, &st->stream) != HS_SUCCESS)) {
        prefilter_end(st);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory (scan prefilter)");
    }
    return ERRATA_OK;
}

void prefilter_end(prefilter_state *st)
{
    if (st->stream)
        hs_close_stream(st->stream, NULL, NULL, NULL);
    hs_free_scratch(st->scratch);
    memset(st, 0, sizeof *st);
}

/* ------------------------------------------------------------------ scanning */

static bool same_caseless(const char *text, const char *lit, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c + 32);
        if (c != lit[i])
            return false;
    }
    return true;
}

/* The anchors equal to a (whose hash is h): where the sorted run of them starts, and how
 * many. */
static size_t find_anchors(const anchor_set *s, uint64_t a, uint64_t h, size_t *count)
{
    *count = 0;
    for (size_t slot = slot_of(s, h); s->table[slot] != UINT32_MAX;
         slot = (slot + 1) & (s->slots - 1)) {
        size_t first = s->table[slot];
        if (s->anchors[first].anchor != a)
            continue;
        size_t end = first;
        while (end < s->n && s->anchors[end].anchor == a)
            end++;
        *count = end - first;
        return first;
    }
    return 0;
}

typedef enum { CHECK_DONE, CHECK_WAIT, CHECK_STOP } check_result;

/* Checks the literals whose anchor a (hash h) is at pos: reports each that is there. */
static check_result check(const prefilter *p, const anchor_set *s, uint64_t a, uint64_t h,
                          uint64_t pos, const char *text, uint64_t base, uint64_t end,
                          bool final, prefilter_hit hit, void *ctx)
{
    size_t count, first = find_anchors(s, a, h, &count);
    for (size_t j = first; j < first + count; j++) {
        const anchor_entry *e = &s->anchors[j];
        size_t len = p->lens[e->lit];
        if (pos < base + e->k)
            continue; /* the literal would start before the text kept */
        uint64_t start = pos - e->k;
        if (start + len > end) {
            if (final)
                continue;
            return CHECK_WAIT; /* the rest of the literal has not arrived */
        }
        const char *t = text + (start - base);
        if (fold(load_upto8(t, len)) == e->head && same_caseless(t, p->lits[e->lit], len) &&
            hit(start + len, p->ids[e->lit], ctx))
            return CHECK_STOP;
    }
    return CHECK_DONE;
}

/* The anchor pass over the positions from st->next on. */
static errata_code scan_anchors(const prefilter *p, prefilter_state *st, const char *text,
                                uint64_t base, uint64_t end, bool final, prefilter_hit hit,
                                void *ctx, errata_error *err)
{
    uint64_t pos = st->next;
    for (; pos + 4 <= end; pos += PF_STRIDE) {
        bool whole = pos + 8 <= end;
        if (!whole && !final)
            break; /* the next piece completes the word */
        uint64_t w = fold(whole ? load8(text + (pos - base))
                                : load_upto8(text + (pos - base), (size_t)(end - pos)));
        check_result r = CHECK_DONE;
        uint64_t h = hash(w);
        if (whole && bloom_has(&p->wide, h))
            r = check(p, &p->wide, w, h, pos, text, base, end, final, hit, ctx);
        uint64_t a4 = anchor_at(w, 4), h4 = hash(a4);
        if (r == CHECK_DONE && p->narrow.n && bloom_has(&p->narrow, h4))
            r = check(p, &p->narrow, a4, h4, pos, text, base, end, final, hit, ctx);
        if (r == CHECK_WAIT) {
            st->next = pos;
            return ERRATA_OK;
        }
        if (r == CHECK_STOP)
            return set_error(err, ERRATA_ERR_NOMEM, "out of memory scanning");
    }
    st->next = pos;
    return ERRATA_OK;
}

typedef struct {
    prefilter_hit hit;
    void *ctx;
    bool stopped;
} short_ctx;

static int on_short(unsigned int id, unsigned long long from, unsigned long long to,
                    unsigned int flags, void *ctx)
{
    (void)from, (void)flags;
    short_ctx *c = ctx;
    if (c->hit(to, id, c->ctx)) {
        c->stopped = true;
        return 1;
    }
    return 0;
}

errata_code prefilter_scan(const prefilter *p, prefilter_state *st, const char *text,
                           uint64_t base, uint64_t new_from, uint64_t end, bool final,
                           prefilter_hit hit, void *ctx, errata_error *err)
{
    if (st->stream && end > new_from) {
        short_ctx c = {hit, ctx, false};
        hs_error_t hr = hs_scan_stream(st->stream, text + (new_from - base),
                                       (unsigned)(end - new_from), 0, st->scratch, on_short, &c);
        if (c.stopped)
            return set_error(err, ERRATA_ERR_NOMEM, "out of memory scanning");
        if (hr != HS_SUCCESS)
            return set_error(err, ERRATA_ERR_INTERNAL, "the prefilter scan failed");
    }
    if (final && st->stream) {
        short_ctx c = {hit, ctx, false};
        hs_error_t hr = hs_close_stream(st->stream, st->scratch, on_short, &c);
        st->stream = NULL;
        if (c.stopped || hr != HS_SUCCESS)
            return set_error(err, ERRATA_ERR_INTERNAL, "the prefilter scan failed");
    }
    return scan_anchors(p, st, text, base, end, final, hit, ctx, err);
}
