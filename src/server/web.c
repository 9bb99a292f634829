/*
 * web.c — the web pages: paste an error and read the answer, search the records, a page per
 * record, the domain listings, in English or Chinese (?lang=zh). The pages are plain HTML
 * rendered here around fragments liberrata renders, with the words liberrata holds for each
 * language (errata_web_words); they work without JavaScript, and a little JavaScript
 * (assets/app.js) sends long pastes with POST instead of in the URL, submits on Ctrl+Enter and
 * scrolls the answer into view.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "html.h"
#include "handlers.h"
#include "params.h"
#include "strbuf.h"

/* What every page of one request shares: its language and where it is. */
typedef struct {
    errata_lang lang;
    const errata_page_words *W;
    const char *path; /* the request's path, for the language switch */
    const char *q;    /* the request's q, kept by the language switch; NULL for none */
} web;

static web web_for(const http_request *req)
{
    web w = {ERRATA_LANG_EN, NULL, req->path, http_arg(req, "q")};
    /* an unknown language shows the page in English rather than an error: a person reads it */
    if (!server_parse_lang(http_arg(req, "lang"), &w.lang))
        w.lang = ERRATA_LANG_EN;
    w.W = errata_web_words(w.lang);
    return w;
}

static const char *lang_code(errata_lang lang) { return lang == ERRATA_LANG_ZH ? "zh" : "en"; }

/* The query suffix every link of a page carries to stay in its language. */
static const char *lang_suffix(const web *w) { return w->lang == ERRATA_LANG_ZH ? "?lang=zh" : ""; }

static errata_render_options links(const web *w)
{
    errata_render_options ro = {.lang = w->lang, .link_prefix = "/records/",
                                .domain_link_prefix = "/domains/"};
    if (w->lang == ERRATA_LANG_ZH)
        ro.link_suffix = "?lang=zh";
    return ro;
}

/* Percent-encodes s for a URL, keeping RFC 3986's unreserved characters (and '/' in a path): the
 * result holds nothing HTML needs escaped. */
static void url_escape(strbuf *sb, const char *s, bool path)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~", *p) || (path && *p == '/')) {
            sb_putc(sb, (char)*p);
        } else {
            sb_putc(sb, '%');
            sb_putc(sb, hex[*p >> 4]);
            sb_putc(sb, hex[*p & 15]);
        }
    }
}

/* The same page in the other language: its path, its q, the other lang. */
static void lang_switch(strbuf *sb, const web *w)
{
    const errata_page_words *W = w->W;
    sb_puts(sb, "<a id=\"lang-switch\" href=\"");
    url_escape(sb, w->path, true);
    const char *sep = "?";
    if (w->q && *w->q && strlen(w->q) <= 2000) { /* a long paste does not fit in a link */
        sb_puts(sb, "?q=");
        url_escape(sb, w->q, false);
        sep = "&amp;";
    }
    if (w->lang == ERRATA_LANG_EN)
        sb_printf(sb, "%slang=zh", sep);
    sb_printf(sb, "\" hreflang=\"%s\" lang=\"%s\">", W->other_lang_code, W->other_lang_code);
    html_escape(sb, W->other_lang);
    sb_puts(sb, "</a>");
}

static char *page(const web *w, const char *title, const char *body)
{
    const errata_page_words *W = w->W;
    const char *sfx = lang_suffix(w);
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb,
              "<!doctype html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\">"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
              "<meta name=\"color-scheme\" content=\"light dark\"><title>",
              lang_code(w->lang));
    html_escape(&sb, title);
    sb_printf(&sb,
              " — Errata</title><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>"
              "<body><header><a class=\"brand\" href=\"/%s\">Errata</a><nav>"
              "<a href=\"/%s\">%s</a><a href=\"/search%s\">%s</a><a href=\"/domains%s\">%s</a>",
              sfx, sfx, W->nav_lookup, sfx, W->nav_search, sfx, W->nav_domains);
    lang_switch(&sb, w);
    sb_puts(&sb, "</nav></header><main>");
    sb_puts(&sb, body);
    sb_printf(&sb, "</main><footer>%s <a href=\"/openapi.json\">%s</a></footer>"
                   "<script src=\"/assets/app.js\" defer></script></body></html>\n",
              W->footer, W->api);
    return sb_finish(&sb);
}

static void html(http_response *res, unsigned status, const web *w, const char *title, char *body)
{
    http_set(res, status, "text/html; charset=utf-8", page(w, title, body ? body : ""));
    free(body);
}

static void not_found(http_response *res, const web *w, const char *what)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "<h1>%s</h1><p>", w->W->not_found);
    html_escape(&sb, what);
    sb_puts(&sb, "</p>");
    html(res, 404, w, w->W->not_found, sb_finish(&sb));
}

