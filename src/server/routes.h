/*
 * routes.h — from a request to its handler: the host check every route shares, then the route
 * table (handlers.h), then 404.
 */
#ifndef ERRATA_ROUTES_H
#define ERRATA_ROUTES_H

#include <stdbool.h>

#include "daemon.h"
#include "http_message.h"

/* Fills res for req: 421/403 when the request does not name this server, the handler's answer,
 * or 404. */
void routes_dispatch(errata_db *db, const server_config *cfg, const http_request *req,
                     http_response *res);

/* The sink of a request whose body is streamed to its handler (body_sink), or NULL: the body is
 * then gathered and the request routed by routes_dispatch, which also answers a request that
 * does not name this server. req has no body yet. */
body_sink *routes_sink(errata_db *db, const server_config *cfg, const http_request *req);

/* Whether a Host or Origin header value names this server: http(s)://NAME[:PORT] for Origin,
 * NAME[:PORT] for Host, NAME one of the loopback names, the bound host or an allowed name. */
bool http_names_this_server(const server_config *cfg, const char *value, bool is_origin);

#endif
