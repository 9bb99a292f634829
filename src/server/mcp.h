/*
 * mcp.h — the MCP server's protocol core (mcp.c), and the stdio transport (mcp_stdio.c); the
 * Streamable HTTP transport is a route handler (handlers.h, mcp_http.c).
 */
#ifndef ERRATA_MCP_H
#define ERRATA_MCP_H

#include <stdio.h>

#include "errata.h"

/* Handles one JSON-RPC message (or a batch) and returns the answer (malloc'd, one line of
 * JSON), or NULL when nothing is to be answered (notifications, client responses). */
char *mcp_handle(errata_db *db, const char *text, size_t len);

/* Serves MCP over newline-delimited JSON on in/out until in ends. */
int mcp_stdio(errata_db *db, FILE *in, FILE *out);

#endif
