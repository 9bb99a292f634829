/*
 * test_scan.c — the streaming scan: the prefilter's literals, findings with their lines and
 * counts whatever the sizes of the pieces fed, framing lines left out next to the error they
 * frame, multi-line signatures, escapes split between pieces, compressed input, long lines,
 * and the located output formats (SARIF, GitHub commands).
 */
#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "helpers.h"
#include "pattern.h"
#include "strbuf.h"

/* ------------------------------------------------------------------ literals */

static size_t lits_of(const char *re, char (*lits)[PATTERN_MAX_LITERAL + 1])
{
    return pattern_required_literals(re, lits, 64);
}

static void required_literals(void **state)
{
    (void)state;
    static char l[64][PATTERN_MAX_LITERAL + 1];
    /* the longest mandatory run, lowercased */
    assert_int_equal(lits_of("ModuleNotFoundError: No module named '(?P<m>\\w+)'", l), 1);
    assert_string_equal(l[0], "modulenotfounderror: no module named '");
    /* an optional character is one more alternative: with it and without it */
    assert_int_equal(lits_of("abcdefX?ghij", l), 2);
    assert_string_equal(l[0], "abcdefxghij");
    assert_string_equal(l[1], "abcdefghij");
    assert_int_equal(lits_of("UNMET (?:PEER )?DEPENDENCY (?P<d>\\S+)", l), 2);
    assert_string_equal(l[0], "unmet peer dependency ");
    assert_string_equal(l[1], "unmet dependency ");
    /* a repeat that may be empty ends the run */
    assert_int_equal(lits_of("abcdefX*ghij", l), 1);
    assert_string_equal(l[0], "abcdef");
    /* one literal a top-level alternative */
    assert_int_equal(lits_of("first alternative|second one here", l), 2);
    assert_string_equal(l[0], "first alternative");
    assert_string_equal(l[1], "second one here");
    /* a pattern wrapped in one group: the group's alternatives */
    assert_int_equal(lits_of("(?:connection refused now|could not connect)\\.", l), 2);
    assert_string_equal(l[0], "connection refused now.");
    assert_string_equal(l[1], "could not connect.");
    /* a group of literal alternatives multiplies the run around it */
    assert_int_equal(lits_of("(?:passes|copies) lock by value", l), 2);
    assert_string_equal(l[0], "passes lock by value");
    assert_string_equal(l[1], "copies lock by value");
    /* an optional group is not required */
    assert_int_equal(lits_of("(?:very long optional text)?short", l), 1);
    assert_string_equal(l[0], "short");
    /* escapes that stand for one character are part of a run; \Q…\E is literal */
    assert_int_equal(lits_of("a\\.b\\(c\\)d", l), 1);
    assert_string_equal(l[0], "a.b(c)d");
    assert_int_equal(lits_of("x\\Q*.*literal\\E", l), 1);
    assert_string_equal(l[0], "x*.*literal");
    /* a lookahead consumes nothing, but its text must be there; a negative one is not taken */
    assert_int_equal(lits_of("(?=lookahead text)abcd", l), 1);
    assert_string_equal(l[0], "lookahead text");
    assert_int_equal(lits_of("(?!not this long text)abcde", l), 1);
    assert_string_equal(l[0], "abcde");
    /* \s between words: space, tab or newline */
    assert_int_equal(lits_of("linker\\scommand", l), 3);
    assert_string_equal(l[0], "linker command");
    assert_string_equal(l[1], "linker\tcommand");
    assert_string_equal(l[2], "linker\ncommand");
    /* too short everywhere, or an alternative without a literal: cannot be prefiltered */
    assert_int_equal(lits_of("ab\\d+cd", l), 0);
    assert_int_equal(lits_of("long enough text|\\w+", l), 0);
}

/* ------------------------------------------------------------------ the scan */

