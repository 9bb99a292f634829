/*
 * mcp_methods.h — what mcp.c (the JSON-RPC core) shares with the MCP methods kept in files of
 * their own: resources (mcp_resources.c), prompts (mcp_prompts.c), the tools' output schemas
 * (mcp_schema.c) and the data they serve (mcp_data.c). Each method takes the request's params
 * (NULL when there were none) and returns the JSON-RPC result, owned by the caller, or NULL with
 * *f saying which error to answer.
 */
#ifndef ERRATA_MCP_METHODS_H
#define ERRATA_MCP_METHODS_H

#include <jansson.h>

#include "errata.h"

enum { MCP_PARSE_ERROR = -32700, MCP_INVALID_REQUEST = -32600, MCP_METHOD_NOT_FOUND = -32601,
       MCP_INVALID_PARAMS = -32602, MCP_INTERNAL_ERROR = -32603,
       MCP_RESOURCE_NOT_FOUND = -32002 /* the MCP specification's, for resources/read */ };

typedef struct {
    int code;
    char message[512];
    json_t *data; /* the error's "data" member, or NULL; owned here until answered */
} mcp_failure;

json_t *mcp_resources_list(errata_db *db, const json_t *params, mcp_failure *f);
json_t *mcp_resource_templates_list(const json_t *params, mcp_failure *f);
json_t *mcp_resources_read(errata_db *db, const json_t *params, mcp_failure *f);

json_t *mcp_prompts_list(const json_t *params, mcp_failure *f);
json_t *mcp_prompts_get(const json_t *params, mcp_failure *f);

/* The compiled-in data, parsed on first use: tools (each outputSchema filled in), resources
 * ({"resources", "resourceTemplates"}), prompts, and the OpenAPI document. */
typedef struct {
    json_t *tools, *resources, *prompts, *openapi;
} mcp_data;
const mcp_data *mcp_get_data(void);

/* A self-contained JSON Schema for the OpenAPI document's component `ref`
 * ("#/components/schemas/NAME"): the component with every schema it refers to under $defs, and
 * the OpenAPI-only keyword `example` left out. NULL when the document has no such component. */
json_t *mcp_openapi_schema(const json_t *openapi, const char *ref);

#endif
