/*
 * test_corrupt.c — damaged indexes, in the manner of SQLite's corruption tests: a real index of
 * some fifty records is truncated, has single bytes flipped and whole pages swapped at many
 * offsets, and each damaged copy must either fail to open with a clear error or open and answer
 * every probe exactly as the intact index does (or refuse that probe as corrupt). Never a crash
 * (this runs under ASan and UBSan too), never a different answer given as if it were right.
 *
 * The one exception is named in docs/index-file.md: the full-text index behind guesses (fuzzy
 * answers, offered only when no pattern matched) has no checksum of its own, so damage to it may
 * change which guesses are offered; the guess probe must still never crash and never give a
 * pattern match.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "record.h"

#define PAGE 4096     /* SQLite's default page size: swaps move whole b-tree pages */
#define MAX_PROBES 64

typedef struct {
    char *dir;
    char damaged[4096]; /* dir/damaged.db */
    char *image;        /* the intact index's bytes */
    size_t size;
    const char *probes[MAX_PROBES]; /* one example of each record, and texts matching nothing */
    char *answers[MAX_PROBES];      /* the intact index's JSON answer to each probe */
    size_t n_probes;
    size_t guess_probe; /* the probe answered by full-text guesses */
    errata_db *intact;
    size_t opened, refused, answered, refused_probes; /* what the damage led to */
    size_t wrong; /* breaches of the rule, each printed */
} corpus;

/* Copies the records of one real domain, and the seed, into dir/kb. */
static void copy_records(const char *dir, const char *domain)
{
    char rel[512];
    snprintf(rel, sizeof rel, "kb/%s", domain);
    DIR *d = opendir(src_path(rel));
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strstr(e->d_name, ".json"))
            continue;
        char from[1024], to[1024];
        snprintf(from, sizeof from, "kb/%s/%s", domain, e->d_name);
        snprintf(to, sizeof to, "kb/%s/%s", domain, e->d_name);
        char *text = slurp(src_path(from), NULL);
        free(write_file(dir, to, text));
        free(text);
    }
    closedir(d);
    char *seed = slurp(src_path("kb/huggingface/torch-compile-incompatible-with-peft.json"), NULL);
    free(write_file(dir, "kb/huggingface/torch-compile-incompatible-with-peft.json", seed));
    free(seed);
}

/* The JSON answer of db to text; NULL with *rc set when the lookup failed. */
static char *answer(errata_db *db, const char *text, errata_code *rc, errata_error *err)
{
    errata_result *res = NULL;
    *rc = errata_lookup(db, text, strlen(text), NULL, &res, err);
    if (*rc != ERRATA_OK)
        return NULL;
    char *json = errata_result_render(res, ERRATA_FORMAT_JSON, NULL);
    errata_result_free(res);
    assert_non_null(json);
    return json;
}

static int setup(void **state)
{
    corpus *c = calloc(1, sizeof *c);
    c->dir = make_temp_dir();
    copy_records(c->dir, "coreutils");
    char kb[4096];
    snprintf(kb, sizeof kb, "%s/kb", c->dir);
    c->intact = build_and_open(kb, c->dir);
    snprintf(c->damaged, sizeof c->damaged, "%s/damaged.db", c->dir);
    char path[4096];
    snprintf(path, sizeof path, "%s/index.db", c->dir);
    c->image = slurp(path, &c->size);
    assert_true(c->size > 20 * PAGE);

    errata_error err = {0};
    for (size_t i = 0; i < errata_db_record_count(c->intact) && c->n_probes < MAX_PROBES - 2; i++) {
        const errata_record *r = NULL;
        assert_int_equal(errata_record_at(c->intact, i, &r, &err), ERRATA_OK);
        if (r->examples_match.n)
            c->probes[c->n_probes++] = r->examples_match.v[0];
    }
    c->probes[c->n_probes++] = "everything went fine, 0 errors, 12 tests passed";
    c->guess_probe = c->n_probes;
    c->probes[c->n_probes++] = "Permission denied while copying the file"; /* a full-text guess */
    for (size_t i = 0; i < c->n_probes; i++) {
        errata_code rc;
        c->answers[i] = answer(c->intact, c->probes[i], &rc, &err);
        assert_non_null(c->answers[i]);
    }
    *state = c;
    return 0;
}