static int setup(void **state)
{
    kb_fixture *f = fixture_new();
    add_record(f->dir, "py/no-module",
        test_record("py/no-module", "ModuleNotFoundError: No module named '(?P<module>[\\\\w.]+)'",
                    "pip install {module}", 0.9, "[]", "{}"));
    add_record(f->dir, "cc/missing-header",
        test_record("cc/missing-header", "fatal error: (?P<header>[\\\\w./-]+): No such file or "
                    "directory", "install the headers of {header}", 0.9, "[]", "{}"));
    add_record(f->dir, "make/recipe-failed",
        test_record("make/recipe-failed", "make: \\\\*\\\\*\\\\* \\\\[[^\\\\]\\\\n]+\\\\] Error \\\\d+",
                    "read the error above", 0.9, "[]", "{}"));
    /* A signature on two lines. */
    add_record(f->dir, "two/lines",
        test_record("two/lines", "first half of the message\\\\n\\\\s*second half of it",
                    "join them", 0.9, "[]", "{}"));
    /* Not a failure: looked up, never reported by a scan. */
    add_record(f->dir, "make/nothing",
        strdup("{\"id\": \"make/nothing\", \"signature\": \"s\", \"regex\": \"Nothing to be "
               "done for '(?P<target>\\\\w+)'\", \"domain\": \"make\", \"category\": "
               "\"build_notice\", \"root_cause\": \"c\", \"dead_ends\": [], \"workarounds\": [], "
               "\"verification_tier\": \"ai_generated\", \"confidence\": 0.5, "
               "\"fix_success_rate\": 0.5, \"resolvable\": \"yes\"}"));
    fixture_open(f);
    *state = f;
    return 0;
}

typedef struct {
    size_t calls;
    char ids[8][64];
} seen;

static void on_finding(const errata_finding *f, void *ctx)
{
    seen *s = ctx;
    if (s->calls < 8)
        snprintf(s->ids[s->calls], sizeof s->ids[0], "%s",
                 errata_record_id(errata_match_record(errata_finding_match(f))));
    s->calls++;
}

/* Scans text fed in pieces of `piece` bytes; the caller frees the scan. */
static errata_scan *scan_text(errata_db *db, const char *text, size_t len, size_t piece, seen *sn)
{
    errata_scan_options so = {.on_finding = sn ? on_finding : NULL, .ctx = sn};
    errata_scan *s = NULL;
    errata_error err = {0};
    assert_int_equal(errata_scan_open(db, &so, &s, &err), ERRATA_OK);
    for (size_t i = 0; i < len; i += piece)
        assert_int_equal(errata_scan_feed(s, text + i, len - i < piece ? len - i : piece, &err),
                         ERRATA_OK);
    assert_int_equal(errata_scan_finish(s, &err), ERRATA_OK);
    return s;
}

static const char *finding_id(const errata_scan *s, size_t i)
{
    return errata_record_id(errata_match_record(errata_finding_match(errata_scan_finding(s, i))));
}

static const char LOG[] =
    "gcc -c a.c -o a.o\n"                                              /* 1 */
    "a.c:1:10: fatal error: nothere.h: No such file or directory\n"    /* 2 */
    "compilation terminated.\n"                                        /* 3 */
    "make: *** [Makefile:2: all] Error 1\n"                            /* 4 */
    "\033[32mok\033[0m a line in colour\n"                             /* 5 */
    "Traceback (most recent call last):\n"                             /* 6 */
    "  File \"x.py\", line 1, in <module>\n"                           /* 7 */
    "Module\033[1mNotFoundError\033[0m: No module named 'torch'\n"     /* 8: escapes inside */
    "first half of the message\n"                                      /* 9 */
    "   second half of it\n"                                           /* 10 */
    "done\n";                                                          /* 11 */

