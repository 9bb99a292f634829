/*
 * mcp_schema.c — the tools' output schemas, taken from the OpenAPI document (docs/openapi.json,
 * compiled in; mcp_data.c). A tool answers with the same JSON as its HTTP endpoint, so the
 * schema the HTTP tests check that JSON against is the one tools/list gives as outputSchema: one
 * source, and an MCP client validating structuredContent checks the same contract.
 *
 * An outputSchema must stand alone, so the component and each component it refers to are copied
 * in, the references rewritten from #/components/schemas/NAME to #/$defs/NAME.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mcp_methods.h"

#define PREFIX "#/components/schemas/"

static const json_t *component(const json_t *openapi, const char *name)
{
    const json_t *components = json_object_get(openapi, "components");
    return json_object_get(json_object_get(components, "schemas"), name);
}

/* A copy of schema with its references rewritten; each component referred to is added to defs
 * (once, and copied the same way). in_properties: schema is the value of a "properties"
 * keyword, whose keys are property names rather than keywords. */
static json_t *rewrite(const json_t *openapi, const json_t *schema, json_t *defs,
                       bool in_properties)
{
    if (json_is_array(schema)) {
        json_t *a = json_array();
        size_t i;
        const json_t *v;
        json_array_foreach(schema, i, v) json_array_append_new(a, rewrite(openapi, v, defs, false));
        return a;
    }
    if (!json_is_object(schema))
        return json_deep_copy(schema);
    json_t *o = json_object();
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)schema, key, v)
    {
        if (!in_properties && strcmp(key, "example") == 0)
            continue;
        const char *ref = json_string_value(v);
        if (!in_properties && strcmp(key, "$ref") == 0 && ref &&
            strncmp(ref, PREFIX, strlen(PREFIX)) == 0) {
            const char *name = ref + strlen(PREFIX);
            const json_t *target = component(openapi, name);
            if (target && !json_object_get(defs, name)) {
                json_object_set_new(defs, name, json_null()); /* a cycle stops here */
                json_object_set_new(defs, name, rewrite(openapi, target, defs, false));
            }
            char local[256];
            snprintf(local, sizeof local, "#/$defs/%s", name);
            json_object_set_new(o, key, json_string(local));
            continue;
        }
        bool props = !in_properties && strcmp(key, "properties") == 0;
        json_object_set_new(o, key, rewrite(openapi, v, defs, props));
    }
    return o;
}

json_t *mcp_openapi_schema(const json_t *openapi, const char *ref)
{
    if (!ref || strncmp(ref, PREFIX, strlen(PREFIX)) != 0)
        return NULL;
    const json_t *root = component(openapi, ref + strlen(PREFIX));
    if (!root)
        return NULL;
    json_t *defs = json_object();
    json_t *schema = rewrite(openapi, root, defs, false);
    if (json_object_size(defs))
        json_object_set(schema, "$defs", defs);
    json_decref(defs);
    return schema;
}
