/*
 * render_json.c — the JSON form of lookup results and records (docs/json-output.md).
 *
 * A match carries its record in the record format itself, with capture placeholders filled in,
 * so a tool that reads records reads answers too.
 */
#include <stdlib.h>
#include <string.h>

#include "lookup.h"
#include "placeholder.h"

/* Replaces obj[key] (a string) by its filled-in form. */
static void fill_member(json_t *obj, const char *key, const errata_match *m)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        return;
    char *filled = fill_placeholders(json_string_value(v), m->caps, m->n_caps);
    if (filled)
        json_object_set_new(obj, key, json_string(filled));
    free(filled);
}

static void fill_record_json(json_t *rec, const errata_match *m)
{
    static const char *const keys[] = {"action", "how", "why_fails", "condition"};
    const char *lists[] = {"dead_ends", "workarounds"};
    for (int l = 0; l < 2; l++) {
        json_t *arr = json_object_get(rec, lists[l]);
        size_t i;
        json_t *item;
        json_array_foreach(arr, i, item)
        {
            for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
                fill_member(item, keys[k], m);
        }
    }
    json_t *zh = json_object_get(rec, "workarounds_zh");
    for (size_t i = 0; i < json_array_size(zh); i++) {
        const char *s = json_string_value(json_array_get(zh, i));
        char *filled = s ? fill_placeholders(s, m->caps, m->n_caps) : NULL;
        if (filled)
            json_array_set_new(zh, i, json_string(filled));
        free(filled);
    }
}

static json_t *applicability_to_json(const applicability *a)
{
    return json_pack("{s:s, s:s, s:o, s:o, s:o}", "state", applicability_name(a->state), "reason",
                     a->reason ? a->reason : "", "os", a->os_key ? json_string(a->os_key) : json_null(),
                     "os_note", a->os_note ? json_string(a->os_note) : json_null(), "source",
                     a->source ? json_string(a->source) : json_null());
}

static json_t *match_to_json(const errata_match *m, size_t rank)
{
    if (m->fuzzy) {
        json_t *rec = record_to_json(m->rec);
        return json_pack("{s:I, s:s, s:s, s:f, s:n, s:n, s:n, s:{}, s:o}", "rank", (json_int_t)rank,
                         "id", m->rec->id, "match", "fuzzy", "score", m->score, "score_parts",
                         "line", "matched_text", "captures", "record", rec ? rec : json_null());
    }
    json_t *caps = json_object();
    for (size_t i = 0; i < m->n_caps; i++)
        json_object_set_new(caps, m->caps[i].name, json_string(m->caps[i].value));
    json_t *rec = record_to_json(m->rec);
    if (rec)
        fill_record_json(rec, m);
    const score_parts *p = &m->parts;
    json_t *parts = json_pack("{s:f, s:s, s:f, s:f, s:b, s:f, s:f, s:f}", "specificity",
                              p->specificity, "line_role", line_role_name(p->role), "role_bonus",
                              p->role_bonus, "position", p->position, "domain_fit", p->domain_fit,
                              "confidence", p->confidence, "fix_success_rate",
                              p->fix_success_rate, "applicability_bonus",
                              p->applicability_bonus);
    return json_pack("{s:I, s:s, s:s, s:f, s:o, s:I, s:s, s:o, s:o, s:o}", "rank",
                     (json_int_t)rank, "id", m->rec->id, "match", "regex", "score", m->score,
                     "score_parts", parts, "line", (json_int_t)m->line, "matched_text", m->text,
                     "captures", caps, "applicability", applicability_to_json(&m->app), "record",
                     rec ? rec : json_null());
}

char *errata_result_to_json(const errata_result *res, const errata_render_options *opts)
{
    (void)opts;
    json_t *matches = json_array();
    for (size_t i = 0; matches && i < res->n; i++)
        json_array_append_new(matches, match_to_json(&res->m[i], i + 1));
    json_t *warnings = json_array();
    for (size_t i = 0; warnings && i < res->n_warnings; i++)
        json_array_append_new(warnings, json_string(res->warnings[i]));
    bool matched = res->n > 0 && !res->m[0].fuzzy;
    json_t *root = json_pack("{s:s, s:b, s:{s:I, s:I}, s:o, s:o}", "errata_version",
                             ERRATA_VERSION, "matched", matched, "input", "bytes",
                             (json_int_t)res->input_bytes, "lines", (json_int_t)res->input_lines,
                             "matches", matches, "warnings", warnings);
    char *out = root ? json_dumps(root, JSON_INDENT(2)) : NULL;
    json_decref(root);
    return out;
}

char *errata_record_to_json(const errata_record *r)
{
    json_t *j = record_to_json(r);
    char *out = j ? json_dumps(j, JSON_INDENT(2)) : NULL;
    json_decref(j);
    return out;
}
