/*
 * record.c — parsing a record from JSON with field-path diagnostics, writing it back, freeing
 * and comparing it. See record.h and docs/format.md.
 *
 * Parsing never stops at the first problem: a reviewer wants every wrong field of a file in one
 * run. Each field reader reports its own problem with the full path ("dead_ends[1].fail_rate")
 * and leaves a safe default, and the caller decides at the end whether the record is usable.
 */
#include "record.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

const char *const edge_kind_names[EDGE_KINDS] = {"leads_to", "preceded_by",
                                                 "frequently_confused_with"};

const char *const record_field_names[] = {
    "id", "signature", "signature_zh", "regex", "domain", "category", "subcategory",
    "root_cause", "root_cause_type", "root_cause_zh", "versions", "os_specific", "dead_ends",
    "workarounds", "workarounds_zh", "dead_ends_zh", "transition_graph", "official_doc_url",
    "official_doc_section", "error_code", "verification_tier", "confidence",
    "fix_success_rate", "resolvable", "transient", "first_seen", "last_confirmed", "last_updated",
    "evidence_count", "tags", "locale", "aliases", "examples", "reproduce", NULL};

static void vreport(parse_ctx *ctx, errata_severity sev, const char *field, const char *fmt,
                    va_list ap)
{
    if (sev == ERRATA_SEV_ERROR)
        ctx->errors++;
    if (!ctx->diags)
        return;
    strbuf sb;
    sb_init(&sb);
    sb_vprintf(&sb, fmt, ap);
    diags_add(ctx->diags, sev, ctx->file, 0, 0, field, "%s", sb.buf ? sb.buf : "out of memory");
    sb_free(&sb);
}

void parse_error(parse_ctx *ctx, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(ctx, ERRATA_SEV_ERROR, field, fmt, ap);
    va_end(ap);
}

void parse_warning(parse_ctx *ctx, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(ctx, ERRATA_SEV_WARNING, field, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ field readers */

enum { OPT = 0, REQ = 1, NULLABLE = 2, NONEMPTY = 4 };

static const char *json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "a value";
}

/* Builds "prefix.key" or "prefix[i]" paths in a caller's buffer. */
static const char *path_key(char *buf, size_t size, const char *prefix, const char *key)
{
    snprintf(buf, size, "%s%s%s", prefix, *prefix ? "." : "", key);
    return buf;
}

static const char *path_index(char *buf, size_t size, const char *prefix, size_t i)
{
    snprintf(buf, size, "%s[%zu]", prefix, i);
    return buf;
}

static bool oom(parse_ctx *ctx, const char *field)
{
    parse_error(ctx, field, "out of memory");
    return false;
}

/* Reads a string field into *out (malloc'd). Absent or null leaves NULL unless the field is
 * required; a non-NULLABLE optional field then defaults to "" so the record never holds NULL
 * where the format has no null. */
static void get_str(parse_ctx *ctx, const json_t *obj, const char *prefix, const char *key,
                    int flags, char **out)
{
    char path[256];
    path_key(path, sizeof path, prefix, key);
    const json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v || json_is_null(v)) {
        if (!v && (flags & REQ))
            parse_error(ctx, path, "required field is missing");
        else if (v && !(flags & NULLABLE))
            parse_error(ctx, path, "must be a string, not null");
        if (!(flags & NULLABLE) && !(*out = strdup("")))
            oom(ctx, path);
        return;
    }
    if (!json_is_string(v)) {
        parse_error(ctx, path, "must be a string%s, not %s", (flags & NULLABLE) ? " or null" : "",
                    json_kind(v));
        if (!(flags & NULLABLE) && !(*out = strdup("")))
            oom(ctx, path);
        return;
    }
    if ((flags & NONEMPTY) && json_string_length(v) == 0)
        parse_error(ctx, path, "must not be empty");
    if (!(*out = strdup(json_string_value(v))))
        oom(ctx, path);
}

