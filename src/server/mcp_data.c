/*
 * mcp_data.c — the MCP server's data, compiled in (see meson.build): the tools
 * (assets/mcp-tools.json), the resources (assets/mcp-resources.json), the prompts
 * (assets/mcp-prompts.json) and the OpenAPI document the tools' output schemas come from. Parsed
 * once, by whichever thread asks first, and only read afterwards.
 */
#include <pthread.h>

#include "assets.h"
#include "mcp_methods.h"

static mcp_data data;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static json_t *parse(const unsigned char *bytes, size_t len)
{
    return json_loadb((const char *)bytes, len, 0, NULL);
}

static void load(void)
{
    data.openapi = parse(asset_openapi_json, asset_openapi_json_len);
    data.resources = parse(asset_mcp_resources_json, asset_mcp_resources_json_len);
    data.prompts = parse(asset_mcp_prompts_json, asset_mcp_prompts_json_len);
    data.tools = parse(asset_mcp_tools_json, asset_mcp_tools_json_len);
    /* A tool's outputSchema is written as the name of its answer's schema in the OpenAPI
     * document, which replaces it. */
    size_t i;
    json_t *t;
    json_array_foreach(data.tools, i, t)
    {
        const char *ref = json_string_value(json_object_get(t, "outputSchema"));
        json_t *schema = mcp_openapi_schema(data.openapi, ref);
        if (schema)
            json_object_set_new(t, "outputSchema", schema);
        else
            json_object_del(t, "outputSchema");
    }
}

const mcp_data *mcp_get_data(void)
{
    pthread_once(&once, load);
    return &data;
}