static void findings_have_lines(void **state)
{
    kb_fixture *f = *state;
    static const size_t pieces[] = {1, 3, 7, 64, sizeof LOG};
    for (size_t p = 0; p < sizeof pieces / sizeof *pieces; p++) {
        seen sn = {0};
        errata_scan *s = scan_text(f->db, LOG, sizeof LOG - 1, pieces[p], &sn);
        /* the make line only frames the gcc error above it: not a finding of its own */
        assert_int_equal(errata_scan_findings(s), 3);
        assert_string_equal(finding_id(s, 0), "cc/missing-header");
        assert_string_equal(finding_id(s, 1), "py/no-module");
        assert_string_equal(finding_id(s, 2), "two/lines");
        assert_int_equal(errata_match_line(errata_finding_match(errata_scan_finding(s, 0))), 2);
        assert_int_equal(errata_match_line(errata_finding_match(errata_scan_finding(s, 1))), 8);
        assert_int_equal(errata_match_line(errata_finding_match(errata_scan_finding(s, 2))), 9);
        assert_string_equal(errata_match_capture(errata_finding_match(errata_scan_finding(s, 1)),
                                                 "module"), "torch");
        assert_int_equal(errata_scan_lines(s), 11);
        assert_int_equal(sn.calls, 3);
        assert_string_equal(sn.ids[1], "py/no-module");
        unsigned long long first = 0;
        const char *ctx = errata_finding_context(errata_scan_finding(s, 0), &first);
        assert_int_equal(first, 1);
        assert_non_null(strstr(ctx, "nothere.h"));
        errata_scan_free(s);
    }
}

/* Colour codes inside the words a prefilter looks for, far from any other hit, and cut between
 * pieces at every place: found at its line. */
static void escapes_split_between_pieces(void **state)
{
    kb_fixture *f = *state;
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < 40; i++)
        sb_printf(&sb, "benign line %d\n", i);
    sb_puts(&sb, "\033[31mModule\033[1;4mNotFound\033]0;title\007Error\033[0m: No module "
                 "named 'torch'\n");
    for (size_t piece = 1; piece <= 9; piece++) {
        errata_scan *s = scan_text(f->db, sb.buf, sb.len, piece, NULL);
        assert_int_equal(errata_scan_findings(s), 1);
        assert_int_equal(errata_match_line(errata_finding_match(errata_scan_finding(s, 0))), 41);
        errata_scan_free(s);
    }
    sb_free(&sb);
}

static void notices_are_not_findings(void **state)
{
    kb_fixture *f = *state;
    const char *log = "make: Nothing to be done for 'all'.\n";
    errata_scan *s = scan_text(f->db, log, strlen(log), 4096, NULL);
    assert_int_equal(errata_scan_findings(s), 0);
    errata_scan_free(s);
    errata_result *res = NULL;
    errata_error err = {0};
    assert_int_equal(errata_lookup(f->db, log, strlen(log), NULL, &res, &err), ERRATA_OK);
    assert_int_equal(errata_result_count(res), 1); /* a lookup still explains it */
    assert_string_equal(errata_record_id(errata_match_record(errata_result_match(res, 0))),
                        "make/nothing");
    errata_result_free(res);
}

static void framing_alone_is_a_finding(void **state)
{
    kb_fixture *f = *state;
    const char *log = "building\nmake: *** [Makefile:9: test] Error 2\n";
    errata_scan *s = scan_text(f->db, log, strlen(log), 4096, NULL);
    assert_int_equal(errata_scan_findings(s), 1);
    assert_string_equal(finding_id(s, 0), "make/recipe-failed");
    errata_scan_free(s);
}

static void repeats_are_counted_once(void **state)
{
    kb_fixture *f = *state;
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < 3000; i++) {
        sb_printf(&sb, "step %d passed\n", i);
        if (i % 3 == 0)
            sb_puts(&sb, "ModuleNotFoundError: No module named 'numpy'\n");
    }
    errata_scan *s = scan_text(f->db, sb.buf, sb.len, 65536, NULL);
    assert_int_equal(errata_scan_findings(s), 1);
    const errata_finding *fd = errata_scan_finding(s, 0);
    assert_int_equal(errata_finding_occurrences(fd), 1000);
    assert_int_equal(errata_finding_first_line(fd), 2);
    assert_int_equal(errata_finding_last_line(fd), 3000 + 1000 - 2);
    errata_scan_free(s);
    sb_free(&sb);
}

