/*
 * render_json.c — the JSON form of lookup results and records (docs/json-output.md).
 *
 * A match carries its record in the record format itself, with capture placeholders filled in,
 * so a tool that reads records reads answers too.
 */
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "lookup.h"
#include "placeholder.h"
#include "strbuf.h"

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
    static const char *const zh_lists[] = {"workarounds_zh", "dead_ends_zh"};
    for (size_t l = 0; l < sizeof zh_lists / sizeof *zh_lists; l++) {
        json_t *zh = json_object_get(rec, zh_lists[l]);
        for (size_t i = 0; i < json_array_size(zh); i++) {
            const char *s = json_string_value(json_array_get(zh, i));
            char *filled = s ? fill_placeholders(s, m->caps, m->n_caps) : NULL;
            if (filled)
                json_array_set_new(zh, i, json_string(filled));
            free(filled);
        }
    }
}

/* The answer is written directly rather than built as a jansson tree: a lookup answers with
 * whole records, and a record that has no captures to fill in is copied as the compact JSON the
 * index already stores. That halves the cost of an HTTP lookup. */

/* The inside of a JSON string: quotes, backslashes and control characters escaped; UTF-8 kept
 * as it is (the text has been normalised to valid UTF-8). */
static void json_str_body(strbuf *sb, const char *s)
{
    while (*s) {
        size_t run = 0;
        while (s[run] && s[run] != '"' && s[run] != '\\' && (unsigned char)s[run] >= 0x20)
            run++;
        sb_append(sb, s, run);
        s += run;
        if (!*s)
            break;
        unsigned char c = (unsigned char)*s++;
        switch (c) {
        case '"': sb_puts(sb, "\\\""); break;
        case '\\': sb_puts(sb, "\\\\"); break;
        case '\n': sb_puts(sb, "\\n"); break;
        case '\t': sb_puts(sb, "\\t"); break;
        case '\r': sb_puts(sb, "\\r"); break;
        default: sb_printf(sb, "\\u%04x", c); break;
        }
    }
}

static void json_str(strbuf *sb, const char *s)
{
    sb_putc(sb, '"');
    json_str_body(sb, s);
    sb_putc(sb, '"');
}

static void json_str_or_null(strbuf *sb, const char *s)
{
    if (s)
        json_str(sb, s);
    else
        sb_puts(sb, "null");
}

static void applicability_json(strbuf *sb, const applicability *a)
{
    sb_puts(sb, "{\"state\":");
    json_str(sb, applicability_name(a->state));
    sb_puts(sb, ",\"reason\":");
    json_str(sb, a->reason ? a->reason : "");
    sb_puts(sb, ",\"os\":");
    json_str_or_null(sb, a->os_key);
    sb_puts(sb, ",\"os_note\":");
    json_str_or_null(sb, a->os_note);
    sb_puts(sb, ",\"source\":");
    json_str_or_null(sb, a->source);
    sb_putc(sb, '}');
}

/* The capture named by the placeholder at p ("{name}…", ending before end), or NULL. */
static const capture *placeholder_at(const char *p, const char *end, const errata_match *m,
                                     const char **after)
{
    const char *close = memchr(p, '}', (size_t)(end - p));
    for (size_t i = 0; close && i < m->n_caps; i++) {
        size_t n = strlen(m->caps[i].name);
        if ((size_t)(close - p - 1) == n && memcmp(p + 1, m->caps[i].name, n) == 0) {
            *after = close + 1;
            return &m->caps[i];
        }
    }
    return NULL;
}

/* The stored record JSON with the captures filled into its dead ends, workarounds,
 * workarounds_zh and dead_ends_zh — the fields fill_record_json() fills. The stored JSON is compact and in the
 * record's field order, so those fields are the text between "dead_ends" and
 * "transition_graph". Returns false when the stored text is not laid out so. */
static bool fill_stored_json(strbuf *sb, const errata_match *m)
{
    const char *raw = m->raw_json;
    const char *from = strstr(raw, ",\"dead_ends\":");
    const char *to = from ? strstr(from, ",\"transition_graph\":") : NULL;
    if (!from || !to)
        return false;
    sb_append(sb, raw, (size_t)(from - raw));
    for (const char *p = from; p < to;) {
        const char *brace = memchr(p, '{', (size_t)(to - p));
        if (!brace) {
            sb_append(sb, p, (size_t)(to - p));
            break;
        }
        sb_append(sb, p, (size_t)(brace - p));
        const char *after;
        const capture *c = placeholder_at(brace, to, m, &after);
        if (c) {
            json_str_body(sb, c->value);
            p = after;
        } else {
            sb_putc(sb, '{');
            p = brace + 1;
        }
    }
    sb_puts(sb, to);
    return true;
}

