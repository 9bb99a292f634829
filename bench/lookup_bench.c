/*
 * lookup_bench.c — in-process lookup latency, against a baseline run in the same process.
 *
 *   lookup_bench INDEX CORPUS_DIR [LOOKUPS]
 *
 * Reads the `input` texts of a labelled corpus (../shared/eval/README.md), then times LOOKUPS
 * (default 100000) calls of errata_lookup() cycling through them, and the same inputs through
 * the obvious alternative: a loop that tries every record's PCRE2 pattern (JIT-compiled, same
 * flags) in turn. Prints microseconds per lookup for both and their ratio. The baseline runs on
 * a tenth as many lookups (it is slow), which changes nothing per lookup.
 *
 * A second part times one realistic 200-line CI log ending in a Python traceback (the shape
 * agents paste), the same way: errata_lookup() against the naive loop, median and p99.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errata.h"
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

typedef struct {
    char **text;
    size_t *len;
    size_t n;
} corpus;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void load_corpus(const char *dir, corpus *c)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        exit(2);
    }
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 6 || strcmp(de->d_name + l - 5, ".json") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        json_error_t e;
        json_t *j = json_load_file(path, 0, &e);
        const char *input = json_string_value(json_object_get(j, "input"));
        if (input) {
            c->text = realloc(c->text, (c->n + 1) * sizeof *c->text);
            c->len = realloc(c->len, (c->n + 1) * sizeof *c->len);
            c->text[c->n] = strdup(input);
            c->len[c->n] = strlen(input);
            c->n++;
        }
        json_decref(j);
    }
    closedir(d);
}

/* 185 lines of an ordinary CI job (pip install), then 15 of a failing step: 200 lines. */
static char *ci_trace(void)
{
    size_t cap = 64 * 1024, n = 0;
    char *s = malloc(cap);
    n += (size_t)snprintf(s + n, cap - n, "2026-12-01T10:00:00.0000000Z ##[group]Run pip install -r requirements.txt\n");
    for (int i = 0; i < 124; i++)
        n += (size_t)snprintf(s + n, cap - n,
                              "2026-12-01T10:00:%02d.%07dZ Collecting package-%03d==1.%d.0 "
                              "(from -r requirements.txt (line %d))\n",
                              i % 60, i * 7919 % 10000000, i, i % 9, i + 1);
    for (int i = 0; i < 60; i++)
        n += (size_t)snprintf(s + n, cap - n,
                              "2026-12-01T10:01:%02d.%07dZ   Downloading package_%03d-1.%d.0-py3-none-any.whl "
                              "(%d kB)\n",
                              i % 60, i * 104729 % 10000000, i, i % 9, 10 + i * 3);
    n += (size_t)snprintf(s + n, cap - n,
        "2026-12-01T10:02:00.0000000Z Successfully installed package-000-1.0.0 package-001-1.1.0\n"
        "2026-12-01T10:02:00.1000000Z ##[endgroup]\n"
        "2026-12-01T10:02:01.0000000Z ##[group]Run python -m app.train --config configs/base.yaml\n"
        "2026-12-01T10:02:02.0000000Z INFO loading configuration from configs/base.yaml\n"
        "2026-12-01T10:02:02.1000000Z INFO using 8 dataloader workers\n"
        "2026-12-01T10:02:03.0000000Z WARNING deterministic algorithms are disabled\n"
        "2026-12-01T10:02:03.5000000Z Traceback (most recent call last):\n"
        "2026-12-01T10:02:03.5000000Z   File \"/usr/lib/python3.11/runpy.py\", line 198, in _run_module_as_main\n"
        "2026-12-01T10:02:03.5000000Z     return _run_code(code, main_globals, None,\n"
        "2026-12-01T10:02:03.5000000Z   File \"/home/runner/work/app/app/app/train.py\", line 12, in <module>\n"
        "2026-12-01T10:02:03.5000000Z     from app.models import build_model\n"
        "2026-12-01T10:02:03.5000000Z   File \"/home/runner/work/app/app/app/models/__init__.py\", line 3, in <module>\n"
        "2026-12-01T10:02:03.5000000Z     import torchvision\n"
        "2026-12-01T10:02:03.5000000Z ModuleNotFoundError: No module named 'torchvision'\n"
        "2026-12-01T10:02:04.0000000Z ##[error]Process completed with exit code 1.\n");
    return s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: lookup_bench INDEX CORPUS_DIR [LOOKUPS]\n");
        return 2;
    }
    size_t lookups = argc > 3 ? strtoull(argv[3], NULL, 10) : 100000;
    corpus c = {0};
    load_corpus(argv[2], &c);
    if (c.n == 0) {
        fprintf(stderr, "no inputs in %s\n", argv[2]);
        return 2;
    }
    errata_db *db;
    errata_error err;
    if (errata_open(argv[1], &db, &err) != ERRATA_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    size_t n_rec = errata_db_record_count(db);
    size_t bytes = 0;
    for (size_t i = 0; i < c.n; i++)
        bytes += c.len[i];

    /* Warm up: every pattern that any input hits gets compiled once, as in a server. */
    size_t matched = 0;
    for (size_t i = 0; i < c.n; i++) {
        errata_result *res;
        if (errata_lookup(db, c.text[i], c.len[i], NULL, &res, &err) == ERRATA_OK) {
            matched += errata_result_count(res) > 0;
            errata_result_free(res);
        }
    }
    double *lat = malloc(lookups * sizeof *lat);
    double t0 = now_us();
    for (size_t k = 0; k < lookups; k++) {
        size_t i = k % c.n;
        double s = now_us();
        errata_result *res;
        if (errata_lookup(db, c.text[i], c.len[i], NULL, &res, &err) == ERRATA_OK)
            errata_result_free(res);
        lat[k] = now_us() - s;
    }
    double engine = (now_us() - t0) / (double)lookups;
    qsort(lat, lookups, sizeof *lat, cmp_double);

    /* Baseline: every record's pattern, one after the other. */
    pcre2_code **re = calloc(n_rec, sizeof *re);
    pcre2_match_data **md = calloc(n_rec, sizeof *md);
    for (size_t r = 0; r < n_rec; r++) {
        const errata_record *rec;
        errata_record_at(db, r, &rec, &err);
        int ec;
        PCRE2_SIZE eo;
        re[r] = pcre2_compile((PCRE2_SPTR)errata_record_regex(rec), PCRE2_ZERO_TERMINATED,
                              PCRE2_CASELESS | PCRE2_MULTILINE | PCRE2_UTF | PCRE2_UCP, &ec, &eo,
                              NULL);
        if (re[r]) {
            pcre2_jit_compile(re[r], PCRE2_JIT_COMPLETE);
            md[r] = pcre2_match_data_create_from_pattern(re[r], NULL);
        }
    }
    size_t base_n = lookups / 10 ? lookups / 10 : 1;
    size_t base_hits = 0;
    t0 = now_us();
    for (size_t k = 0; k < base_n; k++) {
        size_t i = k % c.n;
        for (size_t r = 0; r < n_rec; r++)
            if (re[r] && pcre2_match(re[r], (PCRE2_SPTR)c.text[i], c.len[i], 0, 0, md[r], NULL) >= 0)
                base_hits++;
    }
    double naive = (now_us() - t0) / (double)base_n;

    printf("records: %zu, corpus inputs: %zu (%.0f bytes on average), matched: %zu\n", n_rec,
           c.n, (double)bytes / (double)c.n, matched);
    printf("errata_lookup:      %8.2f us/lookup (median %.2f, p99 %.2f) over %zu lookups\n",
           engine, lat[lookups / 2], lat[lookups * 99 / 100], lookups);
    printf("naive PCRE2 loop:   %8.2f us/lookup over %zu lookups\n", naive, base_n);
    printf("ratio naive/errata: %8.2fx\n", naive / engine);

    /* The 200-line trace. */
    char *trace = ci_trace();
    size_t tlen = strlen(trace), tlines = 0;
    for (size_t i = 0; i < tlen; i++)
        tlines += trace[i] == '\n';
    errata_result *res;
    const char *top = "-";
    if (errata_lookup(db, trace, tlen, NULL, &res, &err) == ERRATA_OK) {
        if (errata_result_count(res))
            top = errata_record_id(errata_match_record(errata_result_match(res, 0)));
        errata_result_free(res);
    }
    size_t trace_runs = lookups / 10 ? lookups / 10 : 1;
    for (size_t k = 0; k < trace_runs; k++) {
        double s = now_us();
        if (errata_lookup(db, trace, tlen, NULL, &res, &err) == ERRATA_OK)
            errata_result_free(res);
        lat[k] = now_us() - s;
    }
    qsort(lat, trace_runs, sizeof *lat, cmp_double);
    double naive_trace_t0 = now_us();
    size_t naive_trace_runs = trace_runs / 10 ? trace_runs / 10 : 1;
    for (size_t k = 0; k < naive_trace_runs; k++)
        for (size_t r = 0; r < n_rec; r++)
            if (re[r] && pcre2_match(re[r], (PCRE2_SPTR)trace, tlen, 0, 0, md[r], NULL) >= 0)
                base_hits++;
    double naive_trace = (now_us() - naive_trace_t0) / (double)naive_trace_runs;
    printf("%zu-line CI trace (%zu bytes), top match %s:\n", tlines, tlen, top);
    printf("errata_lookup:      median %.2f us, p99 %.2f us over %zu lookups\n",
           lat[trace_runs / 2], lat[trace_runs * 99 / 100], trace_runs);
    printf("naive PCRE2 loop:   %8.2f us/lookup over %zu lookups\n", naive_trace, naive_trace_runs);
    printf("ratio naive/errata (median): %.2fx\n", naive_trace / lat[trace_runs / 2]);
    free(trace);

    for (size_t r = 0; r < n_rec; r++) {
        pcre2_match_data_free(md[r]);
        pcre2_code_free(re[r]);
    }
    free(re), free(md), free(lat);
    for (size_t i = 0; i < c.n; i++)
        free(c.text[i]);
    free(c.text), free(c.len);
    errata_close(db);
    return 0;
}
