/*
 * render_markdown.c — the answer as Markdown, for agents (MCP) and chat.
 *
 * An agent acts on the first lines it reads, so the order is: which error this is, why, what NOT
 * to do (before it tries the obvious thing), what to do with the exact commands, then the facts
 * that qualify it (versions, OS, docs, trust). Commands in `how` go into fenced blocks so they
 * are copied verbatim.
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
    bool zh;
    const errata_match *m; /* for capture placeholders; NULL for a plain record */
} md;

/* One line of prose: newlines inside become spaces so list items stay one item. */
static void inline_text(md *w, const char *text)
{
    char *f = w->m ? fill_placeholders(text, w->m->caps, w->m->n_caps) : NULL;
    for (const char *p = f ? f : text; *p; p++)
        sb_putc(w->sb, *p == '\n' ? ' ' : *p);
    free(f);
}

/* The URLs an item cites, as autolinks (only http(s): anything else stays plain text). */
static void md_sources(md *w, const strvec *urls)
{
    for (size_t i = 0; i < urls->n; i++) {
        bool http = strncmp(urls->v[i], "https://", 8) == 0 ||
                    strncmp(urls->v[i], "http://", 7) == 0;
        if (i)
            sb_puts(w->sb, ", ");
        else
            sb_printf(w->sb, " — %s: ", w->L->sources);
        if (http && !strpbrk(urls->v[i], "<> "))
            sb_printf(w->sb, "<%s>", urls->v[i]);
        else
            inline_text(w, urls->v[i]);
    }
}

static void record_md(md *w, const record *r)
{
    const labels *L = w->L;
    sb_printf(w->sb, "## `%s`\n\n", r->id);
    sb_puts(w->sb, "> ");
    inline_text(w, w->zh && r->signature_zh ? r->signature_zh : r->signature);
    sb_printf(w->sb, "\n\n### %s\n\n", L->root_cause);
    inline_text(w, w->zh && r->root_cause_zh ? r->root_cause_zh : r->root_cause);
    sb_puts(w->sb, "\n\n");
    if (r->n_dead_ends) {
        sb_printf(w->sb, "### %s\n\n", L->avoid);
        for (size_t i = 0; i < r->n_dead_ends; i++) {
            const rec_dead_end *d = &r->dead_ends[i];
            const char *zh = w->zh ? record_dead_end_zh(r, i) : NULL;
            bool why_is_main = !zh && !d->action[0]; /* no action recorded: lead with why */
            sb_printf(w->sb, "- **%s** (%s %.0f%%): ", L->avoid_tag, L->fails, d->fail_rate * 100);
            inline_text(w, zh ? zh : why_is_main ? d->why_fails : d->action);
            if (!zh && !why_is_main && d->why_fails[0]) {
                sb_printf(w->sb, " — %s: ", L->why);
                inline_text(w, d->why_fails);
            }
            if (d->condition[0]) {
                sb_printf(w->sb, " (%s: ", L->when);
                inline_text(w, d->condition);
                sb_putc(w->sb, ')');
            }
            md_sources(w, &d->sources);
            sb_putc(w->sb, '\n');
        }
        sb_putc(w->sb, '\n');
    }
    if (r->n_workarounds) {
        sb_printf(w->sb, "### %s\n\n", L->try_);
        for (size_t k = 0; k < r->n_workarounds; k++) {
            size_t i = record_workaround_at(r, k);
            const rec_workaround *wk = &r->workarounds[i];
            const char *zh = w->zh ? record_workaround_zh(r, i) : NULL;
            const char *action = zh ? zh : wk->action;
            sb_printf(w->sb, "%zu. **%s** (%s %.0f%%): ", k + 1, L->try_tag, L->works,
                      wk->success_rate * 100);
            inline_text(w, action);
            if (wk->condition[0]) {
                sb_printf(w->sb, " (%s: ", L->when);
                inline_text(w, wk->condition);
                sb_putc(w->sb, ')');
            }
            md_sources(w, &wk->sources);
            sb_putc(w->sb, '\n');
            if (wk->how[0] && strcmp(wk->how, wk->action) != 0) {
                sb_puts(w->sb, "\n   ```\n   ");
                char *f = w->m ? fill_placeholders(wk->how, w->m->caps, w->m->n_caps) : NULL;
                for (const char *p = f ? f : wk->how; *p; p++) {
                    sb_putc(w->sb, *p);
                    if (*p == '\n' && p[1])
                        sb_puts(w->sb, "   ");
                }
                free(f);
                sb_puts(w->sb, "\n   ```\n");
            }
        }
        sb_putc(w->sb, '\n');
    }
    if (r->n_versions) {
        sb_printf(w->sb, "### %s\n\n", L->applies);
        for (size_t i = 0; i < r->n_versions; i++) {
            sb_printf(w->sb, "- `%s`", r->versions[i].version);
            if (r->versions[i].status && strcmp(r->versions[i].status, "active") != 0)
                sb_printf(w->sb, " (%s)", r->versions[i].status);
            if (r->versions[i].behavior_change) {
                sb_puts(w->sb, ": ");
                inline_text(w, r->versions[i].behavior_change);
            }
            sb_putc(w->sb, '\n');
        }
        sb_printf(w->sb, "\n%s\n\n", L->unchecked);
    }
    if (r->n_os_specific) {
        sb_printf(w->sb, "### %s\n\n", L->os);
        for (size_t i = 0; i < r->n_os_specific; i++) {
            sb_printf(w->sb, "- **%s**: ", r->os_specific[i].key);
            inline_text(w, r->os_specific[i].value);
            sb_putc(w->sb, '\n');
        }
        sb_putc(w->sb, '\n');
    }
    if (r->official_doc_url)
        sb_printf(w->sb, "%s: <%s>\n\n", L->docs, r->official_doc_url);
    sb_printf(w->sb, "%s: %s, confidence %.2f, fix rate %.2f, resolvable %s\n", L->trust,
              r->verification_tier, r->confidence, r->fix_success_rate, r->resolvable);
    const char *names[EDGE_KINDS] = {L->next, L->before, L->confused};
    for (int k = 0; k < EDGE_KINDS; k++) {
        if (!r->n_edges[k])
            continue;
        sb_printf(w->sb, "\n%s: ", names[k]);
        for (size_t i = 0; i < r->n_edges[k]; i++)
            sb_printf(w->sb, "%s`%s`", i ? ", " : "", r->edges[k][i].id);
        sb_putc(w->sb, '\n');
    }
}

