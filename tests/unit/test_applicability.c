/*
 * test_applicability.c — whether a record applies to an environment, and errata check: the
 * seed's acceptance cases, the rules of versions[] (same package: any range; different
 * packages: all), introduced/removed, OS notes, and the three output formats.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define SEED_ID "huggingface/torch-compile-incompatible-with-peft"
#define SEED_MSG "RuntimeError: torch.compile is not supported for PEFT models with dynamic adapters"

static int setup(void **state)
{
    kb_fixture *f = fixture_new();
    add_record(f->dir, SEED_ID,
        slurp(src_path("kb/huggingface/torch-compile-incompatible-with-peft.json"), NULL));
    /* Two ranges of one package are alternatives; introduced and removed narrow a range. */
    add_record(f->dir, "node/two-ranges",
        test_record("node/two-ranges", "two ranges error here", "h", 0.5,
                             "[{\"version\": \"node>=14,<16\"}, {\"version\": \"node>=20\","
                             " \"introduced\": \"20.5\", \"removed\": \"22.0\"}]",
                             "{\"linux\": \"on Linux, check ulimit\", \"macos\": \"m\"}"));
    add_record(f->dir, "tool/no-versions",
        test_record("tool/no-versions", "version free error here", "h", 0.5, "[]", "{}"));
    fixture_open(f);
    *state = f;
    return 0;
}

static errata_env *env_of(const char *name, const char *text)
{
    errata_env *env;
    errata_error err = {0};
    assert_int_equal(errata_env_new(&env, &err), ERRATA_OK);
    if (text && errata_env_load_text(env, name, text, strlen(text), &err) != ERRATA_OK)
        fail_msg("loading %s: %s", name, err.message);
    return env;
}

static errata_applicability decide(kb_fixture *f, const char *msg, errata_env *env, const char **why)
{
    errata_lookup_options lo = {.env = env};
    errata_result *res = NULL;
    errata_error err = {0};
    assert_int_equal(errata_lookup(f->db, msg, strlen(msg), &lo, &res, &err), ERRATA_OK);
    assert_true(errata_result_count(res) > 0);
    static char reason[512];
    const char *r;
    errata_applicability a = errata_match_applicability(errata_result_match(res, 0), &r);
    snprintf(reason, sizeof reason, "%s", r);
    *why = reason;
    errata_result_free(res);
    return a;
}

static void seed_acceptance(void **state)
{
    kb_fixture *f = *state;
    const char *why;
    errata_env *env = env_of("requirements.txt", "transformers==4.40.0\npeft==0.10.0\ntorch==2.3.0\n");
    assert_int_equal(decide(f, SEED_MSG, env, &why), ERRATA_APPLICABILITY_APPLIES);
    assert_non_null(strstr(why, "torch 2.3.0"));
    errata_env_free(env);

    env = env_of("requirements.txt", "transformers==4.40.0\npeft==0.10.0\ntorch==2.1.0\n");
    assert_int_equal(decide(f, SEED_MSG, env, &why), ERRATA_APPLICABILITY_NOT_AFFECTED);
    assert_non_null(strstr(why, "torch 2.1.0 does not satisfy torch>=2.2.0"));
    errata_env_free(env);

    env = env_of("requirements.txt", "transformers==4.40.0\npeft==0.10.0\n");
    assert_int_equal(decide(f, SEED_MSG, env, &why), ERRATA_APPLICABILITY_UNKNOWN);
    assert_non_null(strstr(why, "torch is not in the environment"));
    errata_env_free(env);

    /* PyPI names are compared as pip does: case and -_. do not matter. */
    env = env_of("requirements.txt", "Transformers==4.40.0\nPEFT==0.10.0\nTorch==2.3.0\n");
    assert_int_equal(decide(f, SEED_MSG, env, &why), ERRATA_APPLICABILITY_APPLIES);
    errata_env_free(env);

    /* Without an environment nothing can be decided. */
    errata_result *res;
    errata_error err = {0};
    assert_int_equal(errata_lookup(f->db, SEED_MSG, strlen(SEED_MSG), NULL, &res, &err), ERRATA_OK);
    assert_int_equal(errata_match_applicability(errata_result_match(res, 0), NULL),
                     ERRATA_APPLICABILITY_UNKNOWN);
    errata_result_free(res);
}

