/*
 * fuzz_http.c — the HTTP surface of errata serve below libmicrohttpd: routes_dispatch (the host
 * check, the route table, every handler) on a request decoded from the input, answered from
 * the small index. Whatever reaches the port is untrusted, so no request may crash the server,
 * leak or reach undefined behaviour.
 *
 * The input reads as a request: "METHOD TARGET[ HTTP/1.1]", header lines "Name: value", a
 * blank line, then the body. TARGET's query ("?a=1&b=2") becomes the query arguments as
 * written (libmicrohttpd's percent-decoding is not Errata's code). The handlers read arguments
 * and headers through http_arg and http_header, which ask libmicrohttpd: this harness links
 * the server without the daemon and answers that one libmicrohttpd call from the decoded
 * request instead.
 *
 * Properties: every request gets a status from 200 to 599; a JSON answer is JSON.
 */
#include <jansson.h>
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz.h"
#include "routes.h"

#define MAX_PAIRS 32

/* What the handlers may ask libmicrohttpd about the request. */
struct MHD_Connection {
    const char *arg_name[MAX_PAIRS], *arg_value[MAX_PAIRS];
    const char *hdr_name[MAX_PAIRS], *hdr_value[MAX_PAIRS];
    size_t n_args, n_hdrs;
};

/* libmicrohttpd's lookup, over the decoded request: header names ignore case, as HTTP's do. */
const char *MHD_lookup_connection_value(struct MHD_Connection *c, enum MHD_ValueKind kind,
                                        const char *key)
{
    if (kind == MHD_HEADER_KIND) {
        for (size_t i = 0; i < c->n_hdrs; i++)
            if (strcasecmp(c->hdr_name[i], key) == 0)
                return c->hdr_value[i];
    } else if (kind == MHD_GET_ARGUMENT_KIND) {
        for (size_t i = 0; i < c->n_args; i++)
            if (strcmp(c->arg_name[i], key) == 0)
                return c->arg_value[i];
    }
    return NULL;
}

/* Cuts s at the first sep (which is replaced by NUL); returns what follows, or NULL. */
static char *cut(char *s, const char *sep)
{
    char *at = s ? strstr(s, sep) : NULL;
    if (!at)
        return NULL;
    *at = '\0';
    return at + strlen(sep);
}

static void parse_query(char *query, struct MHD_Connection *c)
{
    for (char *pair = query; pair && c->n_args < MAX_PAIRS;) {
        char *next = cut(pair, "&");
        char *value = cut(pair, "=");
        c->arg_name[c->n_args] = pair;
        c->arg_value[c->n_args++] = value ? value : "";
        pair = next;
    }
}

/* Reads "Name: value" lines up to the blank line; returns the body after it, or NULL when
 * there is no blank line. */
static char *parse_headers(char *lines, struct MHD_Connection *c)
{
    char *line = lines;
    while (line && *line) {
        char *next = cut(line, "\n");
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r')
            line[--n] = '\0';
        if (!n)
            return next;
        char *value = cut(line, ":");
        if (value && c->n_hdrs < MAX_PAIRS) {
            value += strspn(value, " \t");
            c->hdr_name[c->n_hdrs] = line;
            c->hdr_value[c->n_hdrs++] = value;
        }
        line = next;
    }
    return NULL;
}

static void check_response(const http_response *res)
{
    if (res->status < 200 || res->status > 599)
        fuzz_fail("status %u", res->status);
    if (res->body && res->content_type && strcmp(res->content_type, "application/json") == 0) {
        json_t *j = json_loadb(res->body, res->len, 0, NULL);
        if (!j)
            fuzz_fail("a JSON answer (status %u) is not JSON: %.200s", res->status, res->body);
        json_decref(j);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstring(data, size);
    /* The body is what follows the blank line, to the end of the input: NUL bytes included. */
    struct MHD_Connection conn = {0};
    char *rest = cut(text, "\n");
    char *method = text;
    char *target = cut(method, " ");
    if (!target)
        target = "/";
    cut(target, " HTTP/");
    char *query = cut(target, "?");
    parse_query(query, &conn);
    char *body = parse_headers(rest, &conn);
    size_t body_len = body ? size - (size_t)(body - text) : 0;

    http_request req = {method, target, body ? body : "", body_len,
                        MHD_lookup_connection_value(&conn, MHD_HEADER_KIND, "Content-Type"),
                        &conn};
    const char *allowed[] = {"errata.example"};
    server_config cfg = {.host = "127.0.0.1", .port = 8080, .allow_hosts = allowed,
                         .n_allow_hosts = 1};
    http_response res = {0};
    routes_dispatch(fuzz_db(), &cfg, &req, &res);
    check_response(&res);
    free(res.body);
    free(text);
    return 0;
}
