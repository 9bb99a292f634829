/*
 * test_record.c — the record model: every seed field parsed, the round trip, and structural
 * errors reported with their field paths.
 */
#include <string.h>

#include "helpers.h"
#include "record.h"

static record *parse(const char *text, errata_diags *d)
{
    parse_ctx ctx = {d, "mem.json", 0};
    return record_parse_text(text, strlen(text), &ctx);
}

/* A record that got into an index without validation (built before the http(s) rule, or by
 * another tool) still never turns a javascript: URL into a link on the web page. */
static void html_links_only_http_urls(void **state)
{
    (void)state;
    const char *text =
        "{\"id\": \"x/y\", \"signature\": \"s\", \"regex\": \"some literal text here\", "
        "\"domain\": \"x\", \"category\": \"c\", \"root_cause\": \"r\", \"dead_ends\": [], "
        "\"workarounds\": [{\"action\": \"a\", \"success_rate\": 0.5, \"how\": \"\", "
        "\"condition\": \"\", \"sources\": [\"javascript:alert(2)\", \"https://ok.example/doc\"]}], "
        "\"official_doc_url\": \"javascript:alert(1)\", \"verification_tier\": \"ai_generated\", "
        "\"confidence\": 0.5, \"fix_success_rate\": 0.5, \"resolvable\": \"yes\"}";
    errata_diags *d = diags_new();
    record *r = parse(text, d);
    assert_non_null(r);
    char *html = errata_record_render(r, ERRATA_FORMAT_HTML, NULL);
    assert_null(strstr(html, "href=\"javascript:"));
    assert_non_null(strstr(html, "javascript:alert(1)")); /* shown as text */
    assert_non_null(strstr(html, "href=\"https://ok.example/doc\""));
    free(html);
    record_free(r);
    errata_diags_free(d);
}

/* The chain picture on a record page: the records before and after as links (in the page's
 * language), the record itself not a link, every id escaped, long ones cut; and without a link
 * prefix a picture without links. */
static void html_chain_picture_links_neighbours_and_escapes(void **state)
{
    (void)state;
    const char *text =
        "{\"id\": \"x/y\", \"signature\": \"s\", \"regex\": \"some literal text here\", "
        "\"domain\": \"x\", \"category\": \"c\", \"root_cause\": \"r\", \"dead_ends\": [], "
        "\"workarounds\": [], \"transition_graph\": {\"preceded_by\": [\"a/<i>before</i>\"], "
        "\"leads_to\": [{\"id\": \"b/after\", \"probability\": 0.5}, "
        "\"c/a-very-long-slug-that-goes-on-and-on-past-what-the-node-can-hold-at-all\"]}, "
        "\"verification_tier\": \"ai_generated\", \"confidence\": 0.5, "
        "\"fix_success_rate\": 0.5, \"resolvable\": \"yes\"}";
    errata_diags *d = diags_new();
    record *r = parse(text, d);
    assert_non_null(r);
    errata_render_options ro = {.link_prefix = "/records/", .link_suffix = "?lang=zh"};
    char *html = errata_record_render(r, ERRATA_FORMAT_HTML, &ro);
    char *svg = strstr(html, "<svg class=\"chain\"");
    assert_non_null(svg);
    assert_non_null(strstr(svg, "href=\"/records/b/after?lang=zh\""));
    assert_non_null(strstr(svg, "href=\"/records/a/&lt;i&gt;before&lt;/i&gt;?lang=zh\""));
    assert_null(strstr(html, "<i>"));
    assert_null(strstr(svg, "href=\"/records/x/y")); /* the record itself */
    assert_non_null(strstr(svg, "Often preceded by"));
    assert_non_null(strstr(svg, "Often leads to"));
    assert_non_null(strstr(svg, "a-very-long-slug-that-goes-on-and-on-past-wha…</text>"));
    assert_true(strstr(svg, "</svg>") != NULL);
    free(html);
    html = errata_record_render(r, ERRATA_FORMAT_HTML, NULL);
    svg = strstr(html, "<svg class=\"chain\"");
    assert_non_null(svg);
    assert_null(strstr(svg, "<a "));
    free(html);
    record_free(r);
    errata_diags_free(d);
}

