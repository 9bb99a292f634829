/*
 * test_validate.c — the meaning checks: what `errata validate` says about the seed, and each
 * rule of docs/format.md that a schema cannot express.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "pattern.h"

static errata_diags *validate_dir(const char *dir)
{
    errata_diags *d = NULL;
    errata_error err = {0};
    assert_int_equal(errata_validate_paths(&dir, 1, &d, &err), ERRATA_OK);
    return d;
}

static errata_diags *validate_text(const char *text)
{
    char *dir = make_temp_dir();
    free(write_file(dir, "huggingface/torch-compile-incompatible-with-peft.json", text));
    errata_diags *d = validate_dir(dir);
    rm_tree(dir);
    free(dir);
    return d;
}

static void seed_is_valid_with_its_known_flaws(void **state)
{
    (void)state;
    const char *seed = src_path("kb/huggingface/torch-compile-incompatible-with-peft.json");
    errata_diags *d = NULL;
    errata_error err = {0};
    assert_int_equal(errata_validate_paths(&seed, 1, &d, &err), ERRATA_OK);
    assert_int_equal(errata_diags_errors(d), 0);
    assert_int_equal(errata_diags_files(d), 1);
    for (int i = 0; i < 3; i++) {
        char f[64];
        snprintf(f, sizeof f, "dead_ends[%d].action", i);
        assert_non_null(find_diag(d, ERRATA_SEV_WARNING, f, "empty"));
        snprintf(f, sizeof f, "workarounds_zh[%d]", i);
        assert_non_null(find_diag(d, ERRATA_SEV_WARNING, f, "not translated"));
    }
    assert_non_null(find_diag(d, ERRATA_SEV_WARNING, "examples", "no examples"));
    assert_non_null(find_diag(d, ERRATA_SEV_WARNING, "sources", "cites a source"));
    /* Its regex matches its own signature, and Chinese texts that differ are not flagged. */
    assert_null(find_diag(d, ERRATA_SEV_WARNING, "regex", NULL));
    assert_null(find_diag(d, ERRATA_SEV_WARNING, "signature_zh", NULL));
    errata_diags_free(d);
}

static void expect_error(const char *key, const char *value, const char *field,
                         const char *needle)
{
    char *text = seed_with(key, value);
    errata_diags *d = validate_text(text);
    if (!find_diag(d, ERRATA_SEV_ERROR, field, needle))
        fail_msg("no error on %s containing '%s'", field, needle);
    errata_diags_free(d);
    free(text);
}

static void expect_warning(const char *key, const char *value, const char *field,
                           const char *needle)
{
    char *text = seed_with(key, value);
    errata_diags *d = validate_text(text);
    if (!find_diag(d, ERRATA_SEV_WARNING, field, needle))
        fail_msg("no warning on %s containing '%s'", field, needle);
    assert_int_equal(errata_diags_errors(d), 0);
    errata_diags_free(d);
    free(text);
}

static void regex_rules(void **state)
{
    (void)state;
    expect_error("regex", "\"RuntimeError: (unclosed\"", "regex", "does not compile");
    expect_error("regex", "\"error|failed\"", "regex", "not specific");
    expect_error("regex", "\"RuntimeError: torch\\\\.compile|error\"", "regex", "not specific");
    expect_error("regex", "\".*RuntimeError: torch\\\\.compile is not supported\"", "regex",
                 "begins with");
    expect_warning("regex", "\"RuntimeError: torch\\\\.compile is broken\"", "regex",
                   "own signature");
    expect_error("regex", "\"RuntimeError: torch\\\\.compile [\\\\s\\\\S]{0,400}? adapters\"",
                 "regex", "'{0,400}' at offset 35");
    /* Placeholders in the signature stand for values: N for a number, X for a name. */
    char *text = seed_with("signature", "\"connect to X port N failed: Connection refused\"");
    char *both = NULL;
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    json_object_set_new(j, "regex", json_string("connect to \\S+ port \\d+ failed: Connection refused"));
    both = json_dumps(j, 0);
    json_decref(j);
    errata_diags *d = validate_text(both);
    assert_null(find_diag(d, ERRATA_SEV_WARNING, "regex", "own signature"));
    errata_diags_free(d);
    free(both);
    free(text);
}

