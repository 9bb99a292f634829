/*
 * routes.c — see routes.h.
 */
#define _GNU_SOURCE
#include "routes.h"

#include <stdlib.h>

#include <string.h>
#include <strings.h>

#include "handlers.h"

static bool same_name(const char *a, size_t n, const char *b)
{
    return strlen(b) == n && strncasecmp(a, b, n) == 0;
}

bool http_names_this_server(const server_config *cfg, const char *value, bool is_origin)
{
    const char *name = value;
    if (is_origin) {
        if (strncmp(name, "http://", 7) == 0)
            name += 7;
        else if (strncmp(name, "https://", 8) == 0)
            name += 8;
        else
            return false; /* "null", file:, or anything else a page may send */
    }
    /* NAME is a bracketed IPv6 address or runs to the first ':'; then only :DIGITS may follow,
     * so "localhost:1@evil.example" or "localhost.evil.example" name another server. */
    size_t n = name[0] == '[' ? strcspn(name, "]") + 1 : strcspn(name, ":");
    if (name[0] == '[' && name[n - 1] != ']')
        return false;
    const char *rest = name + n;
    if (*rest == ':') {
        rest++;
        if (!*rest)
            return false;
        while (*rest >= '0' && *rest <= '9')
            rest++;
    }
    if (*rest)
        return false;
    static const char *const loopback[] = {"127.0.0.1", "localhost", "[::1]"};
    for (size_t i = 0; i < sizeof loopback / sizeof *loopback; i++)
        if (same_name(name, n, loopback[i]))
            return true;
    if (same_name(name, n, cfg->host))
        return true;
    for (size_t i = 0; i < cfg->n_allow_hosts; i++)
        if (strcmp(cfg->allow_hosts[i], "*") == 0 || same_name(name, n, cfg->allow_hosts[i]))
            return true;
    return false;
}

/* DNS rebinding: a page on another site can point its own name at 127.0.0.1 and read a local
 * server through the user's browser. Its requests then carry that name in Host (and the page's
 * in Origin), so every route answers only requests that name this server. */
static bool request_names_this_server(const server_config *cfg, const http_request *req,
                                      http_response *res)
{
    const char *host = http_header(req, "Host"), *origin = http_header(req, "Origin");
    if (host && !http_names_this_server(cfg, host, false)) {
        http_error(res, 421, "misdirected_request",
                   "this server does not answer for host %s (start it with --allow-host to "
                   "allow a name)", host);
        return false;
    }
    if (origin && !http_names_this_server(cfg, origin, true)) {
        http_error(res, 403, "forbidden", "origin %s may not use this server", origin);
        return false;
    }
    return true;
}

typedef int (*route_fn)(errata_db *db, const http_request *req, http_response *res);

/* Tried in order; the first that takes the path answers. */
static const route_fn ROUTES[] = {api_route, mcp_http_route, web_route};

body_sink *routes_sink(errata_db *db, const server_config *cfg, const http_request *req)
{
    http_response refused = {0};
    if (!request_names_this_server(cfg, req, &refused)) {
        free(refused.body); /* routes_dispatch answers it once the body is in */
        return NULL;
    }
    return api_scan_sink(db, req);
}

void routes_dispatch(errata_db *db, const server_config *cfg, const http_request *req,
                     http_response *res)
{
    if (!request_names_this_server(cfg, req, res))
        return;
    for (size_t i = 0; i < sizeof ROUTES / sizeof *ROUTES; i++)
        if (ROUTES[i](db, req, res))
            return;
    http_error(res, 404, "not_found", "no such path: %s", req->path);
}