char *render_record_markdown(const errata_record *r, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    errata_lang lang = opts ? opts->lang : ERRATA_LANG_EN;
    md w = {&sb, render_labels(lang), lang == ERRATA_LANG_ZH, NULL};
    record_md(&w, r);
    return sb_finish(&sb);
}

char *render_result_markdown(const errata_result *res, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    errata_lang lang = opts ? opts->lang : ERRATA_LANG_EN;
    md w = {&sb, render_labels(lang), lang == ERRATA_LANG_ZH, NULL};
    if (res->n == 0) {
        sb_printf(&sb, "%s\n", w.L->none);
    } else if (res->m[0].fuzzy) {
        sb_printf(&sb, "%s\n\n", w.L->guess);
        for (size_t i = 0; i < res->n; i++) {
            const record *r = res->m[i].rec;
            sb_printf(&sb, "%zu. `%s` — ", i + 1, r->id);
            inline_text(&w, w.zh && r->signature_zh ? r->signature_zh : r->signature);
            sb_putc(&sb, '\n');
        }
    } else {
        const errata_match *top = &res->m[0];
        w.m = top;
        record_md(&w, top->rec);
        sb_printf(&sb, "\nMatched line %zu: `", top->line);
        size_t n = strcspn(top->text, "\n`");
        sb_append(&sb, top->text, n < 200 ? n : 200);
        sb_puts(&sb, "`\n");
        w.m = NULL;
        if (res->n > 1) {
            sb_printf(&sb, "\n### %s\n\n", w.L->also);
            for (size_t i = 1; i < res->n; i++) {
                const record *r = res->m[i].rec;
                sb_printf(&sb, "- `%s` — ", r->id);
                inline_text(&w, w.zh && r->signature_zh ? r->signature_zh : r->signature);
                sb_printf(&sb, " (line %zu)\n", res->m[i].line);
            }
        }
    }
    for (size_t i = 0; i < res->n_warnings; i++)
        sb_printf(&sb, "\n> warning: %s\n", res->warnings[i]);
    return sb_finish(&sb);
}