static void example_rules(void **state)
{
    (void)state;
    expect_error("examples",
                 "{\"match\": [\"RuntimeError: something else entirely\"], \"no_match\": []}",
                 "examples.match[0]", "does not match");
    expect_error("examples",
                 "{\"match\": [], \"no_match\": [\"RuntimeError: torch.compile is not supported "
                 "for PEFT models with dynamic adapters\"]}",
                 "examples.no_match[0]", "must not");
    /* Case-insensitive and multi-line, as documented. */
    char *text = seed_with("examples",
                           "{\"match\": [\"Traceback (most recent call last):\\n  File \\\"x.py\\\", "
                           "line 1\\nruntimeerror: TORCH.COMPILE is not supported for peft models "
                           "with dynamic adapters\"], \"no_match\": [\"RuntimeError: torch.compile "
                           "is not supported for this model\"]}");
    errata_diags *d = validate_text(text);
    assert_int_equal(errata_diags_errors(d), 0);
    assert_null(find_diag(d, ERRATA_SEV_WARNING, "examples", NULL));
    errata_diags_free(d);
    free(text);
}

static void identity_rules(void **state)
{
    (void)state;
    expect_error("id", "\"Hugging Face/x\"", "id", "domain/slug");
    expect_error("id", "\"pytorch/torch-compile-incompatible-with-peft\"", "id",
                 "does not equal domain");
    expect_error("locale", "\"english\"", "locale", "language tag");
    expect_warning("signature_zh",
                   "\"RuntimeError: torch.compile is not supported for PEFT models with dynamic "
                   "adapters\"",
                   "signature_zh", "not translated");
    expect_warning("workarounds_zh", "[\"只有一条\"]", "workarounds_zh", "1 entries for 3");
    expect_warning("transition_graph",
                   "{\"leads_to\": [\"huggingface/no-such-record\"], \"preceded_by\": [], "
                   "\"frequently_confused_with\": []}",
                   "transition_graph.leads_to[0]", "names no record");
}

/* dead_ends_zh mirrors workarounds_zh; every URL a surface links must be http(s). */
static void translation_and_source_rules(void **state)
{
    (void)state;
    expect_warning("dead_ends_zh", "[\"只有一条\"]", "dead_ends_zh", "1 entries for 3");
    expect_warning("dead_ends_zh",
                   "[\"甲\", \"The incompatibility is fundamental to PEFT's dynamic nature, not "
                   "a torch bug; nightly versions have the same limitation.\", \"丙\"]",
                   "dead_ends_zh[1]", "not translated");
    expect_error("official_doc_url", "\"javascript:alert(1)\"", "official_doc_url",
                 "not an http(s) URL");
    expect_error("workarounds",
                 "[{\"action\": \"a\", \"success_rate\": 0.5, \"how\": \"\", \"condition\": "
                 "\"\", \"sources\": [\"https://example.org/ok\", \"data:text/html,x\"]}]",
                 "workarounds[0].sources[1]", "not an http(s) URL");

    char *text = seed_with("dead_ends_zh", "[\"甲\", \"乙\", \"丙\"]");
    errata_diags *d = validate_text(text);
    assert_null(find_diag(d, ERRATA_SEV_WARNING, "dead_ends_zh", NULL));
    assert_null(find_diag(d, ERRATA_SEV_WARNING, NULL, "unknown"));
    errata_diags_free(d);
    free(text);
    text = seed_with("workarounds",
                     "[{\"action\": \"a\", \"success_rate\": 0.5, \"how\": \"\", "
                     "\"condition\": \"\", \"sources\": [\"https://example.org/doc\"]}]");
    d = validate_text(text);
    assert_null(find_diag(d, ERRATA_SEV_WARNING, "sources", NULL));
    errata_diags_free(d);
    free(text);
}