static void get_rate(parse_ctx *ctx, const json_t *obj, const char *prefix, const char *key,
                     int flags, double *out)
{
    char path[256];
    path_key(path, sizeof path, prefix, key);
    const json_t *v = json_object_get(obj, key);
    *out = 0;
    if (!v) {
        if (flags & REQ)
            parse_error(ctx, path, "required field is missing");
        return;
    }
    if (!json_is_number(v)) {
        parse_error(ctx, path, "must be a number from 0 to 1, not %s", json_kind(v));
        return;
    }
    double d = json_number_value(v);
    if (!(d >= 0.0 && d <= 1.0))
        parse_error(ctx, path, "%g is outside [0, 1]", d);
    *out = d;
}

static void free_strvec(strvec *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    sv->v = NULL;
    sv->n = 0;
}

static void get_strvec(parse_ctx *ctx, const json_t *obj, const char *prefix, const char *key,
                       int flags, strvec *out)
{
    char path[256], ipath[280];
    path_key(path, sizeof path, prefix, key);
    const json_t *v = json_object_get(obj, key);
    out->v = NULL;
    out->n = 0;
    if (!v) {
        if (flags & REQ)
            parse_error(ctx, path, "required field is missing");
        return;
    }
    if (!json_is_array(v)) {
        parse_error(ctx, path, "must be an array of strings, not %s", json_kind(v));
        return;
    }
    size_t n = json_array_size(v);
    if (n == 0)
        return;
    if (!(out->v = calloc(n, sizeof *out->v))) {
        oom(ctx, path);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(v, i);
        if (!json_is_string(e)) {
            parse_error(ctx, path_index(ipath, sizeof ipath, path, i),
                        "must be a string, not %s", json_kind(e));
            continue;
        }
        if (!(out->v[out->n] = strdup(json_string_value(e)))) {
            oom(ctx, path);
            return;
        }
        out->n++;
    }
}

/* Returns the array at key, or NULL (reporting the problem) when absent or of another type. */
static const json_t *get_array(parse_ctx *ctx, const json_t *obj, const char *key, int flags)
{
    const json_t *v = json_object_get(obj, key);
    if (!v) {
        if (flags & REQ)
            parse_error(ctx, key, "required field is missing");
        return NULL;
    }
    if (!json_is_array(v)) {
        parse_error(ctx, key, "must be an array, not %s", json_kind(v));
        return NULL;
    }
    return v;
}

