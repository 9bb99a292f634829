/*
 * test_keylines.c — line roles and output formats (match/keylines.c), and which engine takes a
 * pattern (index/multiscan.c): the two cheap judgements every lookup leans on.
 */
#include <hs/hs.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "keylines.h"
#include "multiscan.h"

static line_role role_of_line(const char *text, int n)
{
    size_t at = 0;
    for (int i = 1; i < n; i++)
        at = (size_t)(strchr(text + at, '\n') - text) + 1;
    return classify_line(text, strlen(text), at);
}

static void framing_lines_are_told_from_errors(void **state)
{
    (void)state;
    const char *log = "gcc -c a.c\n"
                      "a.c:3:10: fatal error: bar.h: No such file or directory\n"
                      "make: *** [Makefile:2: a.o] Error 1\n"
                      "Traceback (most recent call last):\n"
                      "ninja: build stopped: subcommand failed.\n";
    assert_int_equal(role_of_line(log, 1), LINE_PLAIN);
    assert_int_equal(role_of_line(log, 2), LINE_KEY);
    assert_int_equal(role_of_line(log, 3), LINE_FRAMING);
    assert_int_equal(role_of_line(log, 4), LINE_FRAMING);
    assert_int_equal(role_of_line(log, 5), LINE_FRAMING);
}

static void the_root_of_a_chain_is_its_last_cause(void **state)
{
    (void)state;
    const char *java = "Exception in thread \"main\" java.lang.RuntimeException: wrap\n"
                       "Caused by: java.io.IOException: middle\n"
                       "Caused by: java.io.FileNotFoundException: a.txt\n";
    assert_int_equal(role_of_line(java, 1), LINE_KEY);
    assert_int_equal(role_of_line(java, 2), LINE_KEY);
    assert_int_equal(role_of_line(java, 3), LINE_ROOT);
    const char *py = "KeyError: 'x'\n"
                     "\n"
                     "The above exception was the direct cause of the following exception:\n"
                     "RuntimeError: lookup failed\n";
    assert_int_equal(role_of_line(py, 1), LINE_ROOT);
    assert_int_equal(role_of_line(py, 4), LINE_KEY);
    /* A dotted exception name needs its tail: "Note:" is not an exception line. */
    assert_int_equal(role_of_line("Note: nothing failed\n", 1), LINE_PLAIN);
    assert_int_equal(role_of_line("requests.exceptions.HTTPError: 404\n", 1), LINE_KEY);
}

static void formats_are_detected_and_fit_their_domains(void **state)
{
    (void)state;
    const char *py = "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 1\n";
    unsigned f = detect_formats(py, strlen(py));
    assert_true(f & FMT_PYTHON);
    assert_false(f & FMT_JAVA);
    assert_true(format_fits_domain(f, "python"));
    assert_false(format_fits_domain(f, "java"));
    const char *go = "panic: runtime error: index out of range\n\ngoroutine 1 [running]:\n";
    assert_true(detect_formats(go, strlen(go)) & FMT_GO);
    assert_int_equal(detect_formats("", 0), 0);
}

static void each_pattern_gets_the_engine_that_can_run_it(void **state)
{
    (void)state;
    assert_int_equal(multiscan_classify("No module named '(?P<module>[\\w.]+)'"), ENGINE_HS);
    /* A backreference: Hyperscan cannot run it exactly. */
    assert_int_not_equal(multiscan_classify("(?P<m>\\w+)\\.DoesNotExist: (?P=m) matching"),
                         ENGINE_HS);
    /* \K is PCRE2's alone. */
    assert_int_equal(multiscan_classify("hostile: (?:a|aa)+\\Kb"), ENGINE_PCRE_ONLY);
}

static void a_database_compiles_and_demotes_what_it_must(void **state)
{
    (void)state;
    const char *re[] = {"No module named '(?P<module>[\\w.]+)'", "connection refused to db",
                        "hostile: (?:a|aa)+\\Kb"};
    engine_kind eng[3];
    for (int i = 0; i < 3; i++)
        eng[i] = multiscan_classify(re[i]);
    hs_database_t *db = NULL;
    errata_error err;
    assert_int_equal(multiscan_compile(re, eng, 3, &db, &err), ERRATA_OK);
    assert_non_null(db);
    assert_int_equal(eng[2], ENGINE_PCRE_ONLY);
    hs_free_database(db);
    /* Nothing for Hyperscan: no database, and no error. */
    const char *only[] = {"hostile: (?:a|aa)+\\Kb"};
    engine_kind e1[] = {ENGINE_PCRE_ONLY};
    db = (hs_database_t *)1;
    assert_int_equal(multiscan_compile(only, e1, 1, &db, &err), ERRATA_OK);
    assert_null(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(framing_lines_are_told_from_errors),
        cmocka_unit_test(the_root_of_a_chain_is_its_last_cause),
        cmocka_unit_test(formats_are_detected_and_fit_their_domains),
        cmocka_unit_test(each_pattern_gets_the_engine_that_can_run_it),
        cmocka_unit_test(a_database_compiles_and_demotes_what_it_must),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
