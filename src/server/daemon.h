/*
 * daemon.h — `errata serve`: the HTTP API, the MCP Streamable HTTP endpoint and the web pages in
 * one process (docs/http-api.md). Every answer comes from liberrata; the server only routes
 * requests (routes.c), enforces limits (limits.h) and picks a format.
 */
#ifndef ERRATA_DAEMON_H
#define ERRATA_DAEMON_H

#include <stddef.h>
#include <stdint.h>

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
    unsigned header_timeout_s;       /* a request's headers must arrive within this; 0: default */
    unsigned max_client_connections; /* connections one client address may hold; 0: default */
} server_config;

/* Serves until SIGTERM or SIGINT. Prints "errata: serving on http://HOST:PORT" on stderr once
 * listening. Returns 0 on a clean stop, 2 when it could not start (message printed). */
int server_run(errata_db *db, const server_config *cfg);

#endif
