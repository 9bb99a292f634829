/*
 * web.c — the web pages: paste an error and read the answer, a page per record, the domain
 * listings. The pages are plain HTML rendered here around fragments liberrata renders; they
 * work without JavaScript, and a little JavaScript (assets/app.js) sends long pastes with POST
 * instead of in the URL.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "html.h"
#include "handlers.h"
#include "strbuf.h"

static const errata_render_options LINKS = {.link_prefix = "/records/",
                                            .domain_link_prefix = "/domains/"};

static char *page(const char *title, const char *lang, const char *body)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb,
              "<!doctype html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\">"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
              "<title>",
              lang);
    html_escape(&sb, title);
    sb_puts(&sb, " — Errata</title><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>"
                 "<body><header><a class=\"brand\" href=\"/\">Errata</a><nav>"
                 "<a href=\"/\">Look up</a><a href=\"/domains\">Domains</a></nav></header><main>");
    sb_puts(&sb, body);
    sb_puts(&sb, "</main><footer>Errata — known failures, what not to try, what works. "
                 "<a href=\"/openapi.json\">API</a></footer>"
                 "<script src=\"/assets/app.js\" defer></script></body></html>\n");
    return sb_finish(&sb);
}

static void html(http_response *res, unsigned status, const char *title, const char *lang,
                 char *body)
{
    http_set(res, status, "text/html; charset=utf-8", page(title, lang, body ? body : ""));
    free(body);
}

static void not_found(http_response *res, const char *what)
{
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "<h1>Not found</h1><p>");
    html_escape(&sb, what);
    sb_puts(&sb, "</p>");
    html(res, 404, "Not found", "en", sb_finish(&sb));
}

static char *lookup_fragment(errata_db *db, const char *text, size_t len)
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
    char *frag = errata_result_render(r, ERRATA_FORMAT_HTML, &LINKS);
    errata_result_free(r);
    return frag;
}

static void home(errata_db *db, const http_request *req, http_response *res)
{
    const char *q = http_arg(req, "q");
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "<h1>What does this error mean?</h1>"
                 "<form id=\"lookup-form\" method=\"get\" action=\"/\">"
                 "<label for=\"error-text\">Paste an error message, a stack trace or a whole "
                 "log</label><textarea id=\"error-text\" name=\"q\" rows=\"10\" spellcheck=\"false\" "
                 "placeholder=\"ModuleNotFoundError: No module named 'torch'\">");
    if (q)
        html_escape(&sb, q);
    sb_puts(&sb, "</textarea><button id=\"lookup-submit\" type=\"submit\">Look up</button></form>"
                 "<div id=\"answer\" aria-live=\"polite\">");
    if (q && *q) {
        char *frag = lookup_fragment(db, q, strlen(q));
        sb_puts(&sb, frag ? frag : "");
        free(frag);
    }
    sb_puts(&sb, "</div>");
    html(res, 200, "Look up an error", "en", sb_finish(&sb));
}

static void record_page(errata_db *db, const http_request *req, const char *id, http_response *res)
{
    const errata_record *r;
    errata_error err = {0};
    if (errata_get_record(db, id, &r, &err) != ERRATA_OK)
        return not_found(res, err.message);
    const char *lang = http_arg(req, "lang");
    bool zh = lang && strcmp(lang, "zh") == 0;
    errata_render_options ro = LINKS;
    ro.lang = zh ? ERRATA_LANG_ZH : ERRATA_LANG_EN;
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "<p class=\"switch\"><a id=\"lang-switch\" href=\"/records/");
    html_escape(&sb, errata_record_id(r));
    sb_puts(&sb, zh ? "\" hreflang=\"en\">English</a>" : "?lang=zh\" hreflang=\"zh\">中文</a>");
    sb_puts(&sb, " · <a href=\"/domains/");
    html_escape(&sb, errata_record_domain(r));
    sb_puts(&sb, "\">");
    html_escape(&sb, errata_record_domain(r));
    sb_puts(&sb, "</a></p>");
    char *frag = errata_record_render(r, ERRATA_FORMAT_HTML, &ro);
    sb_puts(&sb, frag ? frag : "");
    free(frag);
    html(res, 200, errata_record_id(r), zh ? "zh" : "en", sb_finish(&sb));
}

static void domains_page(errata_db *db, const char *domain, http_response *res)
{
    char *frag = NULL;
    errata_error err = {0};
    errata_code rc = domain ? errata_domain_records(db, domain, ERRATA_FORMAT_HTML, &LINKS, &frag, &err)
                            : errata_domains(db, ERRATA_FORMAT_HTML, &LINKS, &frag, &err);
    if (rc != ERRATA_OK)
        return not_found(res, err.message);
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "<h1>");
    html_escape(&sb, domain ? domain : "Domains");
    sb_puts(&sb, "</h1>");
    sb_puts(&sb, frag);
    free(frag);
    html(res, 200, domain ? domain : "Domains", "en", sb_finish(&sb));
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
            http_set(res, 200, "text/html; charset=utf-8",
                     lookup_fragment(db, req->body, req->body_len));
        }
        return 1;
    }
    if (strcmp(p, "/favicon.ico") == 0) {
        http_set(res, 204, NULL, NULL); /* no icon: say so without an error */
        return 1;
    }
    bool mine = strcmp(p, "/") == 0 || strncmp(p, "/records/", 9) == 0 ||
                strcmp(p, "/domains") == 0 || strncmp(p, "/domains/", 9) == 0 ||
                strncmp(p, "/assets/", 8) == 0 || strcmp(p, "/openapi.json") == 0;
    if (!mine)
        return 0;
    if (!get) {
        http_error(res, 405, "method_not_allowed", "use GET here");
        res->allow = "GET, HEAD";
        return 1;
    }
    if (strcmp(p, "/") == 0)
        home(db, req, res);
    else if (strncmp(p, "/records/", 9) == 0)
        record_page(db, req, p + 9, res);
    else if (strcmp(p, "/domains") == 0)
        domains_page(db, NULL, res);
    else if (strncmp(p, "/domains/", 9) == 0)
        domains_page(db, p + 9, res);
    else if (strcmp(p, "/assets/style.css") == 0)
        asset(res, asset_style_css, asset_style_css_len, "text/css; charset=utf-8");
    else if (strcmp(p, "/assets/app.js") == 0)
        asset(res, asset_app_js, asset_app_js_len, "text/javascript; charset=utf-8");
    else if (strcmp(p, "/openapi.json") == 0)
        asset(res, asset_openapi_json, asset_openapi_json_len, "application/json");
    else
        not_found(res, p);
    return 1;
}