static int teardown(void **state)
{
    corpus *c = *state;
    print_message("damaged copies: %zu refused at open, %zu opened; probes: %zu answered as "
                  "intact, %zu refused as corrupt\n",
                  c->refused, c->opened, c->answered, c->refused_probes);
    for (size_t i = 0; i < c->n_probes; i++)
        free(c->answers[i]);
    errata_close(c->intact);
    free(c->image);
    rm_tree(c->dir);
    free(c->dir);
    free(c);
    return 0;
}

static void write_image(const char *path, const char *bytes, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, n), (ssize_t)n);
    close(fd);
}

/* Records and prints one breach of the rule; each test fails at its end if there was any, so
 * that one run lists every damage that went unnoticed. */
static void breach(corpus *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (c->wrong++ < 40)
        print_error("%s\n", line);
}

/* Opens the damaged copy at c->damaged and checks the rule; what names the damage. */
static void check_damaged(corpus *c, const char *what)
{
    errata_db *db = NULL;
    errata_error err = {0};
    errata_code rc = errata_open(c->damaged, &db, &err);
    if (rc != ERRATA_OK) {
        if (rc != ERRATA_ERR_CORRUPT && rc != ERRATA_ERR_NOT_INDEX && rc != ERRATA_ERR_STALE)
            breach(c, "%s: open failed with code %d: %s", what, rc, err.message);
        else if (!strstr(err.message, c->damaged))
            breach(c, "%s: the error does not name the file: %s", what, err.message);
        c->refused++;
        return;
    }
    c->opened++;
    for (size_t i = 0; i < c->n_probes; i++) {
        errata_code lrc;
        char *got = answer(db, c->probes[i], &lrc, &err);
        if (!got) {
            if (lrc != ERRATA_ERR_CORRUPT)
                breach(c, "%s: probe %zu failed with code %d: %s", what, i, lrc, err.message);
            c->refused_probes++;
            continue;
        }
        if (i == c->guess_probe) {
            if (strstr(got, "\"match\":\"regex\""))
                breach(c, "%s: the guess probe got a pattern match", what);
            else
                c->answered++;
        } else if (strcmp(got, c->answers[i]) != 0)
            breach(c, "%s: probe %zu ('%.60s') answered differently from the intact index, "
                     "without an error", what, i, c->probes[i]);
        else
            c->answered++;
        free(got);
    }
    errata_close(db);
}

static void truncations(void **state)
{
    corpus *c = *state;
    for (size_t k = 0; k < 40; k++) {
        size_t at = c->size * k / 40;
        write_image(c->damaged, c->image, at);
        char what[64];
        snprintf(what, sizeof what, "truncated to %zu bytes", at);
        check_damaged(c, what);
    }
    assert_int_equal(c->wrong, 0);
}

/* One byte flipped at offsets spread over the whole file, with a stride that is not a
 * multiple of the page size so that every part of a page is hit somewhere. */
static void byte_flips(void **state)
{
    corpus *c = *state;
    char *copy = malloc(c->size);
    assert_non_null(copy);
    for (size_t at = 7; at < c->size; at += 1999) {
        memcpy(copy, c->image, c->size);
        copy[at] = (char)(copy[at] ^ 0x5a);
        write_image(c->damaged, copy, c->size);
        char what[64];
        snprintf(what, sizeof what, "byte %zu flipped", at);
        check_damaged(c, what);
    }
    free(copy);
    assert_int_equal(c->wrong, 0);
}

static void page_swaps(void **state)
{
    corpus *c = *state;
    size_t pages = c->size / PAGE;
    char *copy = malloc(c->size);
    char tmp[PAGE];
    assert_non_null(copy);
    for (size_t a = 1; a < pages; a += 3) {
        size_t b = (a * 7 + 5) % pages;
        if (b == a)
            continue;
        memcpy(copy, c->image, c->size);
        memcpy(tmp, copy + a * PAGE, PAGE);
        memcpy(copy + a * PAGE, copy + b * PAGE, PAGE);
        memcpy(copy + b * PAGE, tmp, PAGE);
        write_image(c->damaged, copy, c->size);
        char what[64];
        snprintf(what, sizeof what, "pages %zu and %zu swapped", a, b);
        check_damaged(c, what);
    }
    free(copy);
    assert_int_equal(c->wrong, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(truncations),
        cmocka_unit_test(byte_flips),
        cmocka_unit_test(page_swaps),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