static void seed_fields_are_parsed(void **state)
{
    (void)state;
    char *text = slurp(src_path("kb/huggingface/torch-compile-incompatible-with-peft.json"), NULL);
    errata_diags *d = diags_new();
    record *r = parse(text, d);
    assert_non_null(r);
    assert_int_equal(d->errors, 0);
    assert_string_equal(r->id, "huggingface/torch-compile-incompatible-with-peft");
    assert_string_equal(r->domain, "huggingface");
    assert_string_equal(r->category, "runtime_error");
    assert_null(r->subcategory);
    assert_string_equal(r->root_cause_type, "generic");
    assert_non_null(strstr(r->signature_zh, "PEFT"));
    assert_int_equal(r->n_versions, 3);
    assert_string_equal(r->versions[1].version, "peft>=0.9.0");
    assert_string_equal(r->versions[2].status, "active");
    assert_null(r->versions[0].introduced);
    assert_int_equal(r->n_os_specific, 0);
    assert_int_equal(r->n_dead_ends, 3);
    assert_string_equal(r->dead_ends[0].action, "");
    assert_true(r->dead_ends[1].fail_rate > 0.899 && r->dead_ends[1].fail_rate < 0.901);
    assert_int_equal(r->n_workarounds, 3);
    assert_true(r->workarounds[2].success_rate > 0.949);
    assert_int_equal(r->workarounds_zh.n, 3);
    for (int k = 0; k < EDGE_KINDS; k++)
        assert_int_equal(r->n_edges[k], 0);
    assert_string_equal(r->official_doc_url,
                        "https://huggingface.co/docs/peft/main/en/developer_guides/torch_compile");
    assert_null(r->official_doc_section);
    assert_null(r->error_code);
    assert_string_equal(r->verification_tier, "ai_generated");
    assert_true(r->confidence > 0.849 && r->confidence < 0.851);
    assert_string_equal(r->resolvable, "partial");
    assert_string_equal(r->first_seen, "2024-03-15");
    assert_string_equal(r->last_updated, "2024-06-01");
    assert_int_equal(r->evidence_count, 1);
    assert_string_equal(r->locale, "en");
    assert_false(r->has_examples);
    record_free(r);
    errata_diags_free(d);
    free(text);
}

static void assert_round_trip(const char *path)
{
    char *text = slurp(path, NULL);
    record *a = parse(text, NULL);
    assert_non_null(a);
    json_t *j = record_to_json(a);
    char *written = json_dumps(j, JSON_INDENT(2));
    json_decref(j);
    record *b = parse(written, NULL);
    assert_non_null(b);
    assert_true(record_equal(a, b));
    /* Writing is stable: the second write is byte-identical to the first. */
    json_t *j2 = record_to_json(b);
    char *written2 = json_dumps(j2, JSON_INDENT(2));
    json_decref(j2);
    assert_string_equal(written, written2);
    record_free(a), record_free(b);
    free(text), free(written), free(written2);
}

static void round_trip_seed(void **state)
{
    (void)state;
    assert_round_trip(src_path("kb/huggingface/torch-compile-incompatible-with-peft.json"));
}

static void round_trip_every_field(void **state)
{
    (void)state;
    assert_round_trip(src_path("tests/fixtures/records/valid/named-group-and-all-fields.json"));
    assert_round_trip(src_path("tests/fixtures/records/valid/edge-objects-with-probability.json"));
    assert_round_trip(src_path("tests/fixtures/records/valid/versions-all-statuses-and-os.json"));
    assert_round_trip(src_path("tests/fixtures/records/valid/dead-ends-zh.json"));
}

static void round_trip_detects_a_change(void **state)
{
    (void)state;
    char *t1 = seed_with("confidence", "0.5");
    char *t2 = seed_with("confidence", "0.6");
    record *a = parse(t1, NULL), *b = parse(t2, NULL);
    assert_false(record_equal(a, b));
    record_free(a), record_free(b);
    free(t1), free(t2);
}