static void duplicate_ids_and_resolved_links(void **state)
{
    (void)state;
    char *dir = make_temp_dir();
    char *seed = slurp(src_path("kb/huggingface/torch-compile-incompatible-with-peft.json"), NULL);
    free(write_file(dir, "a/huggingface/torch-compile-incompatible-with-peft.json", seed));
    free(write_file(dir, "b/huggingface/torch-compile-incompatible-with-peft.json", seed));
    errata_diags *d = validate_dir(dir);
    assert_non_null(find_diag(d, ERRATA_SEV_ERROR, "id", "duplicate id"));
    errata_diags_free(d);
    rm_tree(dir);

    /* A link to a record that exists is not reported. */
    char *linked = seed_with("transition_graph",
                             "{\"leads_to\": [{\"id\": \"huggingface/torch-compile-incompatible-"
                             "with-peft\", \"probability\": 0.2, \"condition\": null}]}");
    d = validate_text(linked);
    assert_null(find_diag(d, ERRATA_SEV_WARNING, "transition_graph.leads_to[0]", NULL));
    errata_diags_free(d);
    free(linked);
    free(seed);
    free(dir);
}

static void missing_path_is_an_error_of_the_call(void **state)
{
    (void)state;
    const char *p = "/nonexistent/errata/kb";
    errata_diags *d = NULL;
    errata_error err = {0};
    assert_int_equal(errata_validate_paths(&p, 1, &d, &err), ERRATA_ERR_IO);
    assert_non_null(strstr(err.message, "/nonexistent/errata/kb"));
    assert_null(d);
}

static void literal_counting(void **state)
{
    (void)state;
    struct {
        const char *re;
        size_t n;
    } cases[] = {
        {"abc", 3},
        {"a\\.b", 3},
        {"a.b", 2},
        {"ab?c", 2},
        {"a(bc)?d", 2},
        {"a(?:bc|d)e", 3},
        {"[abc]def", 3},
        {"x\\d+y", 2},
        {"(?P<module>[\\w.]+) not found", 10},
        {"abc|de", 2},
        {"(?i)hello", 5},
        {"hé", 2},
        {"a{2}b", 2},
        {"a{0,3}b", 1},
        {"\\Qa.b\\E", 3},
        {"(?=abc)d", 1},
        {"\\x41\\n", 2},
        {"a{b", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (pattern_min_literals(cases[i].re) != cases[i].n)
            fail_msg("'%s': %zu literals, expected %zu", cases[i].re,
                     pattern_min_literals(cases[i].re), cases[i].n);
}

/* Counted repeats above PATTERN_MAX_COUNTED_REPEAT are refused; braces that are literal, in a
 * class, escaped or unbounded above are not repeats that Hyperscan unrolls. */
static void counted_repeat_cost(void **state)
{
    (void)state;
    struct {
        const char *re;
        bool cheap;
    } cases[] = {
        {"a[^\\n]{1,64}b", true},     {"a[^\\n]{1,65}b", false}, {"a.{200}b", false},
        {"a.{,100}b", false},          {"a.{100,}b", true},       {"a\\{0,400}b", true},
        {"a[{0,400}]b", true},         {"a[]{0,400}]b", true},    {"a{b,400}c", true},
        {"(?:x\\n){0,8}?y{3}", true}, {"a[\\]]{0,99}", false},
    };
    char why[300];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (pattern_is_cheap_to_compile(cases[i].re, why, sizeof why) != cases[i].cheap)
            fail_msg("'%s': expected %s", cases[i].re, cases[i].cheap ? "cheap" : "refused");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_is_valid_with_its_known_flaws),
        cmocka_unit_test(regex_rules),
        cmocka_unit_test(example_rules),
        cmocka_unit_test(identity_rules),
        cmocka_unit_test(translation_and_source_rules),
        cmocka_unit_test(duplicate_ids_and_resolved_links),
        cmocka_unit_test(missing_path_is_an_error_of_the_call),
        cmocka_unit_test(literal_counting),
        cmocka_unit_test(counted_repeat_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
