/*
 * mcp.c — the Model Context Protocol server's core: JSON-RPC 2.0 as the MCP specification
 * defines it, and the tools. Its two transports, stdio (`errata mcp`, mcp_stdio.c) and
 * Streamable HTTP (POST /mcp on `errata serve`, mcp_http.c), hand each message to mcp_handle(),
 * so they answer identically.
 *
 * Each tool returns Markdown for the agent to read (what to avoid, what to try) as `content`
 * and the same answer as JSON in `structuredContent`, both rendered by liberrata. Resources
 * (mcp_resources.c) and prompts (mcp_prompts.c) are methods of their own files.
 */
#define _GNU_SOURCE
#include "mcp.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "limits.h"
#include "mcp_methods.h"
#include "params.h"

#define LATEST_PROTOCOL "2025-11-25"

/* ------------------------------------------------------------------ tool definitions */

/* The tools' names, descriptions, annotations and argument schemas are data
 * (assets/mcp-tools.json, mcp_data.c): tools/list serves them as they are, and the argument
 * bounds and defaults the tools enforce are read from the same schemas, so what an agent is told
 * and what it gets agree. */
static const json_t *tools(void)
{
    return mcp_get_data()->tools;
}

static const json_t *tool_schema(const char *name)
{
    size_t i;
    const json_t *t;
    json_array_foreach(tools(), i, t)
    {
        if (strcmp(json_string_value(json_object_get(t, "name")), name) == 0)
            return json_object_get(json_object_get(t, "inputSchema"), "properties");
    }
    return NULL;
}

/* ------------------------------------------------------------------ JSON-RPC replies */

/* A result reply; borrows both id and result (the caller still owns and releases them). */
static json_t *reply(json_t *id, json_t *result)
{
    return json_pack("{s:s, s:O, s:O}", "jsonrpc", "2.0", "id", id ? id : json_null(), "result",
                     result);
}

static json_t *rpc_error(json_t *id, int code, const char *message)
{
    return json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                     "error", "code", code, "message", message);
}

/* The answer to a method of mcp_methods.h: its result, or the error it failed with. */
static json_t *method_reply(json_t *id, json_t *result, mcp_failure *f)
{
    if (!result) {
        json_t *e = rpc_error(id, f->code, f->message);
        if (f->data)
            json_object_set_new(json_object_get(e, "error"), "data", f->data);
        return e;
    }
    json_t *r = reply(id, result);
    json_decref(result);
    return r;
}

/* A tool's answer: Markdown for the agent and the JSON object as structured content. */
static json_t *tool_result(char *markdown, char *json_text, bool is_error)
{
    json_t *structured = json_text ? json_loads(json_text, 0, NULL) : NULL;
    json_t *r = json_pack("{s:[{s:s, s:s}], s:b}", "content", "type", "text", "text",
                          markdown ? markdown : "", "isError", is_error);
    if (structured && json_is_object(structured))
        json_object_set_new(r, "structuredContent", structured);
    else
        json_decref(structured);
    free(markdown);
    free(json_text);
    return r;
}

static json_t *tool_failure(const char *message)
{
    char *m = strdup(message);
    return tool_result(m, NULL, true);
}

/* ------------------------------------------------------------------ arguments */

typedef struct {
    const json_t *args;
    const json_t *schema; /* the tool's inputSchema properties (assets/mcp-tools.json) */
    char problem[256];    /* set when an argument is invalid: -32602 */
} arguments;

static const char *arg_string(arguments *a, const char *name, bool required)
{
    const json_t *v = json_object_get(a->args, name);
    if (!v) {
        if (required && !a->problem[0])
            snprintf(a->problem, sizeof a->problem, "missing required argument '%s'", name);
        return NULL;
    }
    if (!json_is_string(v) || json_string_length(v) == 0) {
        if (!a->problem[0])
            snprintf(a->problem, sizeof a->problem, "argument '%s' must be a non-empty string", name);
        return NULL;
    }
    return json_string_value(v);
}

/* An integer argument within its schema's minimum and maximum, or the schema's default. */
static long arg_int(arguments *a, const char *name)
{
    const json_t *prop = json_object_get(a->schema, name);
    long min = (long)json_integer_value(json_object_get(prop, "minimum"));
    long max = (long)json_integer_value(json_object_get(prop, "maximum"));
    long fallback = (long)json_integer_value(json_object_get(prop, "default"));
    const json_t *v = json_object_get(a->args, name);
    if (!v)
        return fallback;
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
        if (!a->problem[0])
            snprintf(a->problem, sizeof a->problem, "argument '%s' must be an integer from %ld to %ld",
                     name, min, max);
        return fallback;
    }
    return (long)json_integer_value(v);
}

