/*
 * test_lookup.c — the lookup path: the seed found first, captures filling the answer, ranking,
 * and bad input (empty, invalid UTF-8, escapes, 50 MB, over the limit, a hostile pattern).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "lookup.h"
#include "placeholder.h"

#define SEED_ID "huggingface/torch-compile-incompatible-with-peft"
#define SEED_MSG "RuntimeError: torch.compile is not supported for PEFT models with dynamic adapters"

static int setup(void **state)
{
    kb_fixture *f = fixture_new();
    char *seed = slurp(src_path("kb/huggingface/torch-compile-incompatible-with-peft.json"), NULL);
    add_record(f->dir, SEED_ID, seed);
    add_record(f->dir, "python/no-module",
        test_record("python/no-module", "ModuleNotFoundError: No module named '(?P<module>[\\\\w.]+)'",
                    "pip install {module}", 0.9, "[]", "{}"));
    /* Two records that both match "connection refused to db:5432": the longer literal wins. */
    add_record(f->dir, "net/refused",
        test_record("net/refused", "connection refused", "check the server", 0.9, "[]", "{}"));
    add_record(f->dir, "net/refused-db",
        test_record("net/refused-db", "connection refused to db:(?P<port>\\\\d+)",
                    "start the database on port {port}", 0.1, "[]", "{}"));
    /* A catastrophically backtracking pattern that only PCRE2 can run (\\K is PCRE2's). */
    add_record(f->dir, "test/hostile",
        test_record("test/hostile", "hostile pattern: (?:(a|aa)+)+\\\\Kb", "none", 0.5, "[]", "{}"));
    /* Non-ASCII input under patterns Hyperscan scans as bytes, and under one it must not. */
    add_record(f->dir, "test/bytes-unbounded",
        test_record("test/bytes-unbounded", "unicode check: '[^']+' done", "none", 0.5, "[]", "{}"));
    add_record(f->dir, "test/bytes-single",
        test_record("test/bytes-single", "unicode single: a.b done here", "none", 0.5, "[]", "{}"));
    /* A cause and its knock-on: the knock-on's pattern is longer (it would score higher). */
    add_record(f->dir, "chain/cause",
        strdup("{\"id\": \"chain/cause\", \"signature\": \"s\", \"regex\": \"toolchain file is "
               "missing here\", \"domain\": \"chain\", \"category\": \"build_error\", "
               "\"root_cause\": \"c\", \"dead_ends\": [], \"workarounds\": [], "
               "\"transition_graph\": {\"leads_to\": [\"chain/knock-on\"]}, "
               "\"verification_tier\": \"ai_generated\", \"confidence\": 0.5, "
               "\"fix_success_rate\": 0.5, \"resolvable\": \"yes\"}"));
    add_record(f->dir, "chain/knock-on",
        test_record("chain/knock-on", "the make program variable is not set at all, so nothing "
                    "builds", "set it", 0.9, "[]", "{}"));
    /* A capture only one alternative of the pattern has. */
    add_record(f->dir, "test/alt-capture",
        test_record("test/alt-capture", "(?:listener on port (?P<port>\\\\d+) is busy|listener "
                    "port is busy here)", "ss -ltnp 'sport = :{port}'", 0.5, "[]", "{}"));
    /* Chinese dead ends and workarounds, with a capture to fill in both. */
    add_record(f->dir, "test/zh-items",
        strdup("{\"id\": \"test/zh-items\", \"signature\": \"zh items X\", \"regex\": "
               "\"zh items check: (?P<pkg>[a-z]+) failed\", \"domain\": \"test\", \"category\": "
               "\"runtime_error\", \"root_cause\": \"c\", \"dead_ends\": [{\"action\": "
               "\"retry {pkg}\", \"why_fails\": \"same input\", \"fail_rate\": 0.9, "
               "\"condition\": \"\", \"sources\": []}], \"dead_ends_zh\": [\"重试 {pkg}：输入不变\"], "
               "\"workarounds\": [{\"action\": \"pin {pkg}\", \"success_rate\": 0.8, \"how\": "
               "\"\", \"condition\": \"\", \"sources\": []}], \"workarounds_zh\": [\"固定 {pkg} "
               "的版本\"], \"verification_tier\": \"ai_generated\", \"confidence\": 0.5, "
               "\"fix_success_rate\": 0.5, \"resolvable\": \"yes\"}"));
    fixture_open(f);
    *state = f;
    return 0;
}