static void ranges_introduced_removed_and_os(void **state)
{
    kb_fixture *f = *state;
    const char *why;
    const char *msg = "two ranges error here";
    struct {
        const char *node;
        errata_applicability want;
    } cases[] = {
        {"14.21.3", ERRATA_APPLICABILITY_APPLIES},      /* first range */
        {"16.0.0", ERRATA_APPLICABILITY_NOT_AFFECTED},  /* between the ranges */
        {"20.1.0", ERRATA_APPLICABILITY_NOT_AFFECTED},  /* before introduced */
        {"20.5.0", ERRATA_APPLICABILITY_APPLIES},       /* from introduced */
        {"21.7.3", ERRATA_APPLICABILITY_APPLIES},
        {"22.0.0", ERRATA_APPLICABILITY_NOT_AFFECTED},  /* removed */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        errata_env *env = env_of("x", NULL);
        char set[64];
        snprintf(set, sizeof set, "node=%s", cases[i].node);
        errata_error err = {0};
        assert_int_equal(errata_env_set(env, set, &err), ERRATA_OK);
        if (decide(f, msg, env, &why) != cases[i].want)
            fail_msg("node %s: got '%s'", cases[i].node, why);
        errata_env_free(env);
    }
    /* The OS note for the environment's OS comes with the match. */
    errata_env *env = env_of("os-release", "ID=debian\nVERSION_ID=\"12\"\nPRETTY_NAME=\"Debian 12\"\n");
    errata_lookup_options lo = {.env = env};
    errata_result *res;
    errata_error err = {0};
    assert_int_equal(errata_lookup(f->db, msg, strlen(msg), &lo, &res, &err), ERRATA_OK);
    char *json = errata_result_render(res, ERRATA_FORMAT_JSON, NULL);
    assert_non_null(strstr(json, "\"os_note\":\"on Linux, check ulimit\""));
    free(json);
    errata_result_free(res);
    errata_env_free(env);
    /* A record without versions applies to everyone. */
    env = env_of("x", NULL);
    assert_int_equal(decide(f, "version free error here", env, &why), ERRATA_APPLICABILITY_APPLIES);
    assert_non_null(strstr(why, "does not depend on versions"));
    errata_env_free(env);
}

static void not_affected_ranks_below(void **state)
{
    kb_fixture *f = *state;
    errata_env *env = env_of("requirements.txt", "transformers==4.40.0\npeft==0.10.0\ntorch==2.1.0\n");
    errata_lookup_options lo = {.env = env};
    errata_result *with, *without;
    errata_error err = {0};
    assert_int_equal(errata_lookup(f->db, SEED_MSG, strlen(SEED_MSG), &lo, &with, &err), ERRATA_OK);
    assert_int_equal(errata_lookup(f->db, SEED_MSG, strlen(SEED_MSG), NULL, &without, &err),
                     ERRATA_OK);
    assert_true(errata_match_score(errata_result_match(with, 0)) <
                errata_match_score(errata_result_match(without, 0)));
    char *text = errata_result_render(with, ERRATA_FORMAT_TEXT, NULL);
    assert_non_null(strstr(text, "Does NOT apply to you"));
    assert_non_null(strstr(text, "torch>=2.2.0"));
    free(text);
    errata_result_free(with);
    errata_result_free(without);
    errata_env_free(env);
}

static void check_lists_exposures(void **state)
{
    kb_fixture *f = *state;
    errata_env *env = env_of("requirements.txt", "transformers==4.40.0\npeft==0.10.0\ntorch==2.3.0\n");
    errata_error err = {0};
    assert_int_equal(errata_env_set(env, "node=21.0.0", &err), ERRATA_OK);
    char *out;
    size_t count;
    assert_int_equal(errata_check(f->db, env, ERRATA_FORMAT_JSON, &out, &count, &err), ERRATA_OK);
    assert_int_equal(count, 2); /* the seed and node/two-ranges; never the version-free record */
    json_t *j = json_loads(out, 0, NULL);
    assert_non_null(j);
    json_t *recs = json_object_get(j, "records");
    assert_int_equal(json_array_size(recs), 2);
    /* Ordered by confidence: the seed (0.85) before node/two-ranges (0.5). */
    assert_string_equal(json_string_value(json_object_get(json_array_get(recs, 0), "id")), SEED_ID);
    assert_string_equal(json_string_value(json_object_get(json_array_get(recs, 0), "source")),
                        "requirements.txt:1");
    json_decref(j);
    free(out);

    assert_int_equal(errata_check(f->db, env, ERRATA_FORMAT_HTML, &out, &count, &err),
                     ERRATA_ERR_ARG);
    assert_int_equal(errata_check(f->db, env, ERRATA_FORMAT_SARIF, &out, &count, &err), ERRATA_OK);
    j = json_loads(out, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(j, "version")), "2.1.0");
    json_t *run = json_array_get(json_object_get(j, "runs"), 0);
    json_t *result = json_array_get(json_object_get(run, "results"), 0);
    assert_string_equal(json_string_value(json_object_get(result, "ruleId")), SEED_ID);
    json_t *loc = json_object_get(json_array_get(json_object_get(result, "locations"), 0),
                                  "physicalLocation");
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(loc, "artifactLocation"), "uri")),
        "requirements.txt");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(loc, "region"), "startLine")), 1);
    json_decref(j);
    free(out);

    assert_int_equal(errata_check(f->db, env, ERRATA_FORMAT_TEXT, &out, &count, &err), ERRATA_OK);
    assert_non_null(strstr(out, "2 known errors can happen"));
    free(out);
    errata_env_free(env);

    env = env_of("requirements.txt", "torch==2.1.0\n");
    assert_int_equal(errata_check(f->db, env, ERRATA_FORMAT_TEXT, &out, &count, &err), ERRATA_OK);
    assert_int_equal(count, 0);
    free(out);
    errata_env_free(env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_acceptance),
        cmocka_unit_test(ranges_introduced_removed_and_os),
        cmocka_unit_test(not_affected_ranks_below),
        cmocka_unit_test(check_lists_exposures),
    };
    return cmocka_run_group_tests(tests, setup, fixture_teardown);
}
