/*
 * accuracy.c — how often Errata names the right record, on a labelled corpus in the format of
 * ../shared/eval/README.md.
 *
 *   accuracy INDEX CORPUS_DIR [--verbose] [--floor P]
 *
 * A case is answered correctly at rank k when the k-th record is about the case's error and
 * from its tool family: its signature, its regex or the text its pattern matched in the input
 * — or the input line where that match starts — contains one of the case's keywords
 * (case-insensitive), and the record's domain fits the
 * case's domain (domain_fits below). The matched text counts because keywords are the error's
 * own words while a regex spells them with classes and captures (`Expected </(?P<section>\w+)>`
 * never contains the keyword "Expected </Directory>"); the domain test keeps a record of
 * another tool that happens to match the same line (ssh's "Connection refused" inside an
 * Ansible UNREACHABLE report) from counting. Coverage and P@1 count what a user is shown, pattern matches and
 * full-text guesses alike (the guesses are counted apart); a false positive is a pattern match
 * on a benign log (a clearly marked guess is not, as the corpus README defines it). Prints coverage (a match returned where one was expected), P@1, MRR and
 * the false-positive rate on benign logs, overall, by variant and by domain. The baseline in the
 * same run is "first match in record order": the same regex hits, unranked, which shows what
 * ranking adds. With --floor P it exits 1 when the overall P@1 is below P or a benign log got a
 * pattern match: the test suite holds tests/corpus to its measured accuracy this way.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "errata.h"

/* Corpus domains are tool families; knowledge-base domains group some of them differently. */
static const struct {
    const char *corpus, *kb;
} DOMAIN_MAP[] = {
    {"apt", "debian-apt"},     {"tar", "archives"},    {"openssl", "tls-openssl"},
    {"curl", "networking"},    {"maven", "maven-gradle"}, {"cargo", "rust"},
    {"networking", "tls-openssl"}, /* TLS failures seen through a network client */
    {"kubectl", "kubernetes"}, {"requests", "python-http"}, {"yaml", "pyyaml"},
    {"gradle", "maven-gradle"}, {"clang", "c-cpp"},   {"linker", "c-cpp"},
    {"sanitizers", "c-cpp"},   {"node", "npm"},       {"python", "pip"},
    {"python", "python-env"},  {"coreutils", "shell"}, {"coreutils", "linux"},
    /* The knowledge base files Python's linters and formatters under one domain, the ASGI
     * server with the framework, and kept the first wave's pytest and NumPy records in python. */
    {"black", "python-lint"},  {"flake8", "python-lint"}, {"ruff", "python-lint"},
    {"pylint", "python-lint"}, {"isort", "python-lint"}, {"uvicorn", "fastapi"},
    {"starlette", "fastapi"},  {"pytest", "python"},  {"numpy", "python"},
    /* Errors one tool prints on another's behalf, filed under the tool that prints them: Vite's
     * build is Rollup, Flask renders with Jinja2, configure's PKG_CHECK_MODULES is pkg-config's,
     * the locale warning comes from perl; and where the first wave filed them: requests' HTTP
     * and TLS errors, Python's sqlite3 module, systemd's "not booted" under linux. */
    {"vite", "rollup"},        {"flask", "jinja2"},   {"autotools", "pkg-config"},
    {"locale", "perl"},        {"requests", "networking"}, {"requests", "tls-openssl"},
    {"sqlite", "python"},      {"systemd", "linux"},
};

static bool domain_fits(const char *corpus, const char *kb)
{
    if (strcmp(corpus, kb) == 0)
        return true;
    for (size_t i = 0; i < sizeof DOMAIN_MAP / sizeof *DOMAIN_MAP; i++)
        if (strcmp(DOMAIN_MAP[i].corpus, corpus) == 0 && strcmp(DOMAIN_MAP[i].kb, kb) == 0)
            return true;
    return false;
}

/* The input line the match starts on, when it still holds the start of the matched text (the
 * match's line counts lines of the normalised input, which keeps the input's lines). */