static errata_result *lookup(kb_fixture *f, const char *text, size_t len)
{
    errata_result *res = NULL;
    errata_error err = {0};
    errata_code rc = errata_lookup(f->db, text, len, NULL, &res, &err);
    if (rc != ERRATA_OK)
        fail_msg("lookup failed: %s", err.message);
    return res;
}

static const char *top_id(const errata_result *res)
{
    assert_true(errata_result_count(res) > 0);
    return errata_record_id(errata_match_record(errata_result_match(res, 0)));
}

static void seed_signature_finds_the_seed(void **state)
{
    kb_fixture *f = *state;
    errata_result *res = lookup(f, SEED_MSG, strlen(SEED_MSG));
    assert_int_equal(errata_result_count(res), 1);
    assert_string_equal(top_id(res), SEED_ID);
    const errata_match *m = errata_result_match(res, 0);
    assert_int_equal(errata_match_line(m), 1);
    assert_string_equal(errata_match_text(m), SEED_MSG);

    char *json = errata_result_render(res, ERRATA_FORMAT_JSON, NULL);
    json_error_t e;
    json_t *j = json_loads(json, 0, &e);
    assert_non_null(j);
    assert_true(json_is_true(json_object_get(j, "matched")));
    json_t *first = json_array_get(json_object_get(j, "matches"), 0);
    assert_string_equal(json_string_value(json_object_get(first, "id")), SEED_ID);
    json_t *work = json_object_get(json_object_get(first, "record"), "workarounds");
    assert_int_equal(json_array_size(work), 3);
    json_decref(j);
    free(json);

    char *text = errata_result_render(res, ERRATA_FORMAT_TEXT, NULL);
    assert_non_null(strstr(text, SEED_ID));
    /* Workarounds best first: the seed lists them 85 %, 90 %, 95 %. */
    const char *t1 = strstr(text, "TRY 1 (works 95%)"), *t3 = strstr(text, "TRY 3 (works 85%)");
    assert_non_null(t1);
    assert_non_null(t3);
    assert_true(t1 < t3);
    assert_non_null(strstr(text, "AVOID (fails 95%) The issue is not about optimization mode"));
    assert_non_null(strstr(text, "transformers>=4.38.0"));
    assert_null(strstr(text, "\033[")); /* no colour unless asked */
    free(text);
    errata_result_free(res);
}

static void the_error_inside_a_trace_is_found(void **state)
{
    kb_fixture *f = *state;
    const char *trace =
        "Traceback (most recent call last):\n"
        "  File \"/home/user/train.py\", line 42, in <module>\n"
        "    model = torch.compile(model)\n"
        "  File \"/usr/lib/python3/site-packages/peft/peft_model.py\", line 310, in forward\n"
        "    raise RuntimeError(msg)\n"
        "\033[31m" SEED_MSG "\033[0m\r\n";
    errata_result *res = lookup(f, trace, strlen(trace));
    assert_string_equal(top_id(res), SEED_ID);
    assert_int_equal(errata_match_line(errata_result_match(res, 0)), 6);
    errata_result_free(res);
}

static void chinese_output_uses_chinese_fields(void **state)
{
    kb_fixture *f = *state;
    errata_result *res = lookup(f, SEED_MSG, strlen(SEED_MSG));
    errata_render_options zh = {.lang = ERRATA_LANG_ZH};
    char *text = errata_result_render(res, ERRATA_FORMAT_TEXT, &zh);
    assert_non_null(strstr(text, "运行时错误"));
    assert_non_null(strstr(text, "根本原因"));
    free(text);
    errata_result_free(res);
}

/* A placeholder whose group did not take part (another alternative matched) reads as a hole to
 * fill, PORT, never as "{port}"; it is not reported as something the input said. */
