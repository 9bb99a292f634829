/*
 * limits.h — every limit the network surfaces enforce, in one place (docs/limits.md lists them
 * with the library's own). The MCP tools' argument bounds are in their schemas
 * (assets/mcp-tools.json), which the tool code reads, so the two cannot disagree.
 */
#ifndef ERRATA_SERVER_LIMITS_H
#define ERRATA_SERVER_LIMITS_H

/* Requests in one batch, for POST /api/v1/lookup/batch and a JSON-RPC batch on MCP alike. */
#define SERVER_MAX_BATCH 50
/* The largest `limit` (matches or search hits) a REST request may ask for. */
#define SERVER_MAX_LIMIT 50
/* The largest MCP answer; a batch whose answers add up to more gets one JSON-RPC error. */
#define MCP_MAX_RESPONSE (8u << 20)
/* Entries in one page of MCP resources/list (every record is one; the rest come by cursor). */
#define MCP_RESOURCES_PAGE 500
/* libmicrohttpd's per-connection memory (headers and the read buffer), idle timeout in seconds,
 * and connections in all. */
#define SERVER_CONNECTION_MEMORY ((size_t)32 * 1024)
#define SERVER_IDLE_TIMEOUT_S 10u
#define SERVER_MAX_CONNECTIONS 1024u
/* Connections one client address may hold open at once (--max-client-connections): a single
 * client cannot take all SERVER_MAX_CONNECTIONS. Behind a reverse proxy every client has the
 * proxy's address, so raise it there. */
#define SERVER_MAX_CLIENT_CONNECTIONS 64u
/* Deadlines that trickling cannot extend (deadline.h): a request's headers must have arrived
 * this many seconds after the server began waiting for them (--header-timeout), and its body
 * this many seconds after its headers. */
#define SERVER_HEADER_TIMEOUT_S 10u
#define SERVER_BODY_TIMEOUT_S 60u

#endif
