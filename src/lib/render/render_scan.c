/*
 * render_scan.c — the forms of a scan's findings: text for people, JSON and JSON Lines for
 * tools, SARIF 2.1.0 for code scanning, GitHub workflow commands for annotations, Markdown for
 * step summaries and merge-request comments (docs/scan.md).
 *
 * Every form names the place of each finding: the source (a file name, or what the caller
 * calls its input) and the 1-based line of the first occurrence. SARIF consumers such as
 * GitHub's upload reject a result without a physical location, so there is always one.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lookup.h"
#include "placeholder.h"
#include "render.h"
#include "scan.h"
#include "strbuf.h"
#include "uri.h"

static const char *source_or_default(const char *source)
{
    return source && *source ? source : "stdin";
}

/* The workaround a finding suggests first (the best rated), filled in; "" when none. */
static char *first_fix(const errata_finding *f)
{
    const record *r = f->m->rec;
    if (!r->n_workarounds)
        return strdup("");
    const char *a = r->workarounds[record_workaround_at(r, 0)].action;
    return fill_placeholders(a, f->m->caps, f->m->n_caps);
}

/* The first line of a match's text, at most max bytes. */
static int first_line_len(const char *t, int max)
{
    size_t n = strcspn(t, "\n");
    return n < (size_t)max ? (int)n : max;
}

/* The lines a match's text spans, less one. */
static uint64_t extra_lines(const errata_match *m)
{
    uint64_t n = 0;
    for (const char *p = m->text; p && *p; p++)
        n += *p == '\n';
    return n;
}

/* The findings f's record leads to or follows from, among the scan's. */
static void chain_text(strbuf *sb, const errata_scan *s, const errata_finding *f, const char *indent)
{
    for (size_t j = 0; j < errata_scan_findings(s); j++) {
        const errata_finding *g = errata_scan_finding(s, j);
        if (g == f)
            continue;
        if (lookup_is_cause_of(f->m->rec, g->m->rec))
            sb_printf(sb, "%sleads to: %s (line %llu)\n", indent, g->m->rec->id,
                      (unsigned long long)g->first_line);
        else if (lookup_is_cause_of(g->m->rec, f->m->rec))
            sb_printf(sb, "%sfollows from: %s (line %llu)\n", indent, g->m->rec->id,
                      (unsigned long long)g->first_line);
    }
}

static void context_text(strbuf *sb, const errata_finding *f, const char *mark_on, const char *mark_off)
{
    uint64_t line = f->context_line;
    uint64_t hit_from = f->m->line, lines_in_match = extra_lines(f->m);
    for (const char *p = f->context; p && *p;) {
        size_t n = strcspn(p, "\n");
        bool hit = line >= hit_from && line <= hit_from + lines_in_match;
        sb_printf(sb, "  %s%c %7llu | %.*s%s\n", hit ? mark_on : "", hit ? '>' : ' ',
                  (unsigned long long)line, (int)n, p, hit ? mark_off : "");
        p += n + (p[n] == '\n');
        line++;
    }
}

static char *scan_text(const errata_scan *s, const char *source, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    bool color = opts && opts->color;
    size_t n = errata_scan_findings(s);
    unsigned long long lines = errata_scan_lines(s);
    sb_printf(&sb, "%s: %llu line%s, %zu known failure%s\n", source_or_default(source), lines,
              lines == 1 ? "" : "s", n, n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        const errata_finding *f = errata_scan_finding(s, i);
        sb_printf(&sb, "\n%s%zu. %s%s — line %llu", color ? "\033[1m" : "", i + 1, f->m->rec->id,
                  color ? "\033[0m" : "", (unsigned long long)f->m->line);
        if (f->occurrences > 1)
            sb_printf(&sb, " (%zu times, lines %llu to %llu)", f->occurrences,
                      (unsigned long long)f->first_line, (unsigned long long)f->last_line);
        sb_printf(&sb, "\n   %s, %s\n", f->m->rec->category,
                  record_is_transient(f->m->rec) ? "transient: retrying unchanged may pass"
                                                 : "a real failure: retrying will not fix it");
        chain_text(&sb, s, f, "   ");
        context_text(&sb, f, color ? "\033[31m" : "", color ? "\033[0m" : "");
        sb_putc(&sb, '\n');
        char *body = render_result_text(f->first, opts);
        sb_puts(&sb, body ? body : "");
        free(body);
    }
    for (size_t i = 0; i < errata_scan_warning_count(s); i++)
        sb_printf(&sb, "warning: %s\n", errata_scan_warning(s, i));
    return sb_finish(&sb);
}

