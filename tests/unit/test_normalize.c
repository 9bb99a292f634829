/*
 * test_normalize.c — what every pattern sees: repaired UTF-8, no escapes, no CR, and lines
 * without their timestamp, level, CI or container prefixes, line numbers unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "keylines.h"
#include "normalize.h"

static char *normalized(const char *in, size_t len)
{
    strbuf a;
    sb_init(&a);
    normalize_text(in, len, &a);
    strip_line_prefixes(&a);
    return sb_finish(&a);
}

static void expect(const char *in, const char *want)
{
    char *got = normalized(in, strlen(in));
    if (strcmp(got, want) != 0)
        fail_msg("normalising [%s]\n got [%s]\nwant [%s]", in, got, want);
    free(got);
}

static void bytes_and_escapes(void **state)
{
    (void)state;
    expect("plain text\n", "plain text\n");
    expect("\033[1;31merror:\033[0m boom", "error: boom");
    expect("title\033]0;window title\007 rest", "title rest");
    expect("a\r\nb\rc", "a\nb\nc");
    expect("nul\0byte", "nul");  /* strlen stops at NUL: tested with lengths below */
    char *got = normalized("nul\0byte", 8);
    assert_string_equal(got, "nulbyte");
    free(got);
    got = normalized("bad \xff\xfe utf8 \xc3", 14);
    assert_string_equal(got, "bad \xEF\xBF\xBD\xEF\xBF\xBD utf8 \xEF\xBF\xBD");
    free(got);
    expect("caf\xc3\xa9 \xe4\xb8\xad\xe6\x96\x87", "caf\xc3\xa9 \xe4\xb8\xad\xe6\x96\x87");
    got = normalized("surrogate \xed\xa0\x80 overlong \xc0\xaf", 23);
    assert_null(strstr(got, "\xed\xa0"));
    assert_null(strstr(got, "\xc0"));
    free(got);
}

static void line_prefixes(void **state)
{
    (void)state;
    expect("2026-12-01T10:00:00.1234567Z npm error code E404", "npm error code E404");
    expect("2026-12-01T10:00:00Z ##[error]Process completed with exit code 1.",
           "Process completed with exit code 1.");
    expect("2026-12-01 10:00:00,123 ERROR fatal: not a git repository",
           "fatal: not a git repository");
    /* A level with a colon belongs to the message: psql prints "ERROR:  relation …". */
    expect("2026-12-03T16:06:08.6686321Z ERROR:  relation \"drivers\" does not exist",
           "ERROR:  relation \"drivers\" does not exist");
    expect("2026-12-01 10:00:00+02:00 [warn] disk almost full", "disk almost full");
    expect("[10:00:00] error: boom", "error: boom");
    expect("[2026-12-01T10:00:00Z] ERROR: boom", "ERROR: boom");
    expect("::error file=app.py,line=3::NameError: name 'x' is not defined",
           "NameError: name 'x' is not defined");
    expect("web-1  | Error: listen EADDRINUSE: address already in use :::3000",
           "Error: listen EADDRINUSE: address already in use :::3000");
    expect("db_1    | FATAL:  role \"app\" does not exist", "FATAL:  role \"app\" does not exist");
    expect("[pod/api-5d8f/app] panic: runtime error", "panic: runtime error");
    /* Not prefixes: text that merely looks alike stays. */
    expect("ERROR:  duplicate key value", "ERROR:  duplicate key value");
    expect("  File \"x.py\", line 3", "  File \"x.py\", line 3");
    expect("a | b", "a | b");
    expect("E: Unable to locate package x", "E: Unable to locate package x");
    /* Line count is kept. */
    expect("2026-12-01T10:00:00Z a\n2026-12-01T10:00:01Z b\n\nc", "a\nb\n\nc");
}

static size_t start_of_line(const char *text, int n)
{
    size_t at = 0;
    for (int i = 1; i < n; i++)
        at = (size_t)(strchr(text + at, '\n') - text) + 1;
    return at;
}

static void line_roles(void **state)
{
    (void)state;
    const char *make = "cc -c a.c\na.c:1:10: fatal error: b.h: No such file or directory\n"
                       "compilation terminated.\nmake: *** [Makefile:2: a.o] Error 1\n";
    size_t n = strlen(make);
    assert_int_equal(classify_line(make, n, start_of_line(make, 1)), LINE_PLAIN);
    assert_int_equal(classify_line(make, n, start_of_line(make, 2)), LINE_KEY);
    assert_int_equal(classify_line(make, n, start_of_line(make, 4)), LINE_FRAMING);

    const char *java = "Exception in thread \"main\" java.lang.RuntimeException: wrap\n"
                       "\tat App.main(App.java:5)\n"
                       "Caused by: java.lang.IllegalStateException: mid\n"
                       "\t... 1 more\n"
                       "Caused by: java.io.FileNotFoundException: x (No such file or directory)\n";
    n = strlen(java);
    assert_int_equal(classify_line(java, n, start_of_line(java, 1)), LINE_KEY);
    assert_int_equal(classify_line(java, n, start_of_line(java, 3)), LINE_KEY);
    assert_int_equal(classify_line(java, n, start_of_line(java, 5)), LINE_ROOT);

    const char *py = "Traceback (most recent call last):\n  File \"a.py\", line 2, in <module>\n"
                     "KeyError: 'x'\n\nThe above exception was the direct cause of the "
                     "following exception:\n\nTraceback (most recent call last):\n"
                     "RuntimeError: config broken\n";
    n = strlen(py);
    assert_int_equal(classify_line(py, n, start_of_line(py, 1)), LINE_FRAMING);
    assert_int_equal(classify_line(py, n, start_of_line(py, 3)), LINE_ROOT);
    assert_int_equal(classify_line(py, n, start_of_line(py, 8)), LINE_KEY);
    assert_true(detect_formats(py, n) & FMT_PYTHON);
    assert_false(detect_formats(py, n) & FMT_JAVA);
    assert_true(format_fits_domain(FMT_PYTHON, "pip"));
    assert_false(format_fits_domain(FMT_PYTHON, "java"));
    assert_true(detect_formats(java, strlen(java)) & FMT_JAVA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bytes_and_escapes),
        cmocka_unit_test(line_prefixes),
        cmocka_unit_test(line_roles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