static void benign_and_empty_logs(void **state)
{
    kb_fixture *f = *state;
    const char *log = "all 120 tests passed\nno errors\nfatal errors: none\n";
    errata_scan *s = scan_text(f->db, log, strlen(log), 10, NULL);
    assert_int_equal(errata_scan_findings(s), 0);
    assert_int_equal(errata_scan_lines(s), 3);
    errata_scan_free(s);
    s = scan_text(f->db, "", 0, 1, NULL);
    assert_int_equal(errata_scan_findings(s), 0);
    assert_int_equal(errata_scan_lines(s), 0);
    errata_scan_free(s);
}

/* A 12 MB line (minified JavaScript) with an error in its middle, fed in 1 MB pieces. */
static void long_line(void **state)
{
    kb_fixture *f = *state;
    size_t n = 12u << 20;
    char *big = malloc(n + 64);
    assert_non_null(big);
    for (size_t i = 0; i < n; i++)
        big[i] = "abcdefgh;"[i % 9];
    const char *err = "ModuleNotFoundError: No module named 'leftpad'";
    memcpy(big + n / 2, err, strlen(err));
    big[n] = '\n';
    errata_scan *s = scan_text(f->db, big, n + 1, 1u << 20, NULL);
    assert_int_equal(errata_scan_findings(s), 1);
    assert_int_equal(errata_match_line(errata_finding_match(errata_scan_finding(s, 0))), 1);
    assert_string_equal(errata_match_capture(errata_finding_match(errata_scan_finding(s, 0)),
                                             "module"), "leftpad");
    errata_scan_free(s);
    free(big);
}

static errata_scan *scan_file(errata_db *db, const char *path, errata_code *rc, errata_error *err)
{
    errata_scan *s = NULL;
    assert_int_equal(errata_scan_open(db, NULL, &s, err), ERRATA_OK);
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    *rc = errata_scan_stream(s, in, err);
    if (*rc == ERRATA_OK)
        *rc = errata_scan_finish(s, err);
    fclose(in);
    return s;
}

static void compressed_input(void **state)
{
    kb_fixture *f = *state;
    char path[4096];
    errata_error err = {0};
    errata_code rc;
    /* gzip */
    snprintf(path, sizeof path, "%s/log.gz", f->dir);
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    assert_int_equal(gzwrite(gz, LOG, sizeof LOG - 1), (int)(sizeof LOG - 1));
    gzclose(gz);
    errata_scan *s = scan_file(f->db, path, &rc, &err);
    assert_int_equal(rc, ERRATA_OK);
    assert_int_equal(errata_scan_findings(s), 3);
    errata_scan_free(s);
    /* a truncated gzip file is an error that says so */
    size_t len;
    char *data = slurp(path, &len);
    char *cut = write_file(f->dir, "cut.gz", "");
    FILE *o = fopen(cut, "wb");
    fwrite(data, 1, len / 2, o);
    fclose(o);
    s = scan_file(f->db, cut, &rc, &err);
    assert_int_equal(rc, ERRATA_ERR_IO);
    assert_non_null(strstr(err.message, "truncated"));
    errata_scan_free(s);
    free(data), free(cut);
    /* zstd */
    size_t cap = ZSTD_compressBound(sizeof LOG);
    char *z = malloc(cap);
    size_t zn = ZSTD_compress(z, cap, LOG, sizeof LOG - 1, 3);
    assert_false(ZSTD_isError(zn));
    snprintf(path, sizeof path, "%s/log.zst", f->dir);
    o = fopen(path, "wb");
    fwrite(z, 1, zn, o);
    fclose(o);
    free(z);
    s = scan_file(f->db, path, &rc, &err);
    assert_int_equal(rc, ERRATA_OK);
    assert_int_equal(errata_scan_findings(s), 3);
    errata_scan_free(s);
}