static void an_unset_capture_reads_as_a_hole(void **state)
{
    kb_fixture *f = *state;
    const char *with = "listener on port 8080 is busy", *without = "listener port is busy here";
    errata_result *res = lookup(f, with, strlen(with));
    char *text = errata_result_render(res, ERRATA_FORMAT_TEXT, NULL);
    assert_non_null(strstr(text, "ss -ltnp 'sport = :8080'"));
    free(text);
    errata_result_free(res);
    res = lookup(f, without, strlen(without));
    assert_string_equal(top_id(res), "test/alt-capture");
    text = errata_result_render(res, ERRATA_FORMAT_TEXT, NULL);
    assert_non_null(strstr(text, "ss -ltnp 'sport = :PORT'"));
    assert_null(strstr(text, "{port}"));
    free(text);
    assert_null(errata_match_capture(errata_result_match(res, 0), "port"));
    char *json = errata_result_render(res, ERRATA_FORMAT_JSON, NULL);
    assert_non_null(strstr(json, "\"captures\":{}"));
    assert_non_null(strstr(json, "sport = :PORT"));
    free(json);
    errata_result_free(res);
}

static void a_cause_ranks_above_its_knock_on(void **state)
{
    kb_fixture *f = *state;
    const char *log = "configuring\ntoolchain file is missing here\n"
                      "the make program variable is not set at all, so nothing builds\n";
    errata_result *res = lookup(f, log, strlen(log));
    assert_string_equal(top_id(res), "chain/cause");
    const errata_match *top = errata_result_match(res, 0), *next = errata_result_match(res, 1);
    assert_non_null(next);
    assert_string_equal(errata_record_id(errata_match_record(next)), "chain/knock-on");
    assert_true(errata_match_score(next) > errata_match_score(top)); /* moved, not rescored */
    assert_ptr_equal(top->parts.cause_of, next->rec);
    assert_int_equal(top->parts.cause_of_line, 3);
    char *text = errata_result_render(res, ERRATA_FORMAT_TEXT, NULL);
    assert_non_null(strstr(text, "This is the cause of chain/knock-on (line 3)"));
    free(text);
    char *json = errata_result_render(res, ERRATA_FORMAT_JSON, NULL);
    assert_non_null(strstr(json, "\"cause_of\":{\"id\":\"chain/knock-on\",\"line\":3}"));
    free(json);
    errata_result_free(res);
    /* Alone, the knock-on is the answer. */
    const char *alone = "the make program variable is not set at all, so nothing builds\n";
    res = lookup(f, alone, strlen(alone));
    assert_string_equal(top_id(res), "chain/knock-on");
    assert_null(errata_result_match(res, 0)->parts.cause_of);
    errata_result_free(res);
}

static void chinese_dead_ends_are_chinese_and_filled(void **state)
{
    kb_fixture *f = *state;
    const char *msg = "zh items check: numpy failed";
    errata_result *res = lookup(f, msg, strlen(msg));
    assert_string_equal(top_id(res), "test/zh-items");
    errata_render_options zh = {.lang = ERRATA_LANG_ZH};
    char *outputs[] = {errata_result_render(res, ERRATA_FORMAT_TEXT, &zh),
                       errata_result_render(res, ERRATA_FORMAT_MARKDOWN, &zh)};
    for (int i = 0; i < 2; i++) {
        assert_non_null(strstr(outputs[i], "重试 numpy：输入不变"));
        assert_non_null(strstr(outputs[i], "固定 numpy 的版本"));
        assert_non_null(strstr(outputs[i], "避免"));
        assert_null(strstr(outputs[i], "AVOID"));
        assert_null(strstr(outputs[i], "retry numpy"));
        free(outputs[i]);
    }
    char *json = errata_result_render(res, ERRATA_FORMAT_JSON, NULL);
    assert_non_null(strstr(json, "\"dead_ends_zh\":[\"重试 numpy：输入不变\"]"));
    free(json);
    errata_result_free(res);
}

