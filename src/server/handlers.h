/*
 * handlers.h — the route groups the route table (routes.c) tries in turn: each returns 1 when
 * the path is theirs (res is then filled), 0 otherwise.
 */
#ifndef ERRATA_HANDLERS_H
#define ERRATA_HANDLERS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "errata.h"
#include "http_message.h"

int api_route(errata_db *db, const http_request *req, http_response *res);
int mcp_http_route(errata_db *db, const http_request *req, http_response *res);
int web_route(errata_db *db, const http_request *req, http_response *res);

/* The sink of POST /api/v1/scan (scan_api.c), or NULL for any other request, which is then
 * gathered and routed as usual. */
body_sink *api_scan_sink(errata_db *db, const http_request *req);

/* The environment of a check request ({"files": [{"name", "content"}], "packages": {…}}), or
 * NULL with why set: *bad_shape when the request is malformed, else a file did not parse. */
errata_env *env_from_request(const json_t *req, char *why, size_t why_size, bool *bad_shape);

#endif