/* ------------------------------------------------------------------ JSON and JSON Lines */

static void json_string_into(strbuf *sb, const char *s)
{
    json_t *str = json_string(s ? s : "");
    char *j = str ? json_dumps(str, JSON_ENCODE_ANY) : NULL;
    json_decref(str);
    /* json_string() returns NULL for invalid UTF-8; the scan's text is normalised, so this
     * does not happen, but never print a bare null where a string is expected. */
    sb_puts(sb, j ? j : "\"\"");
    free(j);
}

static void finding_json(strbuf *sb, const errata_scan *s, const errata_finding *f, size_t rank,
                         const char *source)
{
    sb_puts(sb, "{\"source\":");
    json_string_into(sb, source_or_default(source));
    sb_printf(sb, ",\"line\":%llu,\"first_line\":%llu,\"last_line\":%llu,\"occurrences\":%zu,"
                  "\"lines\":[",
              (unsigned long long)f->m->line, (unsigned long long)f->first_line,
              (unsigned long long)f->last_line, f->occurrences);
    for (size_t i = 0; i < f->n_lines; i++)
        sb_printf(sb, "%s%llu", i ? "," : "", (unsigned long long)f->lines[i]);
    sb_printf(sb, "],\"category\":");
    json_string_into(sb, f->m->rec->category);
    sb_printf(sb, ",\"transient\":%s", record_is_transient(f->m->rec) ? "true" : "false");
    sb_printf(sb, ",\"context\":{\"first_line\":%llu,\"text\":", (unsigned long long)f->context_line);
    json_string_into(sb, f->context);
    sb_puts(sb, "},\"leads_to\":[");
    size_t k = 0;
    for (size_t j = 0; s && j < errata_scan_findings(s); j++) {
        const errata_finding *g = errata_scan_finding(s, j);
        if (g != f && lookup_is_cause_of(f->m->rec, g->m->rec)) {
            sb_puts(sb, k++ ? "," : "");
            json_string_into(sb, g->m->rec->id);
        }
    }
    sb_puts(sb, "],\"match\":");
    render_match_json(sb, f->m, rank);
    sb_putc(sb, '}');
}

static char *scan_json(const errata_scan *s, const char *source)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "{\"errata_version\":\"%s\",\"source\":", ERRATA_VERSION);
    json_string_into(&sb, source_or_default(source));
    sb_printf(&sb, ",\"input\":{\"bytes\":%llu,\"lines\":%llu},\"retryable\":%s,\"findings\":[",
              errata_scan_bytes(s), errata_scan_lines(s),
              errata_scan_retryable(s) ? "true" : "false");
    for (size_t i = 0; i < errata_scan_findings(s); i++) {
        sb_puts(&sb, i ? "," : "");
        finding_json(&sb, s, errata_scan_finding(s, i), i + 1, source);
    }
    sb_puts(&sb, "],\"warnings\":[");
    for (size_t i = 0; i < errata_scan_warning_count(s); i++) {
        sb_puts(&sb, i ? "," : "");
        json_string_into(&sb, errata_scan_warning(s, i));
    }
    sb_puts(&sb, "]}\n");
    return sb_finish(&sb);
}

/* JSON Lines: each finding a line as it is found ({"type":"finding",…}), then one summary
 * line with the final counts, which only the end of the input can tell. */
static char *scan_jsonl_summary(const errata_scan *s, const char *source)
{
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "{\"type\":\"summary\",\"source\":");
    json_string_into(&sb, source_or_default(source));
    sb_printf(&sb, ",\"bytes\":%llu,\"lines\":%llu,\"retryable\":%s,\"findings\":[",
              errata_scan_bytes(s), errata_scan_lines(s),
              errata_scan_retryable(s) ? "true" : "false");
    for (size_t i = 0; i < errata_scan_findings(s); i++) {
        const errata_finding *f = errata_scan_finding(s, i);
        sb_puts(&sb, i ? ",{\"id\":" : "{\"id\":");
        json_string_into(&sb, f->m->rec->id);
        sb_printf(&sb, ",\"line\":%llu,\"first_line\":%llu,\"last_line\":%llu,\"occurrences\":%zu}",
                  (unsigned long long)f->m->line, (unsigned long long)f->first_line,
                  (unsigned long long)f->last_line, f->occurrences);
    }
    sb_puts(&sb, "]}\n");
    return sb_finish(&sb);
}