/* The search box; value (may be NULL) fills it in. */
static void search_form(strbuf *sb, const web *w, const char *id, const char *value)
{
    const errata_page_words *W = w->W;
    sb_printf(sb,
              "<form id=\"%s\" class=\"search-form\" method=\"get\" action=\"/search\" "
              "role=\"search\"><label for=\"%s-text\">%s</label><div class=\"row\">"
              "<input id=\"%s-text\" type=\"search\" name=\"q\" value=\"",
              id, id, W->search_label, id);
    if (value)
        html_escape(sb, value);
    sb_printf(sb, "\"><button type=\"submit\">%s</button></div>", W->search_button);
    if (w->lang == ERRATA_LANG_ZH)
        sb_puts(sb, "<input type=\"hidden\" name=\"lang\" value=\"zh\">");
    sb_puts(sb, "</form>");
}

/* When no pattern matched: the search box, filled in with the text when it is one short line,
 * and how to add the record that is missing. */
static void no_match(strbuf *sb, const web *w, const char *text, size_t len)
{
    const errata_page_words *W = w->W;
    char *line = NULL;
    if (len <= 200 && !memchr(text, '\n', len) && !memchr(text, '\0', len))
        line = strndup(text, len);
    sb_printf(sb, "<section id=\"no-match\"><p>%s</p>", W->no_match_search);
    search_form(sb, w, "no-match-search", line);
    sb_printf(sb, "<h3>%s</h3><p class=\"contribute\">%s</p></section>", W->contribute_heading,
              W->contribute);
    free(line);
}

static char *lookup_fragment(errata_db *db, const web *w, const char *text, size_t len)
{
    errata_result *r = NULL;
    errata_error err = {0};
    strbuf sb;
    sb_init(&sb);
    if (errata_lookup(db, text, len, NULL, &r, &err) != ERRATA_OK) {
        sb_puts(&sb, "<p class=\"error\">");
        html_escape(&sb, err.message);
        sb_puts(&sb, "</p>");
        return sb_finish(&sb);
    }
    errata_render_options ro = links(w);
    char *frag = errata_result_render(r, ERRATA_FORMAT_HTML, &ro);
    sb_puts(&sb, frag ? frag : "");
    free(frag);
    /* guesses are not matches either: the search and a new record may still be what helps */
    if (errata_result_count(r) == 0 || errata_match_is_fuzzy(errata_result_match(r, 0)))
        no_match(&sb, w, text, len);
    errata_result_free(r);
    return sb_finish(&sb);
}

static void home(errata_db *db, const web *w, http_response *res)
{
    const errata_page_words *W = w->W;
    strbuf sb;
    sb_init(&sb);
    /* the #answer in the action: without JavaScript the browser scrolls to the answer */
    sb_printf(&sb,
              "<h1>%s</h1><form id=\"lookup-form\" method=\"get\" action=\"/#answer\">"
              "<label for=\"error-text\">%s</label><textarea id=\"error-text\" name=\"q\" "
              "rows=\"10\" spellcheck=\"false\" aria-describedby=\"lookup-hint\" "
              "placeholder=\"ModuleNotFoundError: No module named 'torch'\">",
              W->lookup_heading, W->lookup_label);
    if (w->q)
        html_escape(&sb, w->q);
    sb_printf(&sb, "</textarea><div class=\"row\"><button id=\"lookup-submit\" type=\"submit\">%s"
                   "</button><span id=\"lookup-hint\" class=\"hint\">%s</span></div>",
              W->lookup_button, W->lookup_hint);
    if (w->lang == ERRATA_LANG_ZH)
        sb_puts(&sb, "<input type=\"hidden\" name=\"lang\" value=\"zh\">");
    sb_puts(&sb, "</form><div id=\"answer\" tabindex=\"-1\" aria-live=\"polite\">");
    if (w->q && *w->q) {
        char *frag = lookup_fragment(db, w, w->q, strlen(w->q));
        sb_puts(&sb, frag ? frag : "");
        free(frag);
    }
    sb_puts(&sb, "</div>");
    html(res, 200, w, W->lookup_title, sb_finish(&sb));
}

