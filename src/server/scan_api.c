/*
 * scan_api.c — POST /api/v1/scan: a whole log as the request body, scanned as it arrives by
 * liberrata's streaming scan, so the body is never held whole whatever its size
 * (docs/http-api.md). The answer is the findings in the format asked for.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "params.h"

typedef struct {
    errata_scan *scan;
    errata_error err;
    bool failed;         /* err is set: the rest of the body is read and dropped */
    errata_format fmt;
    const char *content_type;
    char source[256];
    errata_lang lang;
    char bad[256];       /* a bad query argument: answered 400 once the body is in */
} scan_request;

static const struct {
    const char *name, *content_type;
    errata_format fmt;
} FORMATS[] = {
    {"json", "application/json", ERRATA_FORMAT_JSON},
    {"sarif", "application/sarif+json", ERRATA_FORMAT_SARIF},
    {"markdown", "text/markdown; charset=utf-8", ERRATA_FORMAT_MARKDOWN},
    {"github", "text/plain; charset=utf-8", ERRATA_FORMAT_GITHUB},
    {"text", "text/plain; charset=utf-8", ERRATA_FORMAT_TEXT},
};

static void sink_feed(body_sink *sink, const char *data, size_t len)
{
    scan_request *r = sink->state;
    if (!r->failed && !r->bad[0] && errata_scan_feed(r->scan, data, len, &r->err) != ERRATA_OK)
        r->failed = true;
}

static void sink_finish(body_sink *sink, http_response *res)
{
    scan_request *r = sink->state;
    if (r->bad[0]) {
        http_error(res, 400, "bad_request", "%s", r->bad);
        return;
    }
    if (r->failed || errata_scan_finish(r->scan, &r->err) != ERRATA_OK) {
        http_error(res, r->err.code == ERRATA_ERR_NOMEM ? 503 : 500, "internal", "%s",
                   r->err.message);
        return;
    }
    errata_render_options ro = {.lang = r->lang};
    char *out = errata_scan_render(r->scan, r->fmt, r->source, &ro);
    if (!out) {
        http_error(res, 500, "internal", "out of memory rendering the findings");
        return;
    }
    http_set(res, 200, r->content_type, out);
}

static void sink_free(body_sink *sink)
{
    scan_request *r = sink->state;
    errata_scan_free(r->scan);
    free(r);
    free(sink);
}

/* Reads the query: format, source, lang. A bad one is kept for the answer. */
static void read_query(scan_request *r, const http_request *req)
{
    const char *fmt = http_arg(req, "format"), *src = http_arg(req, "source");
    const char *lang = http_arg(req, "lang");
    r->fmt = ERRATA_FORMAT_JSON, r->content_type = FORMATS[0].content_type;
    bool known = !fmt;
    for (size_t i = 0; fmt && i < sizeof FORMATS / sizeof *FORMATS; i++)
        if (strcmp(fmt, FORMATS[i].name) == 0)
            r->fmt = FORMATS[i].fmt, r->content_type = FORMATS[i].content_type, known = true;
    if (!known)
        snprintf(r->bad, sizeof r->bad, "format: '%.100s' is not json, sarif, markdown, github "
                 "or text", fmt);
    snprintf(r->source, sizeof r->source, "%s", src && *src ? src : "request");
    if (!server_parse_lang(lang, &r->lang))
        snprintf(r->bad, sizeof r->bad, "lang: '%.100s' is not en or zh", lang);
}

body_sink *api_scan_sink(errata_db *db, const http_request *req)
{
    if (strcmp(req->path, "/api/v1/scan") != 0 || strcmp(req->method, "POST") != 0)
        return NULL;
    body_sink *sink = calloc(1, sizeof *sink);
    scan_request *r = calloc(1, sizeof *r);
    if (!sink || !r) {
        free(sink), free(r);
        return NULL; /* gathered and answered by the route table instead */
    }
    read_query(r, req);
    if (errata_scan_open(db, NULL, &r->scan, &r->err) != ERRATA_OK)
        r->failed = true;
    sink->state = r;
    sink->feed = sink_feed, sink->finish = sink_finish, sink->free = sink_free;
    return sink;
}