static void captures_fill_the_answer(void **state)
{
    kb_fixture *f = *state;
    const char *msg = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n"
                      "ModuleNotFoundError: No module named 'torch'\n";
    errata_result *res = lookup(f, msg, strlen(msg));
    assert_string_equal(top_id(res), "python/no-module");
    const errata_match *m = errata_result_match(res, 0);
    assert_string_equal(errata_match_capture(m, "module"), "torch");
    assert_null(errata_match_capture(m, "nothing"));
    char *text = errata_result_render(res, ERRATA_FORMAT_TEXT, NULL);
    assert_non_null(strstr(text, "pip install torch"));
    assert_non_null(strstr(text, "reinstall torch"));
    assert_null(strstr(text, "{module}"));
    free(text);
    char *json = errata_result_render(res, ERRATA_FORMAT_JSON, NULL);
    assert_non_null(strstr(json, "pip install torch"));
    assert_non_null(strstr(json, "\"module\":\"torch\""));
    /* The answer's record is the record with exactly its dead ends and workarounds filled in
     * (the JSON is written from the stored text: compare it with the record model). */
    json_t *answer = json_loads(json, 0, NULL);
    json_t *got = json_object_get(json_array_get(json_object_get(answer, "matches"), 0), "record");
    json_t *want = record_to_json(m->rec);
    const char *lists[] = {"dead_ends", "workarounds"};
    const char *keys[] = {"action", "why_fails", "how", "condition"};
    for (int l = 0; l < 2; l++) {
        json_t *arr = json_object_get(want, lists[l]);
        for (size_t i = 0; i < json_array_size(arr); i++)
            for (int k = 0; k < 4; k++) {
                json_t *v = json_object_get(json_array_get(arr, i), keys[k]);
                if (!json_is_string(v))
                    continue;
                char *f = fill_placeholders(json_string_value(v), m->caps, m->n_caps);
                json_object_set_new(json_array_get(arr, i), keys[k], json_string(f));
                free(f);
            }
    }
    assert_true(json_equal(got, want));
    json_decref(want);
    json_decref(answer);
    free(json);
    errata_result_free(res);
}

static void the_more_specific_pattern_ranks_first(void **state)
{
    kb_fixture *f = *state;
    const char *msg = "psql: error: connection refused to db:5432";
    errata_result *res = lookup(f, msg, strlen(msg));
    assert_int_equal(errata_result_count(res), 2);
    /* Despite its lower confidence, the longer literal match wins. */
    assert_string_equal(top_id(res), "net/refused-db");
    assert_true(errata_match_score(errata_result_match(res, 0)) >
                errata_match_score(errata_result_match(res, 1)));
    char *text = errata_result_render(res, ERRATA_FORMAT_TEXT, NULL);
    assert_non_null(strstr(text, "start the database on port 5432"));
    free(text);
    errata_result_free(res);
}

static void no_match_is_not_an_error(void **state)
{
    kb_fixture *f = *state;
    const char *msg = "everything is fine, build succeeded";
    errata_result *res = lookup(f, msg, strlen(msg));
    assert_int_equal(errata_result_count(res), 0);
    char *text = errata_result_render(res, ERRATA_FORMAT_TEXT, NULL);
    assert_non_null(strstr(text, "No known error matched"));
    free(text);
    char *json = errata_result_render(res, ERRATA_FORMAT_JSON, NULL);
    assert_non_null(strstr(json, "\"matched\":false"));
    free(json);
    errata_result_free(res);
}

static void empty_input_is_refused(void **state)
{
    kb_fixture *f = *state;
    errata_result *res = NULL;
    errata_error err = {0};
    assert_int_equal(errata_lookup(f->db, "", 0, NULL, &res, &err), ERRATA_ERR_ARG);
    assert_non_null(strstr(err.message, "empty"));
    assert_int_equal(errata_lookup(f->db, " \n\t\r\n\033[0m", 10, NULL, &res, &err),
                     ERRATA_ERR_ARG);
    assert_null(res);
}

