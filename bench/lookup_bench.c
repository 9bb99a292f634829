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