static bool matched_line(const char *input, const errata_match *m, const char **line, size_t *len)
{
    const char *s = input;
    for (size_t n = errata_match_line(m); n > 1 && s; n--)
        if ((s = strchr(s, '\n')))
            s++;
    if (!s)
        return false;
    size_t l = strcspn(s, "\n");
    const char *text = errata_match_text(m);
    size_t head = strcspn(text, "\n");
    if (head > 24)
        head = 24;
    if (!memmem(s, l, text, head))
        return false;
    *line = s, *len = l;
    return true;
}

static bool keyword_hit(const char *input, const errata_match *m, const json_t *keywords)
{
    const errata_record *r = errata_match_record(m);
    const char *matched = errata_match_text(m);
    const char *line = NULL;
    size_t line_len = 0;
    bool have_line = !errata_match_is_fuzzy(m) && matched_line(input, m, &line, &line_len);
    size_t i;
    json_t *k;
    json_array_foreach(keywords, i, k)
    {
        const char *kw = json_string_value(k);
        if (!kw)
            continue;
        if (strcasestr(errata_record_signature(r), kw) || strcasestr(errata_record_regex(r), kw) ||
            (matched && !errata_match_is_fuzzy(m) && strcasestr(matched, kw)))
            return true;
        if (have_line) {
            char *l = strndup(line, line_len);
            bool hit = l && strcasestr(l, kw);
            free(l);
            if (hit)
                return true;
        }
    }
    return false;
}

typedef struct {
    char name[32];
    size_t cases, expected, covered, p1, base_p1, none, fp, fuzzy_answers, fuzzy_benign;
    double rr;
} tally;

static tally *find_tally(tally *t, size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    memset(&t[*n], 0, sizeof t[*n]);
    snprintf(t[*n].name, sizeof t[*n].name, "%s", name);
    return &t[(*n)++];
}