/* ------------------------------------------------------------------ SARIF */

static json_t *sarif_rule(const errata_finding *f)
{
    const record *r = f->m->rec;
    char *fix = first_fix(f);
    strbuf help;
    sb_init(&help);
    sb_printf(&help, "%s\n\nFirst try: %s\n\nDetails: errata show %s", r->root_cause,
              fix ? fix : "", r->id);
    json_t *rule = json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:[s]}}", "id",
                             r->id, "name", r->id, "shortDescription", "text", r->signature,
                             "fullDescription", "text", r->root_cause, "help", "text",
                             help.buf ? help.buf : "", "defaultConfiguration", "level",
                             strstr(r->category, "warning") ? "warning" : "error", "properties",
                             "tags", r->domain);
    if (rule && r->official_doc_url)
        json_object_set_new(rule, "helpUri", json_string(r->official_doc_url));
    sb_free(&help);
    free(fix);
    return rule;
}

static char *scan_sarif(const errata_scan *s, const char *source)
{
    strbuf uri;
    sb_init(&uri);
    uri_escape_path(&uri, source_or_default(source));
    json_t *rules = json_array(), *results = json_array();
    for (size_t i = 0; i < errata_scan_findings(s); i++) {
        const errata_finding *f = errata_scan_finding(s, i);
        json_array_append_new(rules, sarif_rule(f));
        char *fix = first_fix(f);
        strbuf msg;
        sb_init(&msg);
        sb_printf(&msg, "%s: %.*s", f->m->rec->id, first_line_len(f->m->text, 300), f->m->text);
        if (f->occurrences > 1)
            sb_printf(&msg, " (%zu times, last at line %llu)", f->occurrences,
                      (unsigned long long)f->last_line);
        if (fix && *fix)
            sb_printf(&msg, ". First try: %s", fix);
        json_t *region = json_pack("{s:I, s:I}", "startLine", (json_int_t)f->m->line, "endLine",
                                   (json_int_t)(f->m->line + extra_lines(f->m)));
        json_t *result = json_pack(
            "{s:s, s:I, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:o}}], s:{s:I, s:I, s:I}}", "ruleId",
            f->m->rec->id, "ruleIndex", (json_int_t)i, "level",
            strstr(f->m->rec->category, "warning") ? "warning" : "error", "message", "text",
            msg.buf ? msg.buf : "", "locations", "physicalLocation", "artifactLocation", "uri",
            uri.buf ? uri.buf : "", "region", region, "properties", "occurrences",
            (json_int_t)f->occurrences, "firstLine", (json_int_t)f->first_line, "lastLine",
            (json_int_t)f->last_line);
        json_array_append_new(results, result);
        sb_free(&msg);
        free(fix);
    }
    json_t *root = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o}}, s:o}]}", "$schema",
                             "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
                             "runs", "tool", "driver", "name", "errata", "version",
                             ERRATA_VERSION, "informationUri", "https://errata.invalid/docs/scan",
                             "rules", rules, "results", results);
    char *out = root ? json_dumps(root, JSON_INDENT(2)) : NULL;
    json_decref(root);
    sb_free(&uri);
    return out;
}

/* ------------------------------------------------------------------ GitHub annotations */

/* Workflow command escaping: data escapes %, CR and LF; a property value also ':' and ','. */
static void gh_escape(strbuf *sb, const char *s, bool property)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '%': sb_puts(sb, "%25"); break;
        case '\r': sb_puts(sb, "%0D"); break;
        case '\n': sb_puts(sb, "%0A"); break;
        case ':': property ? sb_puts(sb, "%3A") : sb_putc(sb, ':'); break;
        case ',': property ? sb_puts(sb, "%2C") : sb_putc(sb, ','); break;
        default: sb_putc(sb, *s);
        }
    }
}