static errata_lang arg_lang(arguments *a)
{
    errata_lang lang = ERRATA_LANG_EN;
    if (!server_parse_lang(arg_string(a, "lang", false), &lang) && !a->problem[0])
        snprintf(a->problem, sizeof a->problem, "argument 'lang' must be \"en\" or \"zh\"");
    return lang;
}

/* ------------------------------------------------------------------ tools */

static json_t *lookup_one(errata_db *db, const char *text, long limit, errata_lang lang,
                          char **md, char **js, errata_error *err)
{
    errata_lookup_options lo = {.max_results = (size_t)limit};
    errata_result *res = NULL;
    if (errata_lookup(db, text, strlen(text), &lo, &res, err) != ERRATA_OK)
        return NULL;
    errata_render_options ro = {.lang = lang};
    *md = errata_result_render(res, ERRATA_FORMAT_MARKDOWN, &ro);
    *js = errata_result_render(res, ERRATA_FORMAT_JSON, &ro);
    errata_result_free(res);
    return json_true();
}

static json_t *tool_lookup(errata_db *db, arguments *a)
{
    /* An empty text is a failure of the tool on its input (isError), not a malformed call. */
    const json_t *t = json_object_get(a->args, "text");
    if (json_is_string(t) && json_string_length(t) == 0)
        return tool_failure("the text is empty: give the error output to look up");
    const char *text = arg_string(a, "text", true);
    long limit = arg_int(a, "limit");
    errata_lang lang = arg_lang(a);
    if (a->problem[0])
        return NULL;
    char *md = NULL, *js = NULL;
    errata_error err = {0};
    if (!lookup_one(db, text, limit, lang, &md, &js, &err))
        return tool_failure(err.message);
    return tool_result(md, js, false);
}

static json_t *tool_batch(errata_db *db, arguments *a)
{
    const json_t *texts = json_object_get(a->args, "texts");
    long limit = arg_int(a, "limit");
    const json_t *bounds = json_object_get(a->schema, "texts");
    size_t lo = (size_t)json_integer_value(json_object_get(bounds, "minItems"));
    size_t hi = (size_t)json_integer_value(json_object_get(bounds, "maxItems"));
    if (!json_is_array(texts) || json_array_size(texts) < lo || json_array_size(texts) > hi) {
        snprintf(a->problem, sizeof a->problem, "argument 'texts' must be an array of %zu to %zu strings",
                 lo, hi);
        return NULL;
    }
    for (size_t i = 0; i < json_array_size(texts); i++) {
        const json_t *text = json_array_get(texts, i);
        if (!json_is_string(text) || json_string_length(text) == 0) {
            snprintf(a->problem, sizeof a->problem, "texts[%zu] must be a non-empty string", i);
            return NULL;
        }
    }
    if (a->problem[0])
        return NULL;
    char *all_md = NULL;
    size_t md_len = 0;
    FILE *mdf = open_memstream(&all_md, &md_len);
    json_t *results = json_array();
    for (size_t i = 0; i < json_array_size(texts); i++) {
        char *md = NULL, *js = NULL;
        errata_error err = {0};
        const char *text = json_string_value(json_array_get(texts, i));
        fprintf(mdf, "%s# Text %zu\n\n", i ? "\n---\n\n" : "", i + 1);
        if (!lookup_one(db, text, limit, ERRATA_LANG_EN, &md, &js, &err)) {
            /* The answer holds a lookup answer for every text, as POST /api/v1/lookup/batch's
             * does, or fails as a whole naming the text. */
            fclose(mdf);
            free(all_md);
            json_decref(results);
            char m[1100];
            snprintf(m, sizeof m, "texts[%zu]: %s", i, err.message);
            return tool_failure(m);
        }
        fputs(md ? md : "", mdf);
        json_t *j = js ? json_loads(js, 0, NULL) : NULL;
        json_array_append_new(results, j ? j : json_null());
        free(md), free(js);
    }
    fclose(mdf);
    json_t *answer = json_pack("{s:o}", "results", results);
    char *js = json_dumps(answer, 0);
    json_decref(answer);
    return tool_result(all_md, js, false);
}