static void search_page(errata_db *db, const web *w, http_response *res)
{
    const errata_page_words *W = w->W;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "<h1>%s</h1>", W->search_heading);
    search_form(&sb, w, "search-form", w->q);
    sb_puts(&sb, "<div id=\"answer\" tabindex=\"-1\">");
    const char *q = w->q;
    size_t n = q ? strspn(q, " \t\r\n") : 0;
    if (q && q[n]) {
        errata_result *r = NULL;
        errata_error err = {0};
        if (errata_search(db, q, strlen(q), 20, &r, &err) != ERRATA_OK) {
            sb_puts(&sb, "<p class=\"error\">");
            html_escape(&sb, err.message);
            sb_puts(&sb, "</p>");
        } else {
            errata_render_options ro = links(w);
            ro.search = 1;
            char *frag = errata_result_render(r, ERRATA_FORMAT_HTML, &ro);
            sb_puts(&sb, frag ? frag : "");
            free(frag);
            errata_result_free(r);
        }
    }
    sb_puts(&sb, "</div>");
    html(res, 200, w, W->search_title, sb_finish(&sb));
}

static void record_page(errata_db *db, const web *w, const char *id, http_response *res)
{
    const errata_record *r;
    errata_error err = {0};
    if (errata_get_record(db, id, &r, &err) != ERRATA_OK)
        return not_found(res, w, err.message);
    errata_render_options ro = links(w);
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "<p class=\"crumbs\"><a href=\"/domains/");
    html_escape(&sb, errata_record_domain(r));
    sb_printf(&sb, "%s\">", lang_suffix(w));
    html_escape(&sb, errata_record_domain(r));
    sb_puts(&sb, "</a></p>");
    char *frag = errata_record_render(r, ERRATA_FORMAT_HTML, &ro);
    sb_puts(&sb, frag ? frag : "");
    free(frag);
    html(res, 200, w, errata_record_id(r), sb_finish(&sb));
}

static void domains_page(errata_db *db, const web *w, const char *domain, http_response *res)
{
    char *frag = NULL;
    errata_error err = {0};
    errata_render_options ro = links(w);
    errata_code rc = domain ? errata_domain_records(db, domain, ERRATA_FORMAT_HTML, &ro, &frag, &err)
                            : errata_domains(db, ERRATA_FORMAT_HTML, &ro, &frag, &err);
    if (rc != ERRATA_OK)
        return not_found(res, w, err.message);
    const char *title = domain ? domain : w->W->domains_title;
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "<h1>");
    html_escape(&sb, title);
    sb_puts(&sb, "</h1>");
    sb_puts(&sb, frag);
    free(frag);
    html(res, 200, w, title, sb_finish(&sb));
}

static void asset(http_response *res, const unsigned char *data, size_t len, const char *type)
{
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, data, len);
        copy[len] = '\0';
    }
    http_set(res, 200, type, copy);
    res->len = len;
}

int web_route(errata_db *db, const http_request *req, http_response *res)
{
    const char *p = req->path;
    bool get = strcmp(req->method, "GET") == 0 || strcmp(req->method, "HEAD") == 0;
    if (strcmp(p, "/fragments/lookup") == 0) {
        if (strcmp(req->method, "POST") != 0) {
            http_error(res, 405, "method_not_allowed", "POST the error text");
            res->allow = "POST";
        } else {
            web w = web_for(req);
            w.q = NULL;
            http_set(res, 200, "text/html; charset=utf-8",
                     lookup_fragment(db, &w, req->body, req->body_len));
        }
        return 1;
    }
    if (strcmp(p, "/favicon.ico") == 0) {
        http_set(res, 204, NULL, NULL); /* no icon: say so without an error */
        return 1;
    }
    bool mine = strcmp(p, "/") == 0 || strcmp(p, "/search") == 0 ||
                strncmp(p, "/records/", 9) == 0 || strcmp(p, "/domains") == 0 ||
                strncmp(p, "/domains/", 9) == 0 || strncmp(p, "/assets/", 8) == 0 ||
                strcmp(p, "/openapi.json") == 0;
    if (!mine)
        return 0;
    if (!get) {
        http_error(res, 405, "method_not_allowed", "use GET here");
        res->allow = "GET, HEAD";
        return 1;
    }
    web w = web_for(req);
    if (strcmp(p, "/") == 0)
        home(db, &w, res);
    else if (strcmp(p, "/search") == 0)
        search_page(db, &w, res);
    else if (strncmp(p, "/records/", 9) == 0)
        record_page(db, &w, p + 9, res);
    else if (strcmp(p, "/domains") == 0)
        domains_page(db, &w, NULL, res);
    else if (strncmp(p, "/domains/", 9) == 0)
        domains_page(db, &w, p + 9, res);
    else if (strcmp(p, "/assets/style.css") == 0)
        asset(res, asset_style_css, asset_style_css_len, "text/css; charset=utf-8");
    else if (strcmp(p, "/assets/app.js") == 0)
        asset(res, asset_app_js, asset_app_js_len, "text/javascript; charset=utf-8");
    else if (strcmp(p, "/openapi.json") == 0)
        asset(res, asset_openapi_json, asset_openapi_json_len, "application/json");
    else
        not_found(res, &w, p);
    return 1;
}
