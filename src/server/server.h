/*
 * server.h — `errata serve`: the HTTP API, the MCP Streamable HTTP endpoint and the web pages in
 * one process (docs/http-api.md). Every answer comes from liberrata; this layer only routes
 * requests, enforces limits and picks a format.
 */
#ifndef ERRATA_SERVER_H
#define ERRATA_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "errata.h"

typedef struct {
    const char *host;  /* address to bind, "127.0.0.1" by default */
    uint16_t port;     /* 0: any free port */
    unsigned threads;  /* worker threads; 0: one per CPU */
    size_t max_body;   /* largest request body accepted */
    /* Host names a request's Host and Origin may name besides the loopback names and the
     * bound address (--allow-host); "*" allows any. */
    const char *const *allow_hosts;
    size_t n_allow_hosts;
} server_config;

/* Requests in one batch, for POST /api/v1/lookup/batch and a JSON-RPC batch on MCP alike. */
#define SERVER_MAX_BATCH 50
/* The largest MCP answer; a batch whose answers add up to more gets one JSON-RPC error. */
#define MCP_MAX_RESPONSE (8u << 20)

/* Whether a Host or Origin header value names this server: http(s)://NAME[:PORT] for Origin,
 * NAME[:PORT] for Host, NAME one of the loopback names, the bound host or an allowed name. */
bool http_names_this_server(const server_config *cfg, const char *value, bool is_origin);

/* A response being built by a handler. body is malloc'd (or NULL for none). */
typedef struct {
    unsigned status;
    char *body;
    size_t len;
    const char *content_type;
    const char *allow; /* for 405: the methods allowed */
} http_response;

typedef struct {
    const char *method;
    const char *path;
    const char *body; /* NUL-terminated */
    size_t body_len;
    const char *content_type;
    void *conn; /* struct MHD_Connection *, for query arguments and headers */
} http_request;

/* A query argument (decoded) or header, or NULL. */
const char *http_arg(const http_request *req, const char *name);
const char *http_header(const http_request *req, const char *name);

/* Sets a JSON error body {"error": {"code", "message"}}. */
void http_error(http_response *res, unsigned status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Takes ownership of a malloc'd body. */
void http_set(http_response *res, unsigned status, const char *content_type, char *body);

/* The environment of a check request ({"files": [{"name", "content"}], "packages": {…}}), or
 * NULL with why set: *bad_shape when the request is malformed, else a file did not parse. */
errata_env *env_from_request(const json_t *req, char *why, size_t why_size, bool *bad_shape);

/* Route groups; each returns 1 when the path is theirs (res is then filled), 0 otherwise. */
int api_route(errata_db *db, const http_request *req, http_response *res);
int mcp_route(errata_db *db, const http_request *req, http_response *res);
int web_route(errata_db *db, const http_request *req, http_response *res);

/* Serves until SIGTERM or SIGINT. Prints "errata: serving on http://HOST:PORT" on stderr once
 * listening. Returns 0 on a clean stop, 2 when it could not start (message printed). */
int server_run(errata_db *db, const server_config *cfg);

#endif
