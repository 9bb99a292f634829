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
    const char *link_prefix, *link_suffix;
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

/* The escaped URL of a record's page: link_prefix + id + link_suffix. */
static void record_href(page *w, const char *id)
{
    html_escape(w->sb, w->link_prefix);
    html_escape(w->sb, id);
    if (w->link_suffix)
        html_escape(w->sb, w->link_suffix);
}

static void record_link(page *w, const char *id)
{
    if (w->link_prefix) {
        sb_puts(w->sb, "<a href=\"");
        record_href(w, id);
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

/* The chain picture: the records that often come before this one, this one, and those it often
 * leads to, top to bottom with arrows between, each neighbour a link to its page. Top to bottom
 * because ids are long: a node is the picture's full width, so it stays legible when a phone
 * scales the picture down. Sizes are in the viewBox's units; the page's CSS colours it (classes),
 * the attributes are the colours without CSS. */
enum { CHAIN_W = 360, CHAIN_NODE_H = 36, CHAIN_GAP = 6, CHAIN_LABEL_H = 18, CHAIN_ARROW_H = 26,
       CHAIN_SLUG_MAX = 46 /* code points of 12px monospace in the node's width */ };

/* Appends at most max code points of s, escaped, with "…" when some were cut. */
static void esc_truncated(strbuf *sb, const char *s, size_t max)
{
    size_t n = 0, cut = 0;
    for (size_t i = 0; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) == 0x80)
            continue; /* a continuation byte: same code point */
        if (n == max - 1)
            cut = i;
        n++;
    }
    if (n <= max) {
        html_escape(sb, s);
        return;
    }
    char *head = strndup(s, cut);
    html_escape(sb, head ? head : "");
    free(head);
    sb_puts(sb, "…");
}

static void chain_node(page *w, const char *id, int y, bool self)
{
    const char *slash = strchr(id, '/');
    char *domain = slash ? strndup(id, (size_t)(slash - id)) : NULL;
    const char *slug = slash ? slash + 1 : id;
    bool link = !self && w->link_prefix; /* without a prefix there is no page to link to */
    if (link) {
        sb_puts(w->sb, "<a href=\"");
        record_href(w, id);
        sb_puts(w->sb, "\"><title>");
        html_escape(w->sb, id);
        sb_puts(w->sb, "</title>");
    }
    sb_printf(w->sb,
              "<rect class=\"node%s\" x=\"1\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\" "
              "fill=\"#f6f8fa\" stroke=\"#59636e\" stroke-width=\"%d\"/>",
              self ? " self" : "", y, CHAIN_W - 2, CHAIN_NODE_H, self ? 2 : 1);
    sb_printf(w->sb, "<text class=\"domain\" x=\"10\" y=\"%d\" font-size=\"10\">", y + 13);
    html_escape(w->sb, domain ? domain : "");
    sb_printf(w->sb, "</text><text class=\"slug\" x=\"10\" y=\"%d\" font-size=\"12\" "
                     "font-family=\"monospace\">", y + 28);
    esc_truncated(w->sb, slug, CHAIN_SLUG_MAX);
    sb_puts(w->sb, link ? "</text></a>" : "</text>");
    free(domain);
}

static void chain_arrow(page *w, int y)
{
    int x = CHAIN_W / 2, end = y + CHAIN_ARROW_H - 4;
    sb_printf(w->sb,
              "<path class=\"arrow\" d=\"M%d %d V%d M%d %d L%d %d L%d %d Z\" stroke=\"#59636e\" "
              "fill=\"#59636e\" stroke-width=\"1.5\"/>",
              x, y + 4, end - 6, x - 5, end - 7, x + 5, end - 7, x, end);
}

static int chain_group(page *w, const char *label, const rec_edge *edges, size_t n, int y)
{
    sb_printf(w->sb, "<text class=\"label\" x=\"2\" y=\"%d\" font-size=\"11\">%s</text>", y + 12,
              label);
    y += CHAIN_LABEL_H;
    for (size_t i = 0; i < n; i++, y += CHAIN_NODE_H + CHAIN_GAP)
        chain_node(w, edges[i].id, y, false);
    return y;
}

