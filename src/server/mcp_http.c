/*
 * mcp_http.c — MCP over Streamable HTTP: POST /mcp carries one JSON-RPC message or a batch, and
 * the answer comes back as one JSON body (202 when there is nothing to answer). No
 * server-initiated stream is offered, so GET is refused.
 */
#include <string.h>

#include "handlers.h"
#include "mcp.h"

int mcp_http_route(errata_db *db, const http_request *req, http_response *res)
{
    if (strcmp(req->path, "/mcp") != 0)
        return 0;
    if (strcmp(req->method, "POST") != 0) {
        http_error(res, 405, "method_not_allowed",
                   "this server offers no server-initiated stream: POST JSON-RPC messages");
        res->allow = "POST";
        return 1;
    }
    if (!errata_utf8_valid(req->body, req->body_len)) {
        http_error(res, 400, "invalid_utf8", "the body is not valid UTF-8");
        return 1;
    }
    char *answer = mcp_handle(db, req->body, req->body_len);
    if (answer)
        http_set(res, 200, "application/json", answer);
    else
        http_set(res, 202, NULL, NULL);
    return 1;
}