static json_t *tool_detail(errata_db *db, arguments *a)
{
    const char *id = arg_string(a, "id", true);
    errata_lang lang = arg_lang(a);
    if (a->problem[0])
        return NULL;
    const errata_record *r;
    errata_error err = {0};
    if (errata_get_record(db, id, &r, &err) != ERRATA_OK)
        return tool_failure(err.message);
    errata_render_options ro = {.lang = lang};
    return tool_result(errata_record_render(r, ERRATA_FORMAT_MARKDOWN, &ro),
                       errata_record_render(r, ERRATA_FORMAT_JSON, NULL), false);
}

static json_t *tool_search(errata_db *db, arguments *a)
{
    const char *q = arg_string(a, "query", true);
    long limit = arg_int(a, "limit");
    if (a->problem[0])
        return NULL;
    errata_result *res = NULL;
    errata_error err = {0};
    if (errata_search(db, q, strlen(q), (size_t)limit, &res, &err) != ERRATA_OK)
        return tool_failure(err.message);
    json_t *r = tool_result(errata_result_render(res, ERRATA_FORMAT_MARKDOWN, NULL),
                            errata_result_render(res, ERRATA_FORMAT_JSON, NULL),
                            false);
    errata_result_free(res);
    return r;
}

typedef errata_code (*catalog_fn)(errata_db *, errata_format, const errata_render_options *,
                                  char **, errata_error *);

static json_t *catalog_answer(errata_db *db, catalog_fn fn)
{
    char *md = NULL, *js = NULL;
    errata_error err = {0};
    if (fn(db, ERRATA_FORMAT_MARKDOWN, NULL, &md, &err) != ERRATA_OK ||
        fn(db, ERRATA_FORMAT_JSON, NULL, &js, &err) != ERRATA_OK) {
        free(md);
        return tool_failure(err.message);
    }
    return tool_result(md, js, false);
}

static json_t *tool_domain(errata_db *db, arguments *a)
{
    const char *domain = arg_string(a, "domain", true);
    if (a->problem[0])
        return NULL;
    char *md = NULL, *js = NULL;
    errata_error err = {0};
    if (errata_domain_records(db, domain, ERRATA_FORMAT_MARKDOWN, NULL, &md, &err) != ERRATA_OK ||
        errata_domain_records(db, domain, ERRATA_FORMAT_JSON, NULL, &js, &err) != ERRATA_OK) {
        free(md);
        return tool_failure(err.message);
    }
    return tool_result(md, js, false);
}

static json_t *tool_chain(errata_db *db, arguments *a)
{
    const char *id = arg_string(a, "id", true);
    long depth = arg_int(a, "depth");
    if (a->problem[0])
        return NULL;
    char *md = NULL, *js = NULL;
    errata_error err = {0};
    if (errata_chain(db, id, (int)depth, ERRATA_FORMAT_MARKDOWN, NULL, &md, &err) != ERRATA_OK ||
        errata_chain(db, id, (int)depth, ERRATA_FORMAT_JSON, NULL, &js, &err) != ERRATA_OK) {
        free(md);
        return tool_failure(err.message);
    }
    return tool_result(md, js, false);
}

static json_t *tool_check(errata_db *db, arguments *a)
{
    char why[1024];
    bool bad_shape;
    errata_env *env = env_from_request(a->args, why, sizeof why, &bad_shape);
    if (!env) {
        if (bad_shape) {
            snprintf(a->problem, sizeof a->problem, "%.250s", why);
            return NULL;
        }
        return tool_failure(why);
    }
    char *md = NULL, *js = NULL;
    errata_error err = {0};
    json_t *r;
    if (errata_check(db, env, ERRATA_FORMAT_MARKDOWN, &md, NULL, &err) != ERRATA_OK ||
        errata_check(db, env, ERRATA_FORMAT_JSON, &js, NULL, &err) != ERRATA_OK) {
        free(md);
        r = tool_failure(err.message);
    } else {
        r = tool_result(md, js, false);
    }
    errata_env_free(env);
    return r;
}

static json_t *tool_scan(errata_db *db, arguments *a)
{
    const char *log = arg_string(a, "log", true);
    const char *source = arg_string(a, "source", false);
    errata_lang lang = arg_lang(a);
    size_t max = (size_t)json_integer_value(json_object_get(json_object_get(a->schema, "log"),
                                                            "maxLength"));
    if (log && strlen(log) > max && !a->problem[0])
        snprintf(a->problem, sizeof a->problem, "argument 'log' is over %zu bytes: use POST "
                 "/api/v1/scan for larger logs", max);
    if (a->problem[0])
        return NULL;
    if (!source)
        source = json_string_value(json_object_get(json_object_get(a->schema, "source"), "default"));
    errata_scan *s = NULL;
    errata_error err = {0};
    if (errata_scan_open(db, NULL, &s, &err) != ERRATA_OK ||
        errata_scan_feed(s, log, strlen(log), &err) != ERRATA_OK ||
        errata_scan_finish(s, &err) != ERRATA_OK) {
        errata_scan_free(s);
        return tool_failure(err.message);
    }
    errata_render_options ro = {.lang = lang};
    char *md = errata_scan_render(s, ERRATA_FORMAT_MARKDOWN, source, &ro);
    char *js = errata_scan_render(s, ERRATA_FORMAT_JSON, source, &ro);
    errata_scan_free(s);
    return tool_result(md, js, false);
}