static void invalid_utf8_and_nul_bytes_are_repaired(void **state)
{
    kb_fixture *f = *state;
    const char bytes[] = "\xff\xfe\xc3(\x00garbage\xed\xa0\x80\n" SEED_MSG "\xc3";
    errata_result *res = lookup(f, bytes, sizeof bytes - 1);
    assert_string_equal(top_id(res), SEED_ID);
    assert_int_equal(errata_match_line(errata_result_match(res, 0)), 2);
    char *json = errata_result_render(res, ERRATA_FORMAT_JSON, NULL);
    json_error_t e;
    json_t *j = json_loads(json, 0, &e); /* the output is valid UTF-8 JSON */
    assert_non_null(j);
    json_decref(j);
    free(json);
    errata_result_free(res);
}

static void fifty_megabytes_are_scanned(void **state)
{
    kb_fixture *f = *state;
    size_t line = 100, lines = 500000;
    size_t len = line * lines + strlen(SEED_MSG) + 1;
    char *big = malloc(len + 1);
    for (size_t i = 0; i < lines; i++) {
        memset(big + i * line, 'x', line - 1);
        big[i * line + line - 1] = '\n';
    }
    strcpy(big + line * lines, SEED_MSG "\n");
    errata_result *res = lookup(f, big, len);
    assert_string_equal(top_id(res), SEED_ID);
    assert_int_equal(errata_match_line(errata_result_match(res, 0)), lines + 1);
    errata_result_free(res);

    errata_lookup_options small = {.max_input = 1024 * 1024};
    errata_error err = {0};
    assert_int_equal(errata_lookup(f->db, big, len, &small, &res, &err), ERRATA_ERR_TOO_BIG);
    assert_non_null(strstr(err.message, "limit"));
    free(big);
}

static void hostile_pattern_gives_up_and_says_so(void **state)
{
    kb_fixture *f = *state;
    char msg[200] = "hostile pattern: ";
    memset(msg + strlen(msg), 'a', 40);
    strcat(msg, "! b");
    errata_result *res = lookup(f, msg, strlen(msg));
    assert_int_equal(errata_result_count(res), 0);
    char *text = errata_result_render(res, ERRATA_FORMAT_TEXT, NULL);
    assert_non_null(strstr(text, "test/hostile"));
    assert_non_null(strstr(text, "match limit"));
    free(text);
    errata_result_free(res);
}

static void no_pattern_match_falls_back_to_marked_guesses(void **state)
{
    kb_fixture *f = *state;
    const char *para = "torch compile keeps failing with my PEFT model when adapters change";
    errata_result *res = lookup(f, para, strlen(para));
    assert_int_equal(errata_result_count(res), 1);
    const errata_match *m = errata_result_match(res, 0);
    assert_true(errata_match_is_fuzzy(m));
    assert_string_equal(top_id(res), SEED_ID);
    char *text = errata_result_render(res, ERRATA_FORMAT_TEXT, NULL);
    /* Guesses are said to be guesses, and not headed by "nothing matched". */
    assert_null(strstr(text, "No known error matched"));
    assert_non_null(strstr(text, "Guesses: no record's pattern matched"));
    free(text);
    char *json = errata_result_render(res, ERRATA_FORMAT_JSON, NULL);
    assert_non_null(strstr(json, "\"match\":\"fuzzy\""));
    assert_non_null(strstr(json, "\"matched\":false"));
    free(json);
    errata_result_free(res);

    /* Chinese words find the record through its Chinese texts. */
    const char *zh = "PEFT模型与动态适配器不兼容";
    res = lookup(f, zh, strlen(zh));
    assert_int_equal(errata_result_count(res), 1);
    assert_string_equal(top_id(res), SEED_ID);
    errata_result_free(res);

    /* A long log without an error line gets no guess, even with related words in it. */
    const char *log = "compiling peft adapters\nloading torch model\ncompile step done\n"
                      "dynamic adapters ready\nall good\n";
    res = lookup(f, log, strlen(log));
    assert_int_equal(errata_result_count(res), 0);
    errata_result_free(res);

    /* Free-text search returns every hit, marked fuzzy. */
    errata_error err = {0};
    assert_int_equal(errata_search(f->db, "PEFT adapters", 13, 0, &res, &err), ERRATA_OK);
    assert_string_equal(top_id(res), SEED_ID);
    assert_true(errata_match_is_fuzzy(errata_result_match(res, 0)));
    errata_result_free(res);
    assert_int_equal(errata_search(f->db, "  ", 2, 0, &res, &err), ERRATA_ERR_ARG);
}

