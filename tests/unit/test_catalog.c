/*
 * test_catalog.c — what a knowledge base says about itself (index/catalog.c: domains, a
 * domain's records, statistics, the error chain), full-text search (match/search.c) and the
 * four renderers (render/), on a small index built for the test.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static char *linked(const char *id, const char *regex, const char *root_cause,
                    const char *leads_to)
{
    char *s = NULL;
    if (asprintf(&s,
                 "{\"id\": \"%s\", \"signature\": \"sig of %s <b>\", \"regex\": \"%s\", "
                 "\"domain\": \"%.*s\", \"category\": \"runtime_error\", \"root_cause\": \"%s\", "
                 "\"dead_ends\": [{\"action\": \"reinstall it\", \"why_fails\": \"same files\", "
                 "\"fail_rate\": 0.9, \"condition\": \"\", \"sources\": []}], "
                 "\"workarounds\": [{\"action\": \"pin the version\", \"success_rate\": 0.8, "
                 "\"how\": \"pip install 'x<2'\", \"condition\": \"\", \"sources\": "
                 "[\"https://example.org/doc\"]}], \"transition_graph\": {\"leads_to\": [%s]}, "
                 "\"verification_tier\": \"reproduced\", \"confidence\": 0.8, "
                 "\"fix_success_rate\": 0.8, \"resolvable\": \"yes\"}",
                 id, id, regex, (int)strcspn(id, "/"), id, root_cause, leads_to) < 0)
        return NULL;
    return s;
}

static int setup(void **state)
{
    kb_fixture *f = fixture_new();
    add_record(f->dir, "alpha/first", linked("alpha/first", "alpha first failure here",
                                             "the zeppelin cache is stale", "\"alpha/second\""));
    add_record(f->dir, "alpha/second", linked("alpha/second", "alpha second failure here",
                                              "a lock is held", "\"beta/third\""));
    add_record(f->dir, "beta/third", linked("beta/third", "beta third failure here",
                                            "the disk is full", ""));
    fixture_open(f);
    *state = f;
    return 0;
}

static json_t *parsed(char *s)
{
    json_t *j = json_loads(s, 0, NULL);
    free(s);
    assert_non_null(j);
    return j;
}

static void stats_count_records_domains_and_edges(void **state)
{
    kb_fixture *f = *state;
    char *out = NULL;
    errata_error err;
    assert_int_equal(errata_stats(f->db, ERRATA_FORMAT_JSON, NULL, &out, &err), ERRATA_OK);
    json_t *j = parsed(out);
    assert_int_equal(json_integer_value(json_object_get(j, "records")), 3);
    char *text = json_dumps(j, 0);
    assert_non_null(strstr(text, "\"alpha\""));
    assert_non_null(strstr(text, "\"beta\""));
    free(text);
    json_decref(j);
}

static void domains_and_their_records(void **state)
{
    kb_fixture *f = *state;
    char *out = NULL;
    errata_error err;
    assert_int_equal(errata_domain_records(f->db, "alpha", ERRATA_FORMAT_JSON, NULL, &out, &err),
                     ERRATA_OK);
    assert_non_null(strstr(out, "alpha/first"));
    assert_non_null(strstr(out, "alpha/second"));
    assert_null(strstr(out, "beta/third"));
    free(out);
    out = NULL;
    assert_int_equal(errata_domain_records(f->db, "gamma", ERRATA_FORMAT_JSON, NULL, &out, &err),
                     ERRATA_ERR_NOT_FOUND);
    assert_null(out);
    assert_int_equal(errata_domains(f->db, ERRATA_FORMAT_MARKDOWN, NULL, &out, &err), ERRATA_OK);
    assert_non_null(strstr(out, "alpha"));
    free(out);
}

static void the_chain_follows_edges_to_its_depth(void **state)
{
    kb_fixture *f = *state;
    char *out = NULL;
    errata_error err;
    assert_int_equal(errata_chain(f->db, "alpha/first", 1, ERRATA_FORMAT_JSON, NULL, &out, &err),
                     ERRATA_OK);
    assert_non_null(strstr(out, "alpha/second"));
    assert_null(strstr(out, "beta/third")); /* two steps away */
    free(out);
    assert_int_equal(errata_chain(f->db, "alpha/first", 2, ERRATA_FORMAT_JSON, NULL, &out, &err),
                     ERRATA_OK);
    assert_non_null(strstr(out, "beta/third"));
    free(out);
    out = NULL;
    assert_int_equal(errata_chain(f->db, "no/such", 1, ERRATA_FORMAT_JSON, NULL, &out, &err),
                     ERRATA_ERR_NOT_FOUND);
}

