/*
 * fuzz_record.c — a record file's bytes, whatever they are, through what errata build and
 * errata validate run on each file: the parser (record_parse_text, with its field-path
 * diagnostics) and the meaning checks (validate_record, and validate_set over a knowledge base
 * of that one record). Contributed records are untrusted text, so none may crash, leak or
 * reach undefined behaviour.
 *
 * Property (record.h): writing a parsed record back with record_to_json and parsing that
 * again gives an equal record, without errors — the round trip json_edit and the tests rely on.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "kb.h"
#include "record.h"
#include "validate.h"

static void check_round_trip(const record *r)
{
    json_t *j = record_to_json(r);
    if (!j)
        fuzz_fail("record_to_json failed");
    parse_ctx ctx = {NULL, "round-trip.json", 0};
    record *again = record_from_json(j, &ctx);
    json_decref(j);
    if (!again || ctx.errors)
        fuzz_fail("a parsed record, written back, does not parse (%zu errors)", ctx.errors);
    if (!record_equal(r, again))
        fuzz_fail("a parsed record, written back and parsed again, is not equal to itself");
    record_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    errata_diags *d = diags_new();
    if (!d)
        return 0;
    /* A path of the form <kb>/<domain>/<slug>.json, as kb_load gives, so that the file-name
     * checks of validate_set run too. */
    char path[] = "fuzz-kb/fuzz/record.json";
    parse_ctx ctx = {d, path, 0};
    record *r = record_parse_text((const char *)data, size, &ctx);
    if (r) {
        check_round_trip(r);
        validate_record(r, path, d);
        kb_entry entry = {path, r};
        kb_set set = {.items = &entry, .n = 1, .cap = 1};
        validate_set(&set, d);
        record_free(r);
    }
    for (size_t i = 0; i < errata_diags_count(d); i++) {
        const errata_diag *g = errata_diags_get(d, i);
        if (!g->message[0] || !g->field || !g->file)
            fuzz_fail("finding %zu has no message, field or file", i);
    }
    errata_diags_free(d);
    return 0;
}
