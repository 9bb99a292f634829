/*
 * render_text.c — the answer as a person reads it in a terminal.
 *
 * The best match is shown in full: what it is, why it happens, what not to try, what to try
 * (with the user's own captured names filled in), where it applies, where to read more and how
 * much to trust it. Other matches follow as one line each, so the screen leads with one answer.
 */
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "lookup.h"
#include "placeholder.h"
#include "render_labels.h"
#include "strbuf.h"

typedef struct {
    strbuf *sb;
    const labels *L;
    bool color;
    bool zh;
} printer;

static void style(printer *p, const char *code)
{
    if (p->color)
        sb_printf(p->sb, "\033[%sm", code);
}

static void heading(printer *p, const char *text)
{
    sb_putc(p->sb, '\n');
    style(p, "1");
    sb_puts(p->sb, text);
    style(p, "0");
    sb_putc(p->sb, '\n');
}

/* Writes text indented by `indent` spaces, continuing lines indented the same. */
static void indented(printer *p, int indent, const char *text, const errata_match *m)
{
    char *filled = m ? fill_placeholders(text, m->caps, m->n_caps) : NULL;
    const char *s = filled ? filled : text;
    sb_printf(p->sb, "%*s", indent, "");
    for (; *s; s++) {
        sb_putc(p->sb, *s);
        if (*s == '\n' && s[1])
            sb_printf(p->sb, "%*s", indent, "");
    }
    sb_putc(p->sb, '\n');
    free(filled);
}

static void sources(printer *p, const strvec *urls)
{
    if (!urls->n)
        return;
    sb_printf(p->sb, "        %s:", p->L->sources);
    for (size_t i = 0; i < urls->n; i++)
        sb_printf(p->sb, "%s %s", i ? "," : "", urls->v[i]);
    sb_putc(p->sb, '\n');
}

static void dead_ends(printer *p, const record *r, const errata_match *m)
{
    if (r->n_dead_ends == 0)
        return;
    heading(p, p->L->avoid);
    for (size_t i = 0; i < r->n_dead_ends; i++) {
        const rec_dead_end *d = &r->dead_ends[i];
        const char *zh = p->zh ? record_dead_end_zh(r, i) : NULL;
        style(p, "31");
        sb_printf(p->sb, "  %s", p->L->avoid_tag);
        style(p, "0");
        sb_printf(p->sb, " (%s %.0f%%) ", p->L->fails, d->fail_rate * 100);
        /* A dead end recorded without its action still says why it fails: lead with that. */
        bool why_is_main = !zh && !d->action[0];
        indented(p, 0, zh ? zh : why_is_main ? d->why_fails : d->action, m);
        if (!zh && !why_is_main && d->why_fails[0]) {
            sb_printf(p->sb, "        %s: ", p->L->why);
            indented(p, 0, d->why_fails, m);
        }
        if (d->condition[0]) {
            sb_printf(p->sb, "        %s: ", p->L->when);
            indented(p, 0, d->condition, m);
        }
        sources(p, &d->sources);
    }
}

static void workarounds(printer *p, const record *r, const errata_match *m)
{
    if (r->n_workarounds == 0)
        return;
    heading(p, p->L->try_);
    for (size_t k = 0; k < r->n_workarounds; k++) {
        size_t i = record_workaround_at(r, k);
        const rec_workaround *w = &r->workarounds[i];
        const char *zh = p->zh ? record_workaround_zh(r, i) : NULL;
        style(p, "32");
        sb_printf(p->sb, "  %s %zu", p->L->try_tag, k + 1);
        style(p, "0");
        sb_printf(p->sb, " (%s %.0f%%) ", p->L->works, w->success_rate * 100);
        indented(p, 0, zh ? zh : w->action, m);
        if (w->how[0] && strcmp(w->how, w->action) != 0) {
            sb_printf(p->sb, "        %s:\n", p->L->how);
            indented(p, 10, w->how, m);
        }
        if (w->condition[0]) {
            sb_printf(p->sb, "        %s: ", p->L->when);
            indented(p, 0, w->condition, m);
        }
        sources(p, &w->sources);
    }
}

/* The record's versions are what it concerns, not a verdict on the reader's machine: a verdict
 * needs an environment (applicability_line), so without one the answer says it did not check. */
static void versions_and_os(printer *p, const record *r, bool env_given)
{
    if (r->n_versions) {
        heading(p, p->L->applies);
        for (size_t i = 0; i < r->n_versions; i++) {
            const rec_version *v = &r->versions[i];
            sb_printf(p->sb, "  %s", v->version);
            if (v->status && strcmp(v->status, "active") != 0)
                sb_printf(p->sb, " (%s)", v->status);
            if (v->introduced)
                sb_printf(p->sb, ", introduced %s", v->introduced);
            if (v->deprecated)
                sb_printf(p->sb, ", deprecated %s", v->deprecated);
            if (v->removed)
                sb_printf(p->sb, ", removed %s", v->removed);
            sb_putc(p->sb, '\n');
            if (v->behavior_change)
                indented(p, 4, v->behavior_change, NULL);
        }
        if (!env_given)
            indented(p, 2, p->L->unchecked, NULL);
    }
    if (r->n_os_specific) {
        heading(p, p->L->os);
        for (size_t i = 0; i < r->n_os_specific; i++) {
            sb_printf(p->sb, "  %s: ", r->os_specific[i].key);
            indented(p, 0, r->os_specific[i].value, NULL);
        }
    }
}