static bool is_date(const char *s)
{
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
            return false;
    int month = (s[5] - '0') * 10 + (s[6] - '0');
    int day = (s[8] - '0') * 10 + (s[9] - '0');
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

static bool in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

static void check_enum(parse_ctx *ctx, const char *path, const char *value,
                       const char *const *allowed)
{
    if (!value || in_list(value, allowed))
        return;
    strbuf sb;
    sb_init(&sb);
    for (const char *const *a = allowed; *a; a++)
        sb_printf(&sb, "%s%s", a == allowed ? "" : ", ", *a);
    parse_error(ctx, path, "'%s' is not one of: %s", value, sb.buf ? sb.buf : "");
    sb_free(&sb);
}

/* ------------------------------------------------------------------ composite fields */

static void parse_versions(parse_ctx *ctx, const json_t *root, record *r)
{
    static const char *const statuses[] = {"active", "fixed", "deprecated", "removed", NULL};
    const json_t *arr = get_array(ctx, root, "versions", OPT);
    size_t n = arr ? json_array_size(arr) : 0;
    if (n == 0 || !(r->versions = calloc(n, sizeof *r->versions)))
        return;
    for (size_t i = 0; i < n; i++) {
        char p[64], sp[96];
        path_index(p, sizeof p, "versions", i);
        const json_t *e = json_array_get(arr, i);
        if (!json_is_object(e)) {
            parse_error(ctx, p, "must be an object, not %s", json_kind(e));
            continue;
        }
        rec_version *v = &r->versions[r->n_versions++];
        get_str(ctx, e, p, "version", REQ | NONEMPTY, &v->version);
        get_str(ctx, e, p, "introduced", NULLABLE, &v->introduced);
        get_str(ctx, e, p, "deprecated", NULLABLE, &v->deprecated);
        get_str(ctx, e, p, "removed", NULLABLE, &v->removed);
        get_str(ctx, e, p, "behavior_change", NULLABLE, &v->behavior_change);
        get_str(ctx, e, p, "status", NULLABLE, &v->status);
        check_enum(ctx, path_key(sp, sizeof sp, p, "status"), v->status, statuses);
    }
}

static void parse_os_specific(parse_ctx *ctx, const json_t *root, record *r)
{
    const json_t *obj = json_object_get(root, "os_specific");
    if (!obj)
        return;
    if (!json_is_object(obj)) {
        parse_error(ctx, "os_specific", "must be an object, not %s", json_kind(obj));
        return;
    }
    size_t n = json_object_size(obj);
    if (n == 0 || !(r->os_specific = calloc(n, sizeof *r->os_specific)))
        return;
    const char *key;
    const json_t *val;
    json_object_foreach((json_t *)obj, key, val)
    {
        char p[256];
        path_key(p, sizeof p, "os_specific", key);
        if (!json_is_string(val)) {
            parse_error(ctx, p, "must be a string, not %s", json_kind(val));
            continue;
        }
        rec_kv *kv = &r->os_specific[r->n_os_specific];
        kv->key = strdup(key);
        kv->value = strdup(json_string_value(val));
        r->n_os_specific++;
        if (!kv->key || !kv->value)
            oom(ctx, p);
    }
}

static void parse_dead_ends(parse_ctx *ctx, const json_t *root, record *r)
{
    const json_t *arr = get_array(ctx, root, "dead_ends", REQ);
    size_t n = arr ? json_array_size(arr) : 0;
    if (n == 0 || !(r->dead_ends = calloc(n, sizeof *r->dead_ends)))
        return;
    for (size_t i = 0; i < n; i++) {
        char p[64];
        path_index(p, sizeof p, "dead_ends", i);
        const json_t *e = json_array_get(arr, i);
        if (!json_is_object(e)) {
            parse_error(ctx, p, "must be an object, not %s", json_kind(e));
            continue;
        }
        rec_dead_end *d = &r->dead_ends[r->n_dead_ends++];
        get_str(ctx, e, p, "action", REQ, &d->action);
        get_str(ctx, e, p, "why_fails", REQ, &d->why_fails);
        get_rate(ctx, e, p, "fail_rate", REQ, &d->fail_rate);
        get_str(ctx, e, p, "condition", REQ, &d->condition);
        get_strvec(ctx, e, p, "sources", REQ, &d->sources);
    }
}

static void parse_workarounds(parse_ctx *ctx, const json_t *root, record *r)
{
    const json_t *arr = get_array(ctx, root, "workarounds", REQ);
    size_t n = arr ? json_array_size(arr) : 0;
    if (n == 0 || !(r->workarounds = calloc(n, sizeof *r->workarounds)))
        return;
    for (size_t i = 0; i < n; i++) {
        char p[64];
        path_index(p, sizeof p, "workarounds", i);
        const json_t *e = json_array_get(arr, i);
        if (!json_is_object(e)) {
            parse_error(ctx, p, "must be an object, not %s", json_kind(e));
            continue;
        }
        rec_workaround *w = &r->workarounds[r->n_workarounds++];
        get_str(ctx, e, p, "action", REQ | NONEMPTY, &w->action);
        get_rate(ctx, e, p, "success_rate", REQ, &w->success_rate);
        get_str(ctx, e, p, "how", REQ, &w->how);
        get_str(ctx, e, p, "condition", REQ, &w->condition);
        get_strvec(ctx, e, p, "sources", REQ, &w->sources);
    }
}

static void parse_edge(parse_ctx *ctx, const json_t *e, const char *p, rec_edge *edge)
{
    if (json_is_string(e)) {
        if (!(edge->id = strdup(json_string_value(e))))
            oom(ctx, p);
        return;
    }
    edge->is_object = true;
    get_str(ctx, e, p, "id", REQ | NONEMPTY, &edge->id);
    const json_t *prob = json_object_get(e, "probability");
    if (prob && !json_is_null(prob)) {
        double d;
        get_rate(ctx, e, p, "probability", OPT, &d);
        edge->has_probability = json_is_number(prob);
        edge->probability = d;
    }
    get_str(ctx, e, p, "condition", NULLABLE, &edge->condition);
}

static void parse_graph(parse_ctx *ctx, const json_t *root, record *r)
{
    const json_t *g = json_object_get(root, "transition_graph");
    if (!g)
        return;
    if (!json_is_object(g)) {
        parse_error(ctx, "transition_graph", "must be an object, not %s", json_kind(g));
        return;
    }
    for (int k = 0; k < EDGE_KINDS; k++) {
        char p[96];
        path_key(p, sizeof p, "transition_graph", edge_kind_names[k]);
        const json_t *arr = json_object_get(g, edge_kind_names[k]);
        if (!arr)
            continue;
        if (!json_is_array(arr)) {
            parse_error(ctx, p, "must be an array, not %s", json_kind(arr));
            continue;
        }
        size_t n = json_array_size(arr);
        if (n == 0 || !(r->edges[k] = calloc(n, sizeof *r->edges[k])))
            continue;
        for (size_t i = 0; i < n; i++) {
            char ip[128];
            path_index(ip, sizeof ip, p, i);
            const json_t *e = json_array_get(arr, i);
            if (!json_is_string(e) && !json_is_object(e)) {
                parse_error(ctx, ip, "must be a record id or an object with an id, not %s",
                            json_kind(e));
                continue;
            }
            parse_edge(ctx, e, ip, &r->edges[k][r->n_edges[k]++]);
        }
    }
}

static void parse_examples(parse_ctx *ctx, const json_t *root, record *r)
{
    const json_t *ex = json_object_get(root, "examples");
    if (!ex)
        return;
    if (!json_is_object(ex)) {
        parse_error(ctx, "examples", "must be an object with match and no_match, not %s",
                    json_kind(ex));
        return;
    }
    r->has_examples = true;
    get_strvec(ctx, ex, "examples", "match", OPT, &r->examples_match);
    get_strvec(ctx, ex, "examples", "no_match", OPT, &r->examples_no_match);
}

static void parse_reproduce(parse_ctx *ctx, const json_t *root, record *r)
{
    const json_t *rp = json_object_get(root, "reproduce");
    if (!rp)
        return;
    if (!json_is_object(rp)) {
        parse_error(ctx, "reproduce", "must be an object, not %s", json_kind(rp));
        return;
    }
    r->has_reproduce = true;
    get_str(ctx, rp, "reproduce", "command", REQ | NONEMPTY, &r->reproduce_command);
    get_strvec(ctx, rp, "reproduce", "requires", OPT, &r->reproduce_requires);
    get_str(ctx, rp, "reproduce", "notes", NULLABLE, &r->reproduce_notes);
}

static void parse_scalars(parse_ctx *ctx, const json_t *root, record *r)
{
    static const char *const tiers[] = {"ai_generated", "reproduced", "community_verified",
                                        "expert_verified", NULL};
    static const char *const resolvable[] = {"yes", "partial", "no", NULL};

    get_str(ctx, root, "", "id", REQ | NONEMPTY, &r->id);
    get_str(ctx, root, "", "signature", REQ | NONEMPTY, &r->signature);
    get_str(ctx, root, "", "signature_zh", NULLABLE, &r->signature_zh);
    get_str(ctx, root, "", "regex", REQ | NONEMPTY, &r->regex);
    get_str(ctx, root, "", "domain", REQ | NONEMPTY, &r->domain);
    get_str(ctx, root, "", "category", REQ | NONEMPTY, &r->category);
    get_str(ctx, root, "", "subcategory", NULLABLE, &r->subcategory);
    get_str(ctx, root, "", "root_cause", REQ | NONEMPTY, &r->root_cause);
    get_str(ctx, root, "", "root_cause_type", NULLABLE, &r->root_cause_type);
    get_str(ctx, root, "", "root_cause_zh", NULLABLE, &r->root_cause_zh);
    get_str(ctx, root, "", "official_doc_url", NULLABLE, &r->official_doc_url);
    get_str(ctx, root, "", "official_doc_section", NULLABLE, &r->official_doc_section);
    get_str(ctx, root, "", "error_code", NULLABLE, &r->error_code);
    get_str(ctx, root, "", "verification_tier", REQ, &r->verification_tier);
    check_enum(ctx, "verification_tier", r->verification_tier, tiers);
    get_rate(ctx, root, "", "confidence", REQ, &r->confidence);
    get_rate(ctx, root, "", "fix_success_rate", REQ, &r->fix_success_rate);
    get_str(ctx, root, "", "resolvable", REQ, &r->resolvable);
    check_enum(ctx, "resolvable", r->resolvable, resolvable);

    const char *dates[] = {"first_seen", "last_confirmed", "last_updated"};
    char **date_fields[] = {&r->first_seen, &r->last_confirmed, &r->last_updated};
    for (int i = 0; i < 3; i++) {
        get_str(ctx, root, "", dates[i], NULLABLE, date_fields[i]);
        if (*date_fields[i] && !is_date(*date_fields[i]))
            parse_error(ctx, dates[i], "'%s' is not a date of the form YYYY-MM-DD",
                        *date_fields[i]);
    }

    const json_t *tr = json_object_get(root, "transient");
    if (tr && !json_is_boolean(tr) && !json_is_null(tr))
        parse_error(ctx, "transient", "must be true, false or null, not %s", json_kind(tr));
    else if (tr && json_is_boolean(tr))
        r->transient = json_is_true(tr) ? 1 : 0;
    else
        r->transient = -1;

    const json_t *ec = json_object_get(root, "evidence_count");
    if (ec && !json_is_integer(ec))
        parse_error(ctx, "evidence_count", "must be a whole number, not %s", json_kind(ec));
    else if (ec && json_integer_value(ec) < 0)
        parse_error(ctx, "evidence_count", "must not be negative");
    else if (ec)
        r->evidence_count = json_integer_value(ec);

    get_strvec(ctx, root, "", "tags", OPT, &r->tags);
    get_strvec(ctx, root, "", "aliases", OPT, &r->aliases);
    get_strvec(ctx, root, "", "workarounds_zh", OPT, &r->workarounds_zh);
    get_strvec(ctx, root, "", "dead_ends_zh", OPT, &r->dead_ends_zh);
    get_str(ctx, root, "", "locale", OPT, &r->locale);
    if (r->locale && !*r->locale) {
        free(r->locale);
        r->locale = strdup("en");
    }
}

static void warn_unknown_fields(parse_ctx *ctx, const json_t *root)
{
    const char *key;
    const json_t *val;
    json_object_foreach((json_t *)root, key, val)
    {
        (void)val;
        if (!in_list(key, record_field_names))
            parse_warning(ctx, key, "unknown field (a typo?); it is ignored");
    }
}

record *record_from_json(const json_t *root, parse_ctx *ctx)
{
    if (!json_is_object(root)) {
        parse_error(ctx, "", "a record must be a JSON object, not %s", json_kind(root));
        return NULL;
    }
    record *r = calloc(1, sizeof *r);
    if (!r) {
        parse_error(ctx, "", "out of memory");
        return NULL;
    }
    size_t before = ctx->errors;
    parse_scalars(ctx, root, r);
    parse_versions(ctx, root, r);
    parse_os_specific(ctx, root, r);
    parse_dead_ends(ctx, root, r);
    parse_workarounds(ctx, root, r);
    parse_graph(ctx, root, r);
    parse_examples(ctx, root, r);
    parse_reproduce(ctx, root, r);
    warn_unknown_fields(ctx, root);
    if (ctx->errors > before) {
        record_free(r);
        return NULL;
    }
    return r;
}

record *record_parse_text(const char *text, size_t len, parse_ctx *ctx)
{
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES,
                              &jerr);
    if (!root) {
        ctx->errors++;
        if (ctx->diags)
            diags_add(ctx->diags, ERRATA_SEV_ERROR, ctx->file, jerr.line, jerr.column, "",
                      "invalid JSON: %s", jerr.text);
        return NULL;
    }
    record *r = record_from_json(root, ctx);
    json_decref(root);
    return r;
}