static void errors_name_their_field(void **state)
{
    (void)state;
    struct {
        const char *key, *value, *field, *needle;
    } cases[] = {
        {"dead_ends",
         "[{\"action\":\"x\",\"why_fails\":\"y\",\"fail_rate\":1.7,\"condition\":\"\",\"sources\":[]}]",
         "dead_ends[0].fail_rate", "outside [0, 1]"},
        {"id", NULL, "id", "required field is missing"},
        {"versions", "{}", "versions", "must be an array"},
        {"confidence", "\"high\"", "confidence", "must be a number"},
        {"evidence_count", "-1", "evidence_count", "negative"},
        {"verification_tier", "\"guessed\"", "verification_tier", "is not one of"},
        {"first_seen", "\"15/03/2024\"", "first_seen", "YYYY-MM-DD"},
        {"workarounds",
         "[{\"action\":\"x\",\"success_rate\":0.5,\"condition\":\"\",\"sources\":[]}]",
         "workarounds[0].how", "required field is missing"},
        {"transition_graph", "{\"leads_to\":[{\"probability\":0.5}]}",
         "transition_graph.leads_to[0].id", "required"},
        {"os_specific", "{\"linux\": 3}", "os_specific.linux", "must be a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = seed_with(cases[i].key, cases[i].value);
        errata_diags *d = diags_new();
        record *r = parse(text, d);
        assert_null(r);
        if (!find_diag(d, ERRATA_SEV_ERROR, cases[i].field, cases[i].needle))
            fail_msg("case %zu: no error on %s", i, cases[i].field);
        errata_diags_free(d);
        free(text);
    }
}

static void syntax_errors_have_line_and_column(void **state)
{
    (void)state;
    errata_diags *d = diags_new();
    assert_null(parse("{\n  \"id\": \"a/b\",\n  \"signature\" \"x\"\n}", d));
    assert_int_equal(d->n, 1);
    assert_int_equal(d->items[0].line, 3);
    assert_true(d->items[0].col > 0);
    assert_non_null(strstr(d->items[0].message, "invalid JSON"));
    errata_diags_free(d);

    d = diags_new();
    assert_null(parse("{\"id\": \"a/b\", \"id\": \"c/d\"}", d));
    assert_non_null(strstr(d->items[0].message, "duplicate"));
    errata_diags_free(d);

    d = diags_new();
    assert_null(parse("[1, 2]", d));
    assert_non_null(find_diag(d, ERRATA_SEV_ERROR, "", "must be a JSON object"));
    errata_diags_free(d);
}

static void invalid_utf8_in_a_record_is_a_syntax_error(void **state)
{
    (void)state;
    errata_diags *d = diags_new();
    assert_null(parse("{\"id\": \"a/\xff\"}", d));
    assert_int_equal(d->errors, 1);
    assert_int_equal(d->items[0].line, 1);
    errata_diags_free(d);
}

static void unknown_field_is_a_warning(void **state)
{
    (void)state;
    char *text = seed_with("sigature", "\"typo\"");
    errata_diags *d = diags_new();
    record *r = parse(text, d);
    assert_non_null(r);
    assert_non_null(find_diag(d, ERRATA_SEV_WARNING, "sigature", "unknown field"));
    record_free(r);
    errata_diags_free(d);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_fields_are_parsed),
        cmocka_unit_test(html_links_only_http_urls),
        cmocka_unit_test(html_chain_picture_links_neighbours_and_escapes),
        cmocka_unit_test(round_trip_seed),
        cmocka_unit_test(round_trip_every_field),
        cmocka_unit_test(round_trip_detects_a_change),
        cmocka_unit_test(errors_name_their_field),
        cmocka_unit_test(syntax_errors_have_line_and_column),
        cmocka_unit_test(invalid_utf8_in_a_record_is_a_syntax_error),
        cmocka_unit_test(unknown_field_is_a_warning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