static void edges(printer *p, const record *r)
{
    const char *names[EDGE_KINDS] = {p->L->next, p->L->before, p->L->confused};
    for (int k = 0; k < EDGE_KINDS; k++) {
        if (r->n_edges[k] == 0)
            continue;
        sb_printf(p->sb, "%s: ", names[k]);
        for (size_t i = 0; i < r->n_edges[k]; i++) {
            sb_printf(p->sb, "%s%s", i ? ", " : "", r->edges[k][i].id);
            if (r->edges[k][i].has_probability)
                sb_printf(p->sb, " (%.0f%%)", r->edges[k][i].probability * 100);
        }
        sb_putc(p->sb, '\n');
    }
}

static void record_body(printer *p, const record *r, const errata_match *m, bool env_given)
{
    style(p, "1;36");
    sb_puts(p->sb, r->id);
    style(p, "0");
    sb_putc(p->sb, '\n');
    indented(p, 2, p->zh && r->signature_zh ? r->signature_zh : r->signature, NULL);
    heading(p, p->L->root_cause);
    indented(p, 2, p->zh && r->root_cause_zh ? r->root_cause_zh : r->root_cause, NULL);
    dead_ends(p, r, m);
    workarounds(p, r, m);
    versions_and_os(p, r, env_given);
    sb_putc(p->sb, '\n');
    if (r->official_doc_url)
        sb_printf(p->sb, "%s: %s%s%s\n", p->L->docs, r->official_doc_url,
                  r->official_doc_section ? " — " : "",
                  r->official_doc_section ? r->official_doc_section : "");
    sb_printf(p->sb, "%s: %s, confidence %.2f, fix rate %.2f, resolvable %s\n", p->L->trust,
              r->verification_tier, r->confidence, r->fix_success_rate, r->resolvable);
    edges(p, r);
}

static void applicability_line(printer *p, const applicability *a)
{
    const char *head = a->state == ERRATA_APPLICABILITY_APPLIES        ? "Applies to you"
                       : a->state == ERRATA_APPLICABILITY_NOT_AFFECTED ? "Does NOT apply to you"
                                                                        : "Applies to you: unknown";
    style(p, a->state == ERRATA_APPLICABILITY_NOT_AFFECTED ? "33" : "1");
    sb_puts(p->sb, head);
    style(p, "0");
    sb_printf(p->sb, " — %s%s%s%s\n", a->reason ? a->reason : "", a->source ? " (" : "",
              a->source ? a->source : "", a->source ? ")" : "");
    if (a->os_note)
        sb_printf(p->sb, "On %s: %s\n", a->os_key, a->os_note);
}

static void init_printer(printer *p, strbuf *sb, const errata_render_options *opts)
{
    p->sb = sb;
    p->zh = opts && opts->lang == ERRATA_LANG_ZH;
    p->L = render_labels(opts ? opts->lang : ERRATA_LANG_EN);
    p->color = opts && opts->color;
}

static void explain(printer *p, const errata_match *m)
{
    const score_parts *s = &m->parts;
    sb_printf(p->sb,
              "     %s %.2f = specificity %.0f × %.1f  %+.1f (line %zu: %s)  + position %.2f × "
              "%.1f  + domain fit %s  + confidence %.2f × %.1f  + fix rate %.2f × %.1f\n",
              p->L->explain, m->score, s->specificity, RANK_W_SPECIFICITY, s->role_bonus, m->line,
              line_role_name(s->role), s->position, RANK_W_POSITION,
              s->domain_fit ? "yes (+3.0)" : "no (+0)", s->confidence, RANK_W_CONFIDENCE,
              s->fix_success_rate, RANK_W_FIX_RATE);
}

char *render_result_text(const errata_result *res, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    printer p;
    init_printer(&p, &sb, opts);
    if (res->n == 0) {
        sb_printf(&sb, "%s\n", p.L->none);
    } else if (res->m[0].fuzzy) {
        sb_printf(&sb, "%s\n", p.L->guess);
        for (size_t i = 0; i < res->n; i++) {
            const record *r = res->m[i].rec;
            sb_printf(&sb, "  %zu. %s — %s\n     %s: errata show %s\n", i + 1, r->id,
                      p.zh && r->signature_zh ? r->signature_zh : r->signature, p.L->show, r->id);
        }
    } else {
        const errata_match *top = &res->m[0];
        record_body(&p, top->rec, top, res->has_env);
        if (res->has_env)
            applicability_line(&p, &top->app);
        sb_printf(&sb, "Matched line %zu: %.*s\n", top->line,
                  (int)(strcspn(top->text, "\n") < 200 ? strcspn(top->text, "\n") : 200),
                  top->text);
        if (top->parts.cause_of)
            sb_printf(&sb, p.L->cause_of_fmt, top->parts.cause_of->id, top->parts.cause_of_line);
        if (opts && opts->explain)
            explain(&p, top);
        if (res->n > 1)
            heading(&p, p.L->also);
        for (size_t i = 1; i < res->n; i++) {
            const errata_match *m = &res->m[i];
            sb_printf(&sb, "  %zu. %s — %s (line %zu)\n", i + 1, m->rec->id,
                      p.zh && m->rec->signature_zh ? m->rec->signature_zh : m->rec->signature,
                      m->line);
            if (opts && opts->explain)
                explain(&p, m);
        }
    }
    for (size_t i = 0; i < res->n_warnings; i++)
        sb_printf(&sb, "warning: %s\n", res->warnings[i]);
    return sb_finish(&sb);
}

char *render_record_text(const errata_record *r, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    printer p;
    init_printer(&p, &sb, opts);
    record_body(&p, r, NULL, false);
    return sb_finish(&sb);
}