/* The record of a match: the stored JSON, with the captures filled in where it has any. */
static void record_json(strbuf *sb, const errata_match *m)
{
    if (m->raw_json && (m->n_caps == 0 || fill_stored_json(sb, m))) {
        if (m->n_caps == 0)
            sb_puts(sb, m->raw_json);
        return;
    }
    json_t *rec = record_to_json(m->rec);
    if (rec)
        fill_record_json(rec, m);
    char *s = rec ? json_dumps(rec, JSON_COMPACT) : NULL;
    sb_puts(sb, s ? s : "null");
    free(s);
    json_decref(rec);
}

void render_match_json(strbuf *sb, const errata_match *m, size_t rank)
{
    sb_printf(sb, "{\"rank\":%zu,\"id\":", rank);
    json_str(sb, m->rec->id);
    if (m->fuzzy) {
        sb_printf(sb, ",\"match\":\"fuzzy\",\"score\":%.6g,\"score_parts\":null,\"line\":null,"
                      "\"matched_text\":null,\"captures\":{},\"record\":",
                  m->score);
        record_json(sb, m);
        sb_putc(sb, '}');
        return;
    }
    const score_parts *p = &m->parts;
    sb_printf(sb,
              ",\"match\":\"regex\",\"score\":%.6g,\"score_parts\":{\"specificity\":%.6g,"
              "\"line_role\":\"%s\",\"role_bonus\":%.6g,\"position\":%.6g,\"domain_fit\":%s,"
              "\"confidence\":%.6g,\"fix_success_rate\":%.6g,\"applicability_bonus\":%.6g,"
              "\"cause_of\":",
              m->score, p->specificity, line_role_name(p->role), p->role_bonus, p->position,
              p->domain_fit ? "true" : "false", p->confidence, p->fix_success_rate,
              p->applicability_bonus);
    if (p->cause_of) {
        sb_puts(sb, "{\"id\":");
        json_str(sb, p->cause_of->id);
        sb_printf(sb, ",\"line\":%zu}", p->cause_of_line);
    } else {
        sb_puts(sb, "null");
    }
    sb_printf(sb, "},\"line\":%zu,\"matched_text\":", m->line);
    json_str(sb, m->text);
    sb_puts(sb, ",\"captures\":{");
    for (size_t i = 0, shown = 0; i < m->n_caps; i++) {
        if (m->caps[i].unset) /* a hole in the text, not something the input said */
            continue;
        if (shown++)
            sb_putc(sb, ',');
        json_str(sb, m->caps[i].name);
        sb_putc(sb, ':');
        json_str(sb, m->caps[i].value);
    }
    sb_puts(sb, "},\"applicability\":");
    applicability_json(sb, &m->app);
    sb_puts(sb, ",\"record\":");
    record_json(sb, m);
    sb_putc(sb, '}');
}

char *render_result_json(const errata_result *res, const errata_render_options *opts)
{
    (void)opts;
    strbuf sb;
    sb_init(&sb);
    bool matched = res->n > 0 && !res->m[0].fuzzy;
    sb_printf(&sb,
              "{\"errata_version\":\"%s\",\"matched\":%s,\"input\":{\"bytes\":%zu,\"lines\":%zu},"
              "\"matches\":[",
              ERRATA_VERSION, matched ? "true" : "false", res->input_bytes, res->input_lines);
    for (size_t i = 0; i < res->n; i++) {
        if (i)
            sb_putc(&sb, ',');
        render_match_json(&sb, &res->m[i], i + 1);
    }
    sb_puts(&sb, "],\"warnings\":[");
    for (size_t i = 0; i < res->n_warnings; i++) {
        if (i)
            sb_putc(&sb, ',');
        json_str(&sb, res->warnings[i]);
    }
    sb_puts(&sb, "]}");
    return sb_finish(&sb);
}

char *render_record_json(const errata_record *r)
{
    json_t *j = record_to_json(r);
    char *out = j ? json_dumps(j, JSON_INDENT(2)) : NULL;
    json_decref(j);
    return out;
}