static json_t *tool_domains(errata_db *db, arguments *a)
{
    (void)a;
    return catalog_answer(db, errata_domains);
}

static json_t *tool_stats(errata_db *db, arguments *a)
{
    (void)a;
    return catalog_answer(db, errata_stats);
}

/* Each tool of assets/mcp-tools.json and the function that runs it. */
typedef struct {
    const char *name;
    json_t *(*run)(errata_db *db, arguments *a);
} tool;

static const tool TOOLS[] = {
    {"lookup_error", tool_lookup},         {"batch_lookup", tool_batch},
    {"scan_log", tool_scan},
    {"get_error_detail", tool_detail},     {"search_errors", tool_search},
    {"list_error_domains", tool_domains},  {"list_errors_by_domain", tool_domain},
    {"get_domain_stats", tool_stats},      {"get_error_chain", tool_chain},
    {"check_environment", tool_check},
};

static json_t *call_tool(errata_db *db, json_t *id, const json_t *params)
{
    const char *name = json_string_value(json_object_get(params, "name"));
    json_t *args = json_object_get(params, "arguments");
    if (!name)
        return rpc_error(id, MCP_INVALID_PARAMS, "tools/call needs params.name");
    if (args && !json_is_object(args))
        return rpc_error(id, MCP_INVALID_PARAMS, "params.arguments must be an object");
    const tool *t = NULL;
    for (size_t i = 0; i < sizeof TOOLS / sizeof *TOOLS && !t; i++)
        if (strcmp(TOOLS[i].name, name) == 0)
            t = &TOOLS[i];
    const json_t *schema = t ? tool_schema(name) : NULL;
    bool known = t && schema;
    json_t *empty = json_object();
    arguments a = {args ? args : empty, schema, ""};
    json_t *result = known ? t->run(db, &a) : NULL;
    json_decref(empty);
    if (!known) {
        char msg[300];
        snprintf(msg, sizeof msg, "unknown tool '%s'", name);
        return rpc_error(id, MCP_INVALID_PARAMS, msg);
    }
    /* Arguments that do not fit the tool's input schema are an error of the tool's execution,
     * which the model sees and can correct (the specification since 2025-11-25), not a
     * protocol error. */
    if (!result)
        result = tool_failure(a.problem[0] ? a.problem : "invalid arguments");
    json_t *r = reply(id, result);
    json_decref(result);
    return r;
}

/* ------------------------------------------------------------------ protocol */

static json_t *initialize(json_t *id, const json_t *params)
{
    const char *asked = json_string_value(json_object_get(params, "protocolVersion"));
    static const char *const supported[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05",
                                            NULL};
    const char *version = LATEST_PROTOCOL;
    for (const char *const *s = supported; asked && *s; s++)
        if (strcmp(asked, *s) == 0)
            version = *s;
    json_t *result = json_pack(
        "{s:s, s:{s:{s:b}, s:{s:b, s:b}, s:{s:b}}, s:{s:s, s:s, s:s}, s:s}", "protocolVersion",
        version, "capabilities", "tools", "listChanged", 0, "resources", "subscribe", 0,
        "listChanged", 0, "prompts", "listChanged", 0, "serverInfo", "name", "errata", "title",
        "Errata", "version", ERRATA_VERSION, "instructions",
        "Errata knows developer errors. When a command, build or test fails, call lookup_error "
        "with the exact error output before trying fixes: it names the known failure, what NOT "
        "to try and what works, with success rates. search_errors finds records by words, "
        "get_error_detail and get_error_chain follow up on a record's id, check_environment "
        "finds the errors a lock file's versions are exposed to. Records are also resources "
        "(errata://record/{domain}/{slug}, errata://domain/{domain}, errata://domains).");
    json_t *r = reply(id, result);
    json_decref(result);
    return r;
}