static void print_tally(const tally *t)
{
    printf("  %-14s cases %4zu  coverage %.3f  P@1 %.3f  MRR %.3f  (unranked P@1 %.3f)", t->name,
           t->cases, t->expected ? (double)t->covered / t->expected : 0,
           t->expected ? (double)t->p1 / t->expected : 0, t->expected ? t->rr / t->expected : 0,
           t->expected ? (double)t->base_p1 / t->expected : 0);
    if (t->fuzzy_answers)
        printf("  (%zu answered by a fuzzy guess)", t->fuzzy_answers);
    if (t->none)
        printf("  false positives %zu/%zu (fuzzy guesses %zu)", t->fp, t->none, t->fuzzy_benign);
    printf("\n");
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const tally *)a)->name, ((const tally *)b)->name);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: accuracy INDEX CORPUS_DIR [--verbose] [--floor P]\n");
        return 2;
    }
    bool verbose = false;
    double floor_p1 = -1;
    for (int i = 3; i < argc; i++) {
        char *end = NULL;
        if (strcmp(argv[i], "--verbose") == 0)
            verbose = true;
        else if (strcmp(argv[i], "--floor") == 0 && i + 1 < argc &&
                 (floor_p1 = strtod(argv[++i], &end), end && !*end && floor_p1 >= 0 && floor_p1 <= 1))
            ;
        else {
            fprintf(stderr, "accuracy: unknown or bad argument '%s'\n", argv[i]);
            return 2;
        }
    }
    errata_db *db;
    errata_error err;
    if (errata_open(argv[1], &db, &err) != ERRATA_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    DIR *d = opendir(argv[2]);
    if (!d) {
        perror(argv[2]);
        return 2;
    }
    struct dirent **names;
    int nfiles = scandir(argv[2], &names, NULL, alphasort);
    closedir(d);
    /* At most one tally a case: a corpus of N cases has at most N variants and N domains. */
    tally all, *variants = calloc((size_t)(nfiles > 0 ? nfiles : 1), sizeof *variants),
               *domains = calloc((size_t)(nfiles > 0 ? nfiles : 1), sizeof *domains);
    if (!variants || !domains) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    memset(&all, 0, sizeof all);
    strcpy(all.name, "all");
    size_t nv = 0, nd = 0;
    errata_lookup_options lo = {.max_results = 10};
    for (int f = 0; f < nfiles; f++) {
        const char *fn = names[f]->d_name;
        size_t l = strlen(fn);
        if (l < 6 || strcmp(fn + l - 5, ".json") != 0) {
            free(names[f]);
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[2], fn);
        json_error_t je;
        json_t *c = json_load_file(path, 0, &je);
        const char *input = json_string_value(json_object_get(c, "input"));
        const char *domain = json_string_value(json_object_get(c, "domain"));
        const char *variant = json_string_value(json_object_get(c, "variant"));
        const char *expect = json_string_value(json_object_get(c, "expect"));
        json_t *keywords = json_object_get(c, "keywords");
        if (!input || !domain || !variant || !expect) {
            fprintf(stderr, "%s: not a corpus case\n", path);
            json_decref(c);
            free(names[f]);
            continue;
        }
        errata_result *res = NULL;
        if (errata_lookup(db, input, strlen(input), &lo, &res, &err) != ERRATA_OK) {
            fprintf(stderr, "%s: %s\n", path, err.message);
            json_decref(c);
            free(names[f]);
            continue;
        }
        tally *ts[3] = {&all, find_tally(variants, &nv, variant), find_tally(domains, &nd, domain)};
        size_t n = errata_result_count(res);
        bool fuzzy = n > 0 && errata_match_is_fuzzy(errata_result_match(res, 0));
        bool want = strcmp(expect, "match") == 0;
        size_t rank = 0, base_rank = 0;
        for (size_t i = 0; want && i < n && !rank; i++) {
            const errata_match *m = errata_result_match(res, i);
            if (keyword_hit(input, m, keywords) && domain_fits(domain, errata_record_domain(errata_match_record(m))))
                rank = i + 1;
        }
        /* Unranked baseline: the first matching record in id order. */
        const errata_match *first = NULL;
        for (size_t i = 0; i < n; i++) {
            const errata_match *m = errata_result_match(res, i);
            if (!first || strcmp(errata_record_id(errata_match_record(m)),
                                 errata_record_id(errata_match_record(first))) < 0)
                first = m;
        }
        if (want && first && keyword_hit(input, first, keywords) &&
            domain_fits(domain, errata_record_domain(errata_match_record(first))))
            base_rank = 1;
        for (int t = 0; t < 3; t++) {
            ts[t]->cases++;
            if (want) {
                ts[t]->expected++;
                ts[t]->covered += n > 0;
                ts[t]->fuzzy_answers += fuzzy;
                ts[t]->p1 += rank == 1;
                ts[t]->base_p1 += base_rank == 1;
                ts[t]->rr += rank ? 1.0 / (double)rank : 0;
            } else {
                ts[t]->none++;
                ts[t]->fp += n > 0 && !fuzzy;
                ts[t]->fuzzy_benign += fuzzy;
            }
        }
        if (verbose && ((want && rank != 1) || (!want && n > 0)))
            printf("MISS %-48s rank %zu  top %s\n", fn, rank,
                   n ? errata_record_id(errata_match_record(errata_result_match(res, 0))) : "-");
        errata_result_free(res);
        json_decref(c);
        free(names[f]);
    }
    free(names);
    printf("corpus %s: %zu cases (%zu expect a match, %zu benign)\n", argv[2], all.cases,
           all.expected, all.none);
    print_tally(&all);
    printf("by variant:\n");
    qsort(variants, nv, sizeof *variants, cmp_name);
    for (size_t i = 0; i < nv; i++)
        print_tally(&variants[i]);
    printf("by domain:\n");
    qsort(domains, nd, sizeof *domains, cmp_name);
    for (size_t i = 0; i < nd; i++)
        print_tally(&domains[i]);
    free(variants);
    free(domains);
    errata_close(db);
    if (floor_p1 >= 0) {
        double p1 = all.expected ? (double)all.p1 / (double)all.expected : 0;
        if (p1 < floor_p1 || all.fp > 0) {
            printf("FAIL: P@1 %.3f against a floor of %.3f, %zu false positive(s)\n", p1, floor_p1,
                   all.fp);
            return 1;
        }
        printf("OK: P@1 %.3f holds the floor of %.3f, no false positive\n", p1, floor_p1);
    }
    return 0;
}
