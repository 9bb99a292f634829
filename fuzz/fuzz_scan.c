/*
 * fuzz_scan.c — any bytes as a log: errata_scan over the records of fuzz/kb/, fed whole and fed
 * in pieces whose sizes the input's first byte chooses, then rendered in every scan format.
 *
 * Properties: each call succeeds or fails with a message; every finding has a record, at least
 * one occurrence, lines with first ≤ line ≤ last ≤ the lines read and a context in UTF-8; how the input is cut into
 * pieces changes nothing (the same findings at the same lines, the same counts of bytes and
 * lines: the escape stripper, the prefilter's deferred positions and the windows carry across
 * pieces); the JSON and SARIF renderings parse, GitHub's has one command a finding.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static errata_scan *scan(const uint8_t *data, size_t size, size_t piece)
{
    errata_scan *s = NULL;
    errata_error err = {0};
    if (errata_scan_open(fuzz_db(), NULL, &s, &err) != ERRATA_OK)
        fuzz_fail("opening a scan failed: %s", err.message);
    for (size_t i = 0; i < size; i += piece) {
        size_t n = size - i < piece ? size - i : piece;
        if (errata_scan_feed(s, (const char *)data + i, n, &err) != ERRATA_OK) {
            if (!err.message[0])
                fuzz_fail("a failed feed says nothing");
            errata_scan_free(s);
            return NULL;
        }
    }
    if (errata_scan_finish(s, &err) != ERRATA_OK) {
        if (!err.message[0])
            fuzz_fail("a failed finish says nothing");
        errata_scan_free(s);
        return NULL;
    }
    return s;
}

static void check_findings(const errata_scan *s)
{
    for (size_t i = 0; i < errata_scan_findings(s); i++) {
        const errata_finding *f = errata_scan_finding(s, i);
        const errata_match *m = errata_finding_match(f);
        unsigned long long first = errata_finding_first_line(f), last = errata_finding_last_line(f);
        if (!m || !errata_match_record(m) || errata_finding_occurrences(f) < 1 || first < 1 ||
            first > errata_match_line(m) || errata_match_line(m) > last ||
            last > errata_scan_lines(s) + 1)
            fuzz_fail("finding %zu is inconsistent (lines %llu..%zu..%llu of %llu)", i, first,
                      m ? errata_match_line(m) : 0, last, errata_scan_lines(s));
        const char *ctx = errata_finding_context(f, NULL);
        if (!ctx || !errata_utf8_valid(ctx, strlen(ctx)))
            fuzz_fail("finding %zu has no context, or one that is not UTF-8", i);
    }
}

static void check_same(const errata_scan *a, const errata_scan *b, size_t piece)
{
    if (errata_scan_findings(a) != errata_scan_findings(b) ||
        errata_scan_bytes(a) != errata_scan_bytes(b) || errata_scan_lines(a) != errata_scan_lines(b))
        fuzz_fail("pieces of %zu bytes give %zu findings, %llu bytes, %llu lines; whole: %zu, %llu, %llu",
                  piece, errata_scan_findings(b), errata_scan_bytes(b), errata_scan_lines(b),
                  errata_scan_findings(a), errata_scan_bytes(a), errata_scan_lines(a));
    for (size_t i = 0; i < errata_scan_findings(a); i++) {
        const errata_match *x = errata_finding_match(errata_scan_finding(a, i));
        const errata_match *y = errata_finding_match(errata_scan_finding(b, i));
        if (strcmp(errata_record_id(errata_match_record(x)), errata_record_id(errata_match_record(y))) ||
            errata_match_line(x) != errata_match_line(y))
            fuzz_fail("finding %zu differs with pieces of %zu bytes", i, piece);
    }
}

static void check_render(const errata_scan *s)
{
    static const errata_format docs[] = {ERRATA_FORMAT_JSON, ERRATA_FORMAT_SARIF};
    for (size_t k = 0; k < 2; k++) {
        char *out = errata_scan_render(s, docs[k], "fuzz.log", NULL);
        json_t *j = out ? json_loads(out, 0, NULL) : NULL;
        if (!json_is_object(j))
            fuzz_fail("the %s rendering is not a JSON object: %.200s", k ? "SARIF" : "JSON",
                      out ? out : "(null)");
        json_decref(j);
        free(out);
    }
    char *gh = errata_scan_render(s, ERRATA_FORMAT_GITHUB, "fuzz.log", NULL);
    size_t lines = 0;
    for (const char *p = gh; p && *p; p++)
        lines += *p == '\n';
    if (!gh || lines != errata_scan_findings(s))
        fuzz_fail("%zu GitHub commands for %zu findings", lines, errata_scan_findings(s));
    free(gh);
    for (errata_format f = ERRATA_FORMAT_TEXT; f <= ERRATA_FORMAT_MARKDOWN; f++) {
        char *out = errata_scan_render(s, f, NULL, NULL);
        if (f != ERRATA_FORMAT_HTML && !out)
            fuzz_fail("rendering the scan in format %d failed", f);
        free(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t piece = size ? 1 + data[0] % 97 : 1;
    errata_scan *whole = scan(data, size, size ? size : 1);
    errata_scan *cut = scan(data, size, piece);
    if (!whole || !cut)
        fuzz_fail("a scan of bytes in memory failed");
    check_findings(whole);
    check_same(whole, cut, piece);
    check_render(whole);
    errata_scan_free(whole);
    errata_scan_free(cut);
    return 0;
}
