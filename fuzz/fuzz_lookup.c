/*
 * fuzz_lookup.c — any bytes pasted as error text: errata_lookup with default options (and once
 * more with an environment, so that the applicability checks and version comparisons run), the
 * answer rendered in every errata_format, and errata_search on the same bytes. This is the path
 * every surface takes with text from the user: normalising, the Hyperscan scan, PCRE2 confirm,
 * ranking, the full-text guess, and rendering captures into texts.
 *
 * Properties: each call succeeds or fails with a message; every match has a record, a text and
 * (unless it is a full-text guess) a line from 1; the text, JSON, Markdown and HTML renderings
 * exist, the JSON one is a JSON object, and SARIF (for errata_check only) is refused with NULL.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "fuzz.h"

/* Renders res in every format; opts alternates between the calls to keep each input cheap. */
static void check_render(const errata_result *res, const errata_render_options *opts)
{
    for (int f = ERRATA_FORMAT_TEXT; f <= ERRATA_FORMAT_SARIF; f++) {
        char *out = errata_result_render(res, (errata_format)f, opts);
        if (f == ERRATA_FORMAT_SARIF) {
            if (out)
                fuzz_fail("a lookup result was rendered as SARIF");
            continue;
        }
        if (!out)
            fuzz_fail("rendering in format %d failed", f);
        if (f == ERRATA_FORMAT_JSON) {
            json_t *j = json_loads(out, 0, NULL);
            if (!json_is_object(j))
                fuzz_fail("the JSON rendering is not a JSON object: %.200s", out);
            json_decref(j);
        }
        free(out);
    }
}

static void check_result(const errata_result *res, const errata_render_options *opts)
{
    for (size_t i = 0; i < errata_result_count(res); i++) {
        const errata_match *m = errata_result_match(res, i);
        const char *reason = NULL;
        /* A full-text guess matched no line: its line is 0. */
        if (!m || !errata_match_record(m) || !errata_match_text(m) ||
            (!errata_match_is_fuzzy(m) && errata_match_line(m) < 1) ||
            !isfinite(errata_match_score(m)))
            fuzz_fail("match %zu is incomplete", i);
        errata_match_applicability(m, &reason);
        if (!reason)
            fuzz_fail("match %zu gives no applicability reason", i);
        (void)errata_match_capture(m, "module");
    }
    check_render(res, opts);
}

static const errata_render_options PLAIN = {0};
static const errata_render_options FULL = {ERRATA_LANG_ZH, 1, 1, "/records/", "/domains/", "?lang=zh", 0};

static void lookup(const uint8_t *data, size_t size, const errata_lookup_options *opts,
                   const errata_render_options *render)
{
    errata_result *res = NULL;
    errata_error err = {0};
    if (errata_lookup(fuzz_db(), (const char *)data, size, opts, &res, &err) != ERRATA_OK) {
        if (!err.message[0])
            fuzz_fail("a failed lookup says nothing (code %d)", err.code);
        return;
    }
    check_result(res, render);
    errata_result_free(res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lookup(data, size, NULL, &PLAIN);
    errata_lookup_options with_env = {.env = fuzz_env()};
    lookup(data, size, &with_env, &FULL);

    errata_result *res = NULL;
    errata_error err = {0};
    if (errata_search(fuzz_db(), (const char *)data, size, 0, &res, &err) == ERRATA_OK) {
        check_result(res, &PLAIN);
        errata_result_free(res);
    } else if (!err.message[0]) {
        fuzz_fail("a failed search says nothing (code %d)", err.code);
    }
    return 0;
}