/* ------------------------------------------------------------------ writing */

static json_t *jstr(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *jstrvec(const strvec *sv)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < sv->n; i++)
        json_array_append_new(a, json_string(sv->v[i]));
    return a;
}

static json_t *edges_to_json(const rec_edge *edges, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) {
        const rec_edge *e = &edges[i];
        if (!e->is_object) {
            json_array_append_new(a, json_string(e->id));
            continue;
        }
        json_array_append_new(
            a, json_pack("{s:s, s:o, s:o}", "id", e->id, "probability",
                         e->has_probability ? json_real(e->probability) : json_null(),
                         "condition", jstr(e->condition)));
    }
    return a;
}

json_t *record_to_json(const record *r)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "id", json_string(r->id));
    json_object_set_new(o, "signature", json_string(r->signature));
    json_object_set_new(o, "signature_zh", jstr(r->signature_zh));
    json_object_set_new(o, "regex", json_string(r->regex));
    json_object_set_new(o, "domain", json_string(r->domain));
    json_object_set_new(o, "category", json_string(r->category));
    json_object_set_new(o, "subcategory", jstr(r->subcategory));
    json_object_set_new(o, "root_cause", json_string(r->root_cause));
    json_object_set_new(o, "root_cause_type", jstr(r->root_cause_type));
    json_object_set_new(o, "root_cause_zh", jstr(r->root_cause_zh));

    json_t *versions = json_array();
    for (size_t i = 0; versions && i < r->n_versions; i++) {
        const rec_version *v = &r->versions[i];
        json_array_append_new(
            versions, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "version", v->version,
                                "introduced", jstr(v->introduced), "deprecated",
                                jstr(v->deprecated), "removed", jstr(v->removed),
                                "behavior_change", jstr(v->behavior_change), "status",
                                jstr(v->status)));
    }
    json_object_set_new(o, "versions", versions);

    json_t *os = json_object();
    for (size_t i = 0; os && i < r->n_os_specific; i++)
        json_object_set_new(os, r->os_specific[i].key, json_string(r->os_specific[i].value));
    json_object_set_new(o, "os_specific", os);

    json_t *dead = json_array();
    for (size_t i = 0; dead && i < r->n_dead_ends; i++) {
        const rec_dead_end *d = &r->dead_ends[i];
        json_array_append_new(dead, json_pack("{s:s, s:s, s:f, s:s, s:o}", "action", d->action,
                                              "why_fails", d->why_fails, "fail_rate",
                                              d->fail_rate, "condition", d->condition,
                                              "sources", jstrvec(&d->sources)));
    }
    json_object_set_new(o, "dead_ends", dead);

    json_t *work = json_array();
    for (size_t i = 0; work && i < r->n_workarounds; i++) {
        const rec_workaround *w = &r->workarounds[i];
        json_array_append_new(work, json_pack("{s:s, s:f, s:s, s:s, s:o}", "action", w->action,
                                              "success_rate", w->success_rate, "how", w->how,
                                              "condition", w->condition, "sources",
                                              jstrvec(&w->sources)));
    }
    json_object_set_new(o, "workarounds", work);
    json_object_set_new(o, "workarounds_zh", jstrvec(&r->workarounds_zh));
    json_object_set_new(o, "dead_ends_zh", jstrvec(&r->dead_ends_zh));

    json_t *graph = json_object();
    for (int k = 0; graph && k < EDGE_KINDS; k++)
        json_object_set_new(graph, edge_kind_names[k], edges_to_json(r->edges[k], r->n_edges[k]));
    json_object_set_new(o, "transition_graph", graph);

    json_object_set_new(o, "official_doc_url", jstr(r->official_doc_url));
    json_object_set_new(o, "official_doc_section", jstr(r->official_doc_section));
    json_object_set_new(o, "error_code", jstr(r->error_code));
    json_object_set_new(o, "verification_tier", json_string(r->verification_tier));
    json_object_set_new(o, "confidence", json_real(r->confidence));
    json_object_set_new(o, "fix_success_rate", json_real(r->fix_success_rate));
    json_object_set_new(o, "resolvable", json_string(r->resolvable));
    if (r->transient >= 0) /* optional, and left out when the record does not say */
        json_object_set_new(o, "transient", json_boolean(r->transient));
    json_object_set_new(o, "first_seen", jstr(r->first_seen));
    json_object_set_new(o, "last_confirmed", jstr(r->last_confirmed));
    json_object_set_new(o, "last_updated", jstr(r->last_updated));
    json_object_set_new(o, "evidence_count", json_integer(r->evidence_count));
    json_object_set_new(o, "tags", jstrvec(&r->tags));
    json_object_set_new(o, "locale", json_string(r->locale ? r->locale : "en"));
    json_object_set_new(o, "aliases", jstrvec(&r->aliases));
    if (r->has_examples)
        json_object_set_new(o, "examples",
                            json_pack("{s:o, s:o}", "match", jstrvec(&r->examples_match),
                                      "no_match", jstrvec(&r->examples_no_match)));
    if (r->has_reproduce)
        json_object_set_new(o, "reproduce",
                            json_pack("{s:s, s:o, s:o}", "command", r->reproduce_command,
                                      "requires", jstrvec(&r->reproduce_requires), "notes",
                                      jstr(r->reproduce_notes)));
    return o;
}