static void chain_svg(page *w, const record *r)
{
    size_t before = r->n_edges[EDGE_PRECEDED_BY], after = r->n_edges[EDGE_LEADS_TO];
    if (!before && !after)
        return;
    int h = CHAIN_NODE_H + 2;
    if (before)
        h += CHAIN_LABEL_H + (int)before * (CHAIN_NODE_H + CHAIN_GAP) + CHAIN_ARROW_H - CHAIN_GAP;
    if (after)
        h += CHAIN_ARROW_H + CHAIN_LABEL_H + (int)after * (CHAIN_NODE_H + CHAIN_GAP) - CHAIN_GAP;
    sb_printf(w->sb,
              "<figure class=\"chain\"><svg class=\"chain\" xmlns=\"http://www.w3.org/2000/svg\" "
              "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"group\" aria-label=\"%s\">",
              CHAIN_W, h, CHAIN_W, h, w->L->chain);
    int y = 0;
    if (before) {
        y = chain_group(w, w->L->before, r->edges[EDGE_PRECEDED_BY], before, y);
        chain_arrow(w, y - CHAIN_GAP);
        y += CHAIN_ARROW_H - CHAIN_GAP;
    }
    chain_node(w, r->id, y + 1, true);
    y += CHAIN_NODE_H + 2;
    if (after) {
        chain_arrow(w, y);
        y += CHAIN_ARROW_H;
        chain_group(w, w->L->next, r->edges[EDGE_LEADS_TO], after, y);
    }
    sb_puts(w->sb, "</svg></figure>");
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
    sb_printf(w->sb, ", %s %.2f, %s %.2f, %s ", w->L->confidence, r->confidence, w->L->fix_rate,
              r->fix_success_rate, w->L->resolvable);
    html_escape(w->sb, r->resolvable);
    sb_puts(w->sb, "</p></section>");
    const char *names[EDGE_KINDS] = {w->L->next, w->L->before, w->L->confused};
    bool any = false;
    for (int k = 0; k < EDGE_KINDS; k++)
        any |= r->n_edges[k] > 0;
    if (!any)
        return;
    sb_puts(w->sb, "<section id=\"graph\">");
    chain_svg(w, r);
    sb_puts(w->sb, "<dl>");
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

/* One record in full. An answer (self_link) names its record with a link to the record's own
 * page; the record page itself does not link to itself. */
static void record_html(page *w, const record *r, bool self_link)
{
    sb_puts(w->sb, "<article class=\"record\"><h2 class=\"record-id\">");
    self_link = self_link && w->link_prefix;
    if (self_link) {
        sb_puts(w->sb, "<a href=\"");
        record_href(w, r->id);
        sb_puts(w->sb, "\">");
    }
    html_escape(w->sb, r->id);
    sb_puts(w->sb, self_link ? "</a></h2>" : "</h2>");
    if (self_link) {
        sb_puts(w->sb, "<p class=\"record-page\"><a href=\"");
        record_href(w, r->id);
        sb_printf(w->sb, "\">%s</a></p>", w->L->record_page);
    }
    sb_puts(w->sb, "<p class=\"signature\"><code>");
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
    w->link_suffix = opts ? opts->link_suffix : NULL;
    w->m = NULL;
}

char *render_record_html(const errata_record *r, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    page w;
    init_page(&w, &sb, opts);
    record_html(&w, r, false);
    return sb_finish(&sb);
}

char *render_result_html(const errata_result *res, const errata_render_options *opts)
{
    strbuf sb;
    sb_init(&sb);
    page w;
    init_page(&w, &sb, opts);
    bool search = opts && opts->search;
    if (res->n == 0) {
        sb_printf(&sb, "<p class=\"none\">%s</p>", search ? w.L->no_hits : w.L->none);
    } else if (search || res->m[0].fuzzy) {
        sb_printf(&sb, "<p class=\"%s\">%s</p><ol class=\"%s\">", search ? "hits-intro" : "guess",
                  search ? w.L->hits : w.L->guess, search ? "hits" : "guesses");
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
        record_html(&w, res->m[0].rec, true);
        sb_puts(&sb, "<p class=\"matched\">");
        sb_printf(&sb, w.L->matched_fmt, res->m[0].line);
        sb_puts(&sb, ": <code>");
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