static void non_ascii_text_matches_in_every_scan_mode(void **state)
{
    kb_fixture *f = *state;
    const char *a = "unicode check: 'café 中文' done";
    errata_result *res = lookup(f, a, strlen(a));
    assert_string_equal(top_id(res), "test/bytes-unbounded");
    errata_result_free(res);
    const char *b = "unicode single: aéb done here"; /* one character, two bytes */
    res = lookup(f, b, strlen(b));
    assert_string_equal(top_id(res), "test/bytes-single");
    errata_result_free(res);
    const char *c = "UNICODE CHECK: 'X' DONE";       /* case-insensitive in byte mode too */
    res = lookup(f, c, strlen(c));
    assert_string_equal(top_id(res), "test/bytes-unbounded");
    errata_result_free(res);
}
/* One format enum for every renderer: each function takes the formats it writes and refuses
 * the rest plainly, never by writing another format. */
static void each_renderer_refuses_a_format_it_does_not_write(void **state)
{
    kb_fixture *f = *state;
    const char *msg = "zh items check: numpy failed";
    errata_result *res = lookup(f, msg, strlen(msg));
    assert_null(errata_result_render(res, ERRATA_FORMAT_SARIF, NULL));
    assert_null(errata_record_render(errata_match_record(errata_result_match(res, 0)),
                                     ERRATA_FORMAT_SARIF, NULL));
    const errata_format writes[] = {ERRATA_FORMAT_TEXT, ERRATA_FORMAT_JSON, ERRATA_FORMAT_MARKDOWN,
                                    ERRATA_FORMAT_HTML};
    for (size_t i = 0; i < sizeof writes / sizeof *writes; i++) {
        char *s = errata_result_render(res, writes[i], NULL);
        assert_non_null(s);
        assert_true(strlen(s) > 0);
        free(s);
    }
    errata_result_free(res);
    char *out = NULL;
    errata_error err;
    assert_int_equal(errata_stats(f->db, ERRATA_FORMAT_TEXT, NULL, &out, &err), ERRATA_ERR_ARG);
    assert_null(out);
    assert_int_equal(errata_domains(f->db, ERRATA_FORMAT_SARIF, NULL, &out, &err), ERRATA_ERR_ARG);
    assert_int_equal(errata_stats(f->db, ERRATA_FORMAT_JSON, NULL, &out, &err), ERRATA_OK);
    assert_non_null(strstr(out, "records"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_signature_finds_the_seed),
        cmocka_unit_test(the_error_inside_a_trace_is_found),
        cmocka_unit_test(chinese_output_uses_chinese_fields),
        cmocka_unit_test(chinese_dead_ends_are_chinese_and_filled),
        cmocka_unit_test(a_cause_ranks_above_its_knock_on),
        cmocka_unit_test(an_unset_capture_reads_as_a_hole),
        cmocka_unit_test(captures_fill_the_answer),
        cmocka_unit_test(the_more_specific_pattern_ranks_first),
        cmocka_unit_test(no_match_is_not_an_error),
        cmocka_unit_test(empty_input_is_refused),
        cmocka_unit_test(invalid_utf8_and_nul_bytes_are_repaired),
        cmocka_unit_test(fifty_megabytes_are_scanned),
        cmocka_unit_test(hostile_pattern_gives_up_and_says_so),
        cmocka_unit_test(no_pattern_match_falls_back_to_marked_guesses),
        cmocka_unit_test(non_ascii_text_matches_in_every_scan_mode),
        cmocka_unit_test(each_renderer_refuses_a_format_it_does_not_write),
    };
    return cmocka_run_group_tests(tests, setup, fixture_teardown);
}
