/*
 * render_html.c — the answer and records as HTML fragments for the web pages.
 *
 * Every text from a record or from the user's input is escaped: a record (or a paste) may hold
 * "<script>" and must show it, not run it. The markup carries ids and classes the page's CSS and
 * the browser test rely on (docs/http-api.md, "Web pages").
 */
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "html.h"
#include "lookup.h"
#include "placeholder.h"
#include "render_labels.h"

typedef struct {
    strbuf *sb;
    const labels *L;
    bool zh;
    const char *link_prefix;
    const errata_match *m;
} page;

static void esc_filled(page *w, const char *text)
{
    char *f = w->m ? fill_placeholders(text, w->m->caps, w->m->n_caps) : NULL;
    html_escape(w->sb, f ? f : text);
    free(f);
}

/* A URL from a record, as a link only when it is http(s): validate refuses other schemes, but
 * an index built before that rule, or by another tool, must still never turn javascript: or
 * data: into something a click runs. */
static void url_link(page *w, const char *url)
{
    bool http = strncmp(url, "https://", 8) == 0 || strncmp(url, "http://", 7) == 0;
    if (http) {
        sb_puts(w->sb, "<a href=\"");
        html_escape(w->sb, url);
        sb_puts(w->sb, "\" rel=\"noopener\">");
    }
    html_escape(w->sb, url);
    if (http)
        sb_puts(w->sb, "</a>");
}

static void sources(page *w, const strvec *urls)
{
    if (!urls->n)
        return;
    sb_printf(w->sb, "<p class=\"sources\">%s: ", w->L->sources);
    for (size_t i = 0; i < urls->n; i++) {
        if (i)
            sb_puts(w->sb, ", ");
        url_link(w, urls->v[i]);
    }
    sb_puts(w->sb, "</p>");
}

static void record_link(page *w, const char *id)
{
    if (w->link_prefix) {
        sb_puts(w->sb, "<a href=\"");
        html_escape(w->sb, w->link_prefix);
        html_escape(w->sb, id);
        sb_puts(w->sb, "\"><code>");
        html_escape(w->sb, id);
        sb_puts(w->sb, "</code></a>");
    } else {
        sb_puts(w->sb, "<code>");
        html_escape(w->sb, id);
        sb_puts(w->sb, "</code>");
    }
}

/* <p class="CLS">LABEL: TEXT</p>, TEXT filled in and escaped. */
static void labelled(page *w, const char *cls, const char *label, const char *text)
{
    sb_printf(w->sb, "<p class=\"%s\">%s: ", cls, label);
    esc_filled(w, text);
    sb_puts(w->sb, "</p>");
}

static void dead_ends(page *w, const record *r)
{
    if (!r->n_dead_ends)
        return;
    sb_printf(w->sb, "<section id=\"dead-ends\"><h3>%s</h3><ul>", w->L->avoid);
    for (size_t i = 0; i < r->n_dead_ends; i++) {
        const rec_dead_end *d = &r->dead_ends[i];
        const char *zh = w->zh ? record_dead_end_zh(r, i) : NULL;
        bool why_is_main = !zh && !d->action[0]; /* no action recorded: lead with why */
        sb_printf(w->sb,
                  "<li class=\"dead-end\"><span class=\"tag avoid\">%s</span> "
                  "<span class=\"rate\">%s %.0f%%</span> <span class=\"action\">",
                  w->L->avoid_tag, w->L->fails, d->fail_rate * 100);
        esc_filled(w, zh ? zh : why_is_main ? d->why_fails : d->action);
        sb_puts(w->sb, "</span>");
        if (!zh && !why_is_main && d->why_fails[0]) {
            labelled(w, "why", w->L->why, d->why_fails);
        }
        if (d->condition[0])
            labelled(w, "when", w->L->when, d->condition);
        sources(w, &d->sources);
        sb_puts(w->sb, "</li>");
    }
    sb_puts(w->sb, "</ul></section>");
}

static void workarounds(page *w, const record *r)
{
    if (!r->n_workarounds)
        return;
    sb_printf(w->sb, "<section id=\"workarounds\"><h3>%s</h3><ol>", w->L->try_);
    for (size_t k = 0; k < r->n_workarounds; k++) {
        size_t i = record_workaround_at(r, k);
        const rec_workaround *wk = &r->workarounds[i];
        const char *zh = w->zh ? record_workaround_zh(r, i) : NULL;
        const char *action = zh ? zh : wk->action;
        sb_printf(w->sb,
                  "<li class=\"workaround\"><span class=\"tag try\">%s</span> "
                  "<span class=\"rate\">%s %.0f%%</span> <span class=\"action\">",
                  w->L->try_tag, w->L->works, wk->success_rate * 100);
        esc_filled(w, action);
        sb_puts(w->sb, "</span>");
        if (wk->how[0] && strcmp(wk->how, wk->action) != 0) {
            sb_puts(w->sb, "<pre class=\"how\"><code>");
            esc_filled(w, wk->how);
            sb_puts(w->sb, "</code></pre>");
        }
        if (wk->condition[0])
            labelled(w, "when", w->L->when, wk->condition);
        sources(w, &wk->sources);
        sb_puts(w->sb, "</li>");
    }
    sb_puts(w->sb, "</ol></section>");
}