/* ------------------------------------------------------------------ freeing, comparing */

void record_free(record *r)
{
    if (!r)
        return;
    char **strs[] = {&r->id, &r->signature, &r->regex, &r->domain, &r->category,
                     &r->root_cause, &r->signature_zh, &r->subcategory, &r->root_cause_type,
                     &r->root_cause_zh, &r->official_doc_url, &r->official_doc_section,
                     &r->error_code, &r->verification_tier, &r->resolvable, &r->first_seen,
                     &r->last_confirmed, &r->last_updated, &r->locale, &r->reproduce_command,
                     &r->reproduce_notes};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
        free(*strs[i]);
    for (size_t i = 0; i < r->n_versions; i++) {
        rec_version *v = &r->versions[i];
        free(v->version), free(v->introduced), free(v->deprecated);
        free(v->removed), free(v->behavior_change), free(v->status);
    }
    free(r->versions);
    for (size_t i = 0; i < r->n_os_specific; i++)
        free(r->os_specific[i].key), free(r->os_specific[i].value);
    free(r->os_specific);
    for (size_t i = 0; i < r->n_dead_ends; i++) {
        rec_dead_end *d = &r->dead_ends[i];
        free(d->action), free(d->why_fails), free(d->condition);
        free_strvec(&d->sources);
    }
    free(r->dead_ends);
    for (size_t i = 0; i < r->n_workarounds; i++) {
        rec_workaround *w = &r->workarounds[i];
        free(w->action), free(w->how), free(w->condition);
        free_strvec(&w->sources);
    }
    free(r->workarounds);
    for (int k = 0; k < EDGE_KINDS; k++) {
        for (size_t i = 0; i < r->n_edges[k]; i++)
            free(r->edges[k][i].id), free(r->edges[k][i].condition);
        free(r->edges[k]);
    }
    strvec *vecs[] = {&r->workarounds_zh, &r->dead_ends_zh, &r->tags, &r->aliases, &r->examples_match,
                      &r->examples_no_match, &r->reproduce_requires};
    for (size_t i = 0; i < sizeof vecs / sizeof *vecs; i++)
        free_strvec(vecs[i]);
    free(r);
}

/* Two records are equal when they serialise to equal JSON: one definition of equality, shared
 * with the writer, so a field added to one cannot be forgotten by the other. */
bool record_equal(const record *a, const record *b)
{
    json_t *ja = record_to_json(a), *jb = record_to_json(b);
    bool eq = ja && jb && json_equal(ja, jb);
    json_decref(ja);
    json_decref(jb);
    return eq;
}