static void located_formats(void **state)
{
    kb_fixture *f = *state;
    errata_scan *s = scan_text(f->db, LOG, sizeof LOG - 1, 4096, NULL);
    char *sarif = errata_scan_render(s, ERRATA_FORMAT_SARIF, "ci/build.log", NULL);
    json_error_t je;
    json_t *j = json_loads(sarif, 0, &je);
    assert_non_null(j);
    json_t *results = json_object_get(json_array_get(json_object_get(j, "runs"), 0), "results");
    assert_int_equal(json_array_size(results), 3);
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *loc = json_object_get(json_array_get(json_object_get(json_array_get(results, i),
                                                                     "locations"), 0),
                                      "physicalLocation");
        assert_string_equal(json_string_value(json_object_get(json_object_get(loc,
                                              "artifactLocation"), "uri")), "ci/build.log");
        assert_true(json_integer_value(json_object_get(json_object_get(loc, "region"),
                                                       "startLine")) >= 1);
    }
    json_decref(j);
    free(sarif);
    /* GitHub: one command a finding, a property's ',' and ':' escaped, message on one line */
    char *gh = errata_scan_render(s, ERRATA_FORMAT_GITHUB, "a,b:c.log", NULL);
    assert_non_null(strstr(gh, "::error file=a%2Cb%3Ac.log,line=2,title=cc/missing-header::"));
    size_t lines = 0;
    for (const char *p = gh; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 3);
    free(gh);
    char *js = errata_scan_render(s, ERRATA_FORMAT_JSON, NULL, NULL);
    j = json_loads(js, 0, &je);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "source")), "stdin");
    assert_int_equal(json_array_size(json_object_get(j, "findings")), 3);
    json_decref(j);
    free(js);
    char *line = errata_finding_render(errata_scan_finding(s, 1), ERRATA_FORMAT_JSONL, "x.log");
    assert_non_null(line);
    assert_int_equal(strchr(line, '\n') - line, (long)strlen(line) - 1);
    j = json_loads(line, 0, &je);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "finding"), "line")), 8);
    json_decref(j);
    free(line);
    errata_scan_free(s);
}

static void missing_prefilter_is_named(void **state)
{
    kb_fixture *f = *state;
    char path[4096];
    snprintf(path, sizeof path, "%s/index.db", f->dir);
    errata_close(f->db);
    sqlite3 *sq;
    assert_int_equal(sqlite3_open(path, &sq), SQLITE_OK);
    assert_int_equal(sqlite3_exec(sq, "DELETE FROM scan_literals", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(sq);
    errata_error err = {0};
    assert_int_equal(errata_open(path, &f->db, &err), ERRATA_OK); /* lookups still work */
    errata_scan *s = NULL;
    assert_int_equal(errata_scan_open(f->db, NULL, &s, &err), ERRATA_ERR_CORRUPT);
    assert_null(s);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, "scan literals"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(required_literals),
        cmocka_unit_test(findings_have_lines),
        cmocka_unit_test(escapes_split_between_pieces),
        cmocka_unit_test(notices_are_not_findings),
        cmocka_unit_test(framing_alone_is_a_finding),
        cmocka_unit_test(repeats_are_counted_once),
        cmocka_unit_test(benign_and_empty_logs),
        cmocka_unit_test(long_line),
        cmocka_unit_test(compressed_input),
        cmocka_unit_test(located_formats),
        cmocka_unit_test(missing_prefilter_is_named),
    };
    /* One fixture for the group; the last test damages its index. */
    return cmocka_run_group_tests(tests, setup, fixture_teardown);
}