static void facts(page *w, const record *r)
{
    if (r->n_versions) {
        sb_printf(w->sb, "<section id=\"versions\"><h3>%s</h3><ul>", w->L->applies);
        for (size_t i = 0; i < r->n_versions; i++) {
            const rec_version *v = &r->versions[i];
            sb_puts(w->sb, "<li><code>");
            html_escape(w->sb, v->version);
            sb_puts(w->sb, "</code>");
            if (v->status && strcmp(v->status, "active") != 0) {
                sb_puts(w->sb, " (");
                html_escape(w->sb, v->status);
                sb_puts(w->sb, ")");
            }
            if (v->behavior_change) {
                sb_puts(w->sb, ": ");
                html_escape(w->sb, v->behavior_change);
            }
            sb_puts(w->sb, "</li>");
        }
        sb_printf(w->sb, "</ul><p class=\"unchecked\">%s</p></section>", w->L->unchecked);
    }
    if (r->n_os_specific) {
        sb_printf(w->sb, "<section id=\"os-notes\"><h3>%s</h3><dl>", w->L->os);
        for (size_t i = 0; i < r->n_os_specific; i++) {
            sb_puts(w->sb, "<dt>");
            html_escape(w->sb, r->os_specific[i].key);
            sb_puts(w->sb, "</dt><dd>");
            html_escape(w->sb, r->os_specific[i].value);
            sb_puts(w->sb, "</dd>");
        }
        sb_puts(w->sb, "</dl></section>");
    }
    sb_puts(w->sb, "<section id=\"trust\"><p>");
    if (r->official_doc_url) {
        sb_printf(w->sb, "%s: ", w->L->docs);
        url_link(w, r->official_doc_url);
        sb_puts(w->sb, "<br>");
    }
    sb_printf(w->sb, "%s: ", w->L->trust);
    html_escape(w->sb, r->verification_tier);
    sb_printf(w->sb, ", confidence %.2f, fix rate %.2f, resolvable ", r->confidence,
              r->fix_success_rate);
    html_escape(w->sb, r->resolvable);
    sb_puts(w->sb, "</p></section>");
    const char *names[EDGE_KINDS] = {w->L->next, w->L->before, w->L->confused};
    bool any = false;
    for (int k = 0; k < EDGE_KINDS; k++)
        any |= r->n_edges[k] > 0;
    if (!any)
        return;
    sb_puts(w->sb, "<section id=\"graph\"><dl>");
    for (int k = 0; k < EDGE_KINDS; k++) {
        if (!r->n_edges[k])
            continue;
        sb_printf(w->sb, "<dt>%s</dt><dd>", names[k]);
        for (size_t i = 0; i < r->n_edges[k]; i++) {
            if (i)
                sb_puts(w->sb, ", ");
            record_link(w, r->edges[k][i].id);
        }
        sb_puts(w->sb, "</dd>");
    }
    sb_puts(w->sb, "</dl></section>");
}

static void record_html(page *w, const record *r)
{
    sb_puts(w->sb, "<article class=\"record\"><h2 class=\"record-id\">");
    html_escape(w->sb, r->id);
    sb_puts(w->sb, "</h2><p class=\"signature\"><code>");
    html_escape(w->sb, w->zh && r->signature_zh ? r->signature_zh : r->signature);
    sb_printf(w->sb, "</code></p><section id=\"root-cause\"><h3>%s</h3><p>", w->L->root_cause);
    html_escape(w->sb, w->zh && r->root_cause_zh ? r->root_cause_zh : r->root_cause);
    sb_puts(w->sb, "</p></section>");
    dead_ends(w, r);
    workarounds(w, r);
    facts(w, r);
    sb_puts(w->sb, "</article>");
}

static void init_page(page *w, strbuf *sb, const errata_render_options *opts)
{
    errata_lang lang = opts ? opts->lang : ERRATA_LANG_EN;
    w->sb = sb;
    w->L = render_labels(lang);
    w->zh = lang == ERRATA_LANG_ZH;
    w->link_prefix = opts ? opts->link_prefix : NULL;
    w->m = NULL;
}

char *render_record_html(const errata_record *r, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    page w;
    init_page(&w, &sb, opts);
    record_html(&w, r);
    return sb_finish(&sb);
}

char *render_result_html(const errata_result *res, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    page w;
    init_page(&w, &sb, opts);
    if (res->n == 0) {
        sb_printf(&sb, "<p class=\"none\">%s</p>", w.L->none);
    } else if (res->m[0].fuzzy) {
        sb_printf(&sb, "<p class=\"guess\">%s</p><ol class=\"guesses\">", w.L->guess);
        for (size_t i = 0; i < res->n; i++) {
            const record *r = res->m[i].rec;
            sb_puts(&sb, "<li>");
            record_link(&w, r->id);
            sb_puts(&sb, " — ");
            html_escape(&sb, w.zh && r->signature_zh ? r->signature_zh : r->signature);
            sb_puts(&sb, "</li>");
        }
        sb_puts(&sb, "</ol>");
    } else {
        w.m = &res->m[0];
        record_html(&w, res->m[0].rec);
        sb_printf(&sb, "<p class=\"matched\">Matched line %zu: <code>", res->m[0].line);
        html_escape(&sb, res->m[0].text);
        sb_puts(&sb, "</code></p>");
        w.m = NULL;
        if (res->n > 1) {
            sb_printf(&sb, "<section id=\"also\"><h3>%s</h3><ul>", w.L->also);
            for (size_t i = 1; i < res->n; i++) {
                const record *r = res->m[i].rec;
                sb_puts(&sb, "<li>");
                record_link(&w, r->id);
                sb_puts(&sb, " — ");
                html_escape(&sb, w.zh && r->signature_zh ? r->signature_zh : r->signature);
                sb_puts(&sb, "</li>");
            }
            sb_puts(&sb, "</ul></section>");
        }
    }
    for (size_t i = 0; i < res->n_warnings; i++) {
        sb_puts(&sb, "<p class=\"warning\">");
        html_escape(&sb, res->warnings[i]);
        sb_puts(&sb, "</p>");
    }
    return sb_finish(&sb);
}