static void search_finds_by_words_and_refuses_an_empty_query(void **state)
{
    kb_fixture *f = *state;
    errata_result *res = NULL;
    errata_error err;
    assert_int_equal(errata_search(f->db, "zeppelin", 8, 5, &res, &err), ERRATA_OK);
    assert_int_equal(errata_result_count(res), 1);
    assert_string_equal(errata_record_id(errata_match_record(errata_result_match(res, 0))),
                        "alpha/first");
    errata_result_free(res);
    assert_int_equal(errata_search(f->db, "  \n", 3, 5, &res, &err), ERRATA_ERR_ARG);
    assert_null(res);
}

static void every_renderer_says_what_to_avoid_and_escapes_html(void **state)
{
    kb_fixture *f = *state;
    const char *text = "log line\nalpha first failure here\n";
    errata_result *res = NULL;
    errata_error err;
    assert_int_equal(errata_lookup(f->db, text, strlen(text), NULL, &res, &err), ERRATA_OK);
    char *t = errata_result_render(res, ERRATA_FORMAT_TEXT, NULL);
    char *md = errata_result_render(res, ERRATA_FORMAT_MARKDOWN, NULL);
    char *html = errata_result_render(res, ERRATA_FORMAT_HTML, NULL);
    json_t *j = parsed(errata_result_render(res, ERRATA_FORMAT_JSON, NULL));
    assert_non_null(strstr(t, "AVOID"));
    assert_non_null(strstr(t, "reinstall it"));
    assert_non_null(strstr(t, "pin the version"));
    assert_non_null(strstr(md, "reinstall it"));
    assert_non_null(strstr(html, "&lt;b&gt;"));
    assert_null(strstr(html, "<b>"));
    assert_true(json_is_true(json_object_get(j, "matched")));
    free(t), free(md), free(html);
    json_decref(j);
    errata_result_free(res);
}

/* On the web pages: an answer links to its record's page, a search lists its hits as links,
 * both in the page's language; and the pages' own words exist in both languages. */
static void html_answers_and_hits_link_to_record_pages(void **state)
{
    kb_fixture *f = *state;
    const char *text = "alpha first failure here\n";
    errata_result *res = NULL;
    errata_error err;
    errata_render_options ro = {.link_prefix = "/records/", .link_suffix = "?lang=zh"};
    assert_int_equal(errata_lookup(f->db, text, strlen(text), NULL, &res, &err), ERRATA_OK);
    char *html = errata_result_render(res, ERRATA_FORMAT_HTML, &ro);
    assert_non_null(strstr(html, "<h2 class=\"record-id\"><a href=\"/records/alpha/first?lang=zh\">"));
    assert_non_null(strstr(html, "<p class=\"record-page\"><a href=\"/records/alpha/first?lang=zh\">"));
    free(html);
    errata_result_free(res);

    assert_int_equal(errata_search(f->db, "zeppelin", 8, 5, &res, &err), ERRATA_OK);
    ro.search = 1;
    html = errata_result_render(res, ERRATA_FORMAT_HTML, &ro);
    assert_non_null(strstr(html, "<ol class=\"hits\"><li><a href=\"/records/alpha/first?lang=zh\">"));
    assert_non_null(strstr(html, "sig of alpha/first &lt;b&gt;"));
    assert_null(strstr(html, "Guesses"));
    free(html);
    errata_result_free(res);
    assert_int_equal(errata_search(f->db, "qqqqxxxx", 8, 5, &res, &err), ERRATA_OK);
    html = errata_result_render(res, ERRATA_FORMAT_HTML, &ro);
    assert_non_null(strstr(html, "No record contains these words."));
    free(html);
    errata_result_free(res);

    const errata_page_words *en = errata_web_words(ERRATA_LANG_EN), *zh = errata_web_words(ERRATA_LANG_ZH);
    assert_string_equal(en->nav_search, "Search");
    assert_string_equal(zh->nav_search, "搜索");
    assert_non_null(strstr(en->contribute, "docs/format.md"));
    assert_non_null(strstr(zh->contribute, "docs/format.md"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stats_count_records_domains_and_edges),
        cmocka_unit_test(domains_and_their_records),
        cmocka_unit_test(the_chain_follows_edges_to_its_depth),
        cmocka_unit_test(search_finds_by_words_and_refuses_an_empty_query),
        cmocka_unit_test(every_renderer_says_what_to_avoid_and_escapes_html),
        cmocka_unit_test(html_answers_and_hits_link_to_record_pages),
    };
    return cmocka_run_group_tests(tests, setup, fixture_teardown);
}