/* One request or notification; NULL when nothing is to be answered. */
static json_t *handle_one(errata_db *db, json_t *msg)
{
    if (!json_is_object(msg))
        return rpc_error(NULL, MCP_INVALID_REQUEST, "a JSON-RPC message must be an object");
    json_t *id = json_object_get(msg, "id");
    const char *method = json_string_value(json_object_get(msg, "method"));
    const char *version = json_string_value(json_object_get(msg, "jsonrpc"));
    if (!method) {
        /* A response from the client (we send no requests) or garbage. */
        if (json_object_get(msg, "result") || json_object_get(msg, "error"))
            return NULL;
        return rpc_error(id, MCP_INVALID_REQUEST, "the message has no method");
    }
    if (!version || strcmp(version, "2.0") != 0)
        return rpc_error(id, MCP_INVALID_REQUEST, "jsonrpc must be \"2.0\"");
    if (id && !json_is_string(id) && !json_is_integer(id))
        return rpc_error(NULL, MCP_INVALID_REQUEST, "id must be a string or an integer");
    if (!id) /* a notification: initialized, cancelled, … need no answer */
        return NULL;
    json_t *params = json_object_get(msg, "params");
    if (params && !json_is_object(params))
        return rpc_error(id, MCP_INVALID_PARAMS, "params must be an object");
    if (strcmp(method, "initialize") == 0)
        return initialize(id, params);
    if (strcmp(method, "ping") == 0) {
        json_t *empty = json_object();
        json_t *r = reply(id, empty);
        json_decref(empty);
        return r;
    }
    if (strcmp(method, "tools/list") == 0) {
        json_t *result = json_pack("{s:o}", "tools", json_deep_copy(tools()));
        json_t *r = reply(id, result);
        json_decref(result);
        return r;
    }
    if (strcmp(method, "tools/call") == 0)
        return call_tool(db, id, params);
    mcp_failure f = {0};
    if (strcmp(method, "resources/list") == 0)
        return method_reply(id, mcp_resources_list(db, params, &f), &f);
    if (strcmp(method, "resources/templates/list") == 0)
        return method_reply(id, mcp_resource_templates_list(params, &f), &f);
    if (strcmp(method, "resources/read") == 0)
        return method_reply(id, mcp_resources_read(db, params, &f), &f);
    if (strcmp(method, "prompts/list") == 0)
        return method_reply(id, mcp_prompts_list(params, &f), &f);
    if (strcmp(method, "prompts/get") == 0)
        return method_reply(id, mcp_prompts_get(params, &f), &f);
    char msgbuf[300];
    snprintf(msgbuf, sizeof msgbuf, "method not found: %s", method);
    return rpc_error(id, MCP_METHOD_NOT_FOUND, msgbuf);
}

char *mcp_handle(errata_db *db, const char *text, size_t len)
{
    json_error_t je;
    json_t *msg = json_loadb(text, len, 0, &je);
    json_t *answer = NULL;
    if (!msg) {
        char m[300];
        snprintf(m, sizeof m, "parse error at line %d, column %d: %s", je.line, je.column, je.text);
        answer = rpc_error(NULL, MCP_PARSE_ERROR, m);
    } else if (json_is_array(msg) && json_array_size(msg) > SERVER_MAX_BATCH) {
        char m[120];
        snprintf(m, sizeof m, "a batch of %zu messages is over the limit of %d",
                 json_array_size(msg), SERVER_MAX_BATCH);
        answer = rpc_error(NULL, MCP_INVALID_REQUEST, m);
    } else if (json_is_array(msg)) {
        /* A batch (protocol 2025-03-26): answers for its requests, none for notifications. */
        answer = json_array();
        size_t i;
        json_t *item;
        json_array_foreach(msg, i, item)
        {
            json_t *r = handle_one(db, item);
            if (r)
                json_array_append_new(answer, r);
        }
        if (json_array_size(msg) == 0)
            json_array_append_new(answer, rpc_error(NULL, MCP_INVALID_REQUEST, "an empty batch"));
        if (json_array_size(answer) == 0) {
            json_decref(answer);
            answer = NULL;
        }
    } else {
        answer = handle_one(db, msg);
    }
    json_decref(msg);
    char *out = answer ? json_dumps(answer, JSON_COMPACT) : NULL;
    json_decref(answer);
    if (out && strlen(out) > MCP_MAX_RESPONSE) {
        /* Each answer is bounded; many of them together are bounded here, as one error rather
         * than a reply cut off mid-body. */
        free(out);
        json_t *e = rpc_error(NULL, MCP_INVALID_REQUEST, "the answers to this batch are over the "
                                                     "size limit: send fewer requests at once");
        out = json_dumps(e, JSON_COMPACT);
        json_decref(e);
    }
    return out;
}