static void github_line(strbuf *sb, const errata_finding *f, const char *source)
{
    const record *r = f->m->rec;
    sb_printf(sb, "::%s file=", strstr(r->category, "warning") ? "warning" : "error");
    gh_escape(sb, source_or_default(source), true);
    sb_printf(sb, ",line=%llu,title=", (unsigned long long)f->m->line);
    gh_escape(sb, r->id, true);
    sb_puts(sb, "::");
    strbuf msg;
    sb_init(&msg);
    /* What the log said, then why and what to do: the annotation stands beside the line. */
    sb_printf(&msg, "%.*s\n%s", first_line_len(f->m->text, 300), f->m->text, r->root_cause);
    char *fix = first_fix(f);
    if (fix && *fix)
        sb_printf(&msg, "\nFirst try: %s", fix);
    if (f->occurrences > 1)
        sb_printf(&msg, "\n(%zu times, lines %llu to %llu)", f->occurrences,
                  (unsigned long long)f->first_line, (unsigned long long)f->last_line);
    sb_printf(&msg, "\nDetails: errata show %s", r->id);
    gh_escape(sb, msg.buf, false);
    sb_putc(sb, '\n');
    sb_free(&msg);
    free(fix);
}

static char *scan_github(const errata_scan *s, const char *source)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < errata_scan_findings(s); i++)
        github_line(&sb, errata_scan_finding(s, i), source);
    return sb_finish(&sb);
}

/* ------------------------------------------------------------------ Markdown */

static char *scan_markdown(const errata_scan *s, const char *source, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    size_t n = errata_scan_findings(s);
    sb_printf(&sb, "## Errata: %zu known failure%s in `%s`\n\n", n, n == 1 ? "" : "s",
              source_or_default(source));
    if (n == 0)
        sb_printf(&sb, "No known failure in %llu lines.\n", errata_scan_lines(s));
    for (size_t i = 0; i < n; i++) {
        const errata_finding *f = errata_scan_finding(s, i);
        sb_printf(&sb, "### %zu. `%s`, line %llu", i + 1, f->m->rec->id,
                  (unsigned long long)f->m->line);
        if (f->occurrences > 1)
            sb_printf(&sb, " (%zu times, last at line %llu)", f->occurrences,
                      (unsigned long long)f->last_line);
        sb_puts(&sb, "\n\n");
        strbuf chain;
        sb_init(&chain);
        chain_text(&chain, s, f, "- ");
        if (chain.len)
            sb_printf(&sb, "%s\n", chain.buf);
        sb_free(&chain);
        /* A fence longer than any backtick run in the context, so log text cannot close it. */
        size_t run = 0, longest = 0;
        for (const char *p = f->context; p && *p; p++)
            run = *p == '`' ? run + 1 : 0, longest = run > longest ? run : longest;
        size_t fence = longest >= 3 ? longest + 1 : 3;
        sb_printf(&sb, "%.*s\n%s\n%.*s\n\n", (int)fence, "``````````````````````````````",
                  f->context ? f->context : "", (int)fence, "``````````````````````````````");
        char *body = render_result_markdown(f->first, opts);
        sb_puts(&sb, body ? body : "");
        free(body);
        sb_putc(&sb, '\n');
    }
    return sb_finish(&sb);
}

/* ------------------------------------------------------------------ the API */

char *errata_scan_render(const errata_scan *s, errata_format fmt, const char *source,
                         const errata_render_options *opts)
{
    if (!s)
        return NULL;
    switch (fmt) {
    case ERRATA_FORMAT_TEXT: return scan_text(s, source, opts);
    case ERRATA_FORMAT_JSON: return scan_json(s, source);
    case ERRATA_FORMAT_JSONL: return scan_jsonl_summary(s, source);
    case ERRATA_FORMAT_SARIF: return scan_sarif(s, source);
    case ERRATA_FORMAT_GITHUB: return scan_github(s, source);
    case ERRATA_FORMAT_MARKDOWN: return scan_markdown(s, source, opts);
    case ERRATA_FORMAT_HTML: break;
    }
    return NULL;
}

char *errata_finding_render(const errata_finding *f, errata_format fmt, const char *source)
{
    if (!f)
        return NULL;
    strbuf sb;
    sb_init(&sb);
    if (fmt == ERRATA_FORMAT_JSONL) {
        sb_puts(&sb, "{\"type\":\"finding\",\"finding\":");
        finding_json(&sb, NULL, f, 0, source);
        sb_puts(&sb, "}\n");
    } else if (fmt == ERRATA_FORMAT_GITHUB) {
        github_line(&sb, f, source);
    } else {
        sb_free(&sb);
        return NULL;
    }
    return sb_finish(&sb);
}
