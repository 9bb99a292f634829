/*
 * mcp_prompts.c — MCP prompts: ready-made requests a user picks in an agent ("diagnose this
 * log"), each telling the model which Errata tools to call and what to report. They are data
 * (assets/mcp-prompts.json): prompts/list serves them without their messages, and prompts/get
 * fills the messages' {argument} placeholders with the arguments given.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp_methods.h"

static const json_t *prompt_defs(void)
{
    return mcp_get_data()->prompts;
}

json_t *mcp_prompts_list(const json_t *params, mcp_failure *f)
{
    (void)params;
    (void)f;
    json_t *list = json_array();
    size_t i;
    const json_t *p;
    json_array_foreach(prompt_defs(), i, p)
    {
        json_t *shown = json_deep_copy(p);
        json_object_del(shown, "messages");
        json_array_append_new(list, shown);
    }
    return json_pack("{s:o}", "prompts", list);
}

/* text with each {name} of a declared argument replaced by that argument's value; other braces
 * are left as they are. */
static char *fill(const char *text, const json_t *declared, const json_t *args)
{
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    if (!m)
        return NULL;
    for (const char *s = text; *s;) {
        const char *value = NULL;
        size_t skip = 0;
        if (*s == '{') {
            size_t i;
            const json_t *a;
            json_array_foreach(declared, i, a)
            {
                const char *name = json_string_value(json_object_get(a, "name"));
                size_t n = strlen(name);
                if (strncmp(s + 1, name, n) == 0 && s[1 + n] == '}') {
                    value = json_string_value(json_object_get(args, name));
                    skip = n + 2;
                    break;
                }
            }
        }
        if (value) {
            fputs(value, m);
            s += skip;
        } else {
            fputc(*s++, m);
        }
    }
    if (fclose(m) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

json_t *mcp_prompts_get(const json_t *params, mcp_failure *f)
{
    const char *name = json_string_value(json_object_get(params, "name"));
    const json_t *args = json_object_get(params, "arguments");
    f->code = MCP_INVALID_PARAMS;
    if (!name) {
        snprintf(f->message, sizeof f->message, "prompts/get needs params.name, a string");
        return NULL;
    }
    if (args && !json_is_object(args)) {
        snprintf(f->message, sizeof f->message, "params.arguments must be an object of strings");
        return NULL;
    }
    const json_t *p = NULL, *candidate;
    size_t i;
    json_array_foreach(prompt_defs(), i, candidate)
    {
        if (strcmp(json_string_value(json_object_get(candidate, "name")), name) == 0)
            p = candidate;
    }
    if (!p) {
        snprintf(f->message, sizeof f->message, "unknown prompt '%.300s'", name);
        return NULL;
    }
    const json_t *declared = json_object_get(p, "arguments");
    const json_t *a;
    json_array_foreach(declared, i, a)
    {
        const char *arg = json_string_value(json_object_get(a, "name"));
        const json_t *v = json_object_get(args, arg);
        if (v && !json_is_string(v)) {
            snprintf(f->message, sizeof f->message, "argument '%s' must be a string", arg);
            return NULL;
        }
        if (json_is_true(json_object_get(a, "required")) && (!v || json_string_length(v) == 0)) {
            snprintf(f->message, sizeof f->message, "prompt '%s' needs the argument '%s'", name,
                     arg);
            return NULL;
        }
    }
    json_t *messages = json_array();
    const json_t *msg;
    json_array_foreach(json_object_get(p, "messages"), i, msg)
    {
        char *text = fill(json_string_value(json_object_get(msg, "text")), declared, args);
        if (!text) {
            json_decref(messages);
            f->code = MCP_INTERNAL_ERROR;
            snprintf(f->message, sizeof f->message, "prompt '%s': out of memory", name);
            return NULL;
        }
        json_array_append_new(messages,
                              json_pack("{s:O, s:{s:s, s:s}}", "role", json_object_get(msg, "role"),
                                        "content", "type", "text", "text", text));
        free(text);
    }
    return json_pack("{s:O, s:o}", "description", json_object_get(p, "description"), "messages",
                     messages);
}
