/*
 * mcp_resources.c — MCP resources: the knowledge base as documents an agent (or its user) can
 * attach without a tool call. The fixed resources and the URI templates are data
 * (assets/mcp-resources.json); the URIs are
 *
 *   errata://domains               the domains with their record counts
 *   errata://stats                 the knowledge base's statistics
 *   errata://domain/{domain}       a domain's records
 *   errata://record/{domain}/{slug} one record
 *
 * as JSON (application/json, the HTTP API's answers), and each with ".md" appended as Markdown
 * (text/markdown). resources/list gives the fixed resources, every domain and every record, in
 * pages of MCP_RESOURCES_PAGE. liberrata renders every answer; this file maps URIs to it.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "mcp_methods.h"

#define SCHEME "errata://"

static const json_t *resource_defs(const char *key)
{
    return json_object_get(mcp_get_data()->resources, key);
}

static json_t *fail(mcp_failure *f, int code, const char *message)
{
    f->code = code;
    snprintf(f->message, sizeof f->message, "%.500s", message);
    return NULL;
}

/* The domains' names, from the library's JSON list of them. */
static json_t *domain_names(errata_db *db, errata_error *err)
{
    char *js = NULL;
    if (errata_domains(db, ERRATA_FORMAT_JSON, NULL, &js, err) != ERRATA_OK)
        return NULL;
    json_t *list = json_loads(js, 0, NULL);
    free(js);
    json_t *names = json_array();
    size_t i;
    const json_t *d;
    json_array_foreach(json_object_get(list, "domains"), i, d)
        json_array_append(names, json_object_get(d, "domain"));
    json_decref(list);
    return names;
}

/* The i-th entry of resources/list: the fixed resources, then the domains, then the records. */
static json_t *entry(errata_db *db, const json_t *fixed, const json_t *domains, size_t i,
                     errata_error *err)
{
    if (i < json_array_size(fixed))
        return json_deep_copy(json_array_get(fixed, i));
    i -= json_array_size(fixed);
    char uri[1024];
    if (i < json_array_size(domains)) {
        const char *d = json_string_value(json_array_get(domains, i));
        snprintf(uri, sizeof uri, SCHEME "domain/%s", d);
        char title[300];
        snprintf(title, sizeof title, "The %s records", d);
        return json_pack("{s:s, s:s, s:s, s:s}", "uri", uri, "name", d, "title", title, "mimeType",
                         "application/json");
    }
    i -= json_array_size(domains);
    const errata_record *r;
    if (errata_record_at(db, i, &r, err) != ERRATA_OK)
        return NULL;
    snprintf(uri, sizeof uri, SCHEME "record/%s", errata_record_id(r));
    return json_pack("{s:s, s:s, s:s, s:s}", "uri", uri, "name", errata_record_id(r), "title",
                     errata_record_signature(r), "mimeType", "application/json");
}

json_t *mcp_resources_list(errata_db *db, const json_t *params, mcp_failure *f)
{
    /* The cursor is the position of the page's first entry, as a decimal string: the index is
     * read-only while the server runs, so a position always means the same entry. */
    const json_t *cursor = json_object_get(params, "cursor");
    size_t start = 0;
    if (cursor) {
        const char *c = json_string_value(cursor);
        char *end = NULL;
        unsigned long long v = c && *c >= '0' && *c <= '9' ? strtoull(c, &end, 10) : 0;
        if (!c || !end || *end || (size_t)v != v)
            return fail(f, MCP_INVALID_PARAMS, "invalid cursor: give the nextCursor of a previous "
                                               "resources/list answer");
        start = (size_t)v;
    }
    errata_error err = {0};
    json_t *domains = domain_names(db, &err);
    if (!domains)
        return fail(f, MCP_INTERNAL_ERROR, err.message);
    const json_t *fixed = resource_defs("resources");
    size_t total = json_array_size(fixed) + json_array_size(domains) + errata_db_record_count(db);
    if (start > total) {
        json_decref(domains);
        return fail(f, MCP_INVALID_PARAMS, "invalid cursor: past the end of the list");
    }
    json_t *page = json_array();
    size_t i;
    for (i = start; i < total && i < start + MCP_RESOURCES_PAGE; i++) {
        json_t *e = entry(db, fixed, domains, i, &err);
        if (!e) {
            json_decref(page);
            json_decref(domains);
            return fail(f, MCP_INTERNAL_ERROR, err.message);
        }
        json_array_append_new(page, e);
    }
    json_decref(domains);
    json_t *result = json_pack("{s:o}", "resources", page);
    if (i < total) {
        char next[32];
        snprintf(next, sizeof next, "%zu", i);
        json_object_set_new(result, "nextCursor", json_string(next));
    }
    return result;
}

json_t *mcp_resource_templates_list(const json_t *params, mcp_failure *f)
{
    (void)params;
    (void)f;
    return json_pack("{s:O}", "resourceTemplates", resource_defs("resourceTemplates"));
}

/* The document a URI names, rendered by the library in fmt into *out. */
static errata_code render(errata_db *db, const char *path, errata_format fmt, char **out,
                          errata_error *err)
{
    if (strcmp(path, "domains") == 0)
        return errata_domains(db, fmt, NULL, out, err);
    if (strcmp(path, "stats") == 0)
        return errata_stats(db, fmt, NULL, out, err);
    if (strncmp(path, "domain/", 7) == 0 && path[7] && !strchr(path + 7, '/'))
        return errata_domain_records(db, path + 7, fmt, NULL, out, err);
    if (strncmp(path, "record/", 7) == 0) {
        const errata_record *r;
        errata_code c = errata_get_record(db, path + 7, &r, err);
        if (c != ERRATA_OK)
            return c;
        *out = errata_record_render(r, fmt, NULL);
        if (!*out) {
            snprintf(err->message, sizeof err->message, "%s: out of memory rendering it", path);
            return err->code = ERRATA_ERR_NOMEM;
        }
        return ERRATA_OK;
    }
    snprintf(err->message, sizeof err->message, "no resource '%.900s'", path);
    return err->code = ERRATA_ERR_NOT_FOUND;
}

json_t *mcp_resources_read(errata_db *db, const json_t *params, mcp_failure *f)
{
    const char *uri = json_string_value(json_object_get(params, "uri"));
    if (!uri)
        return fail(f, MCP_INVALID_PARAMS, "resources/read needs params.uri, a string");
    size_t n = strlen(uri), scheme = strlen(SCHEME);
    bool markdown = n > scheme + 3 && strcmp(uri + n - 3, ".md") == 0;
    char *path = strncmp(uri, SCHEME, scheme) == 0
                     ? strndup(uri + scheme, n - scheme - (markdown ? 3 : 0))
                     : NULL;
    char *text = NULL;
    errata_error err = {0};
    errata_code c = path ? render(db, path, markdown ? ERRATA_FORMAT_MARKDOWN : ERRATA_FORMAT_JSON,
                                  &text, &err)
                         : ERRATA_ERR_NOT_FOUND;
    free(path);
    if (c != ERRATA_OK) {
        if (c != ERRATA_ERR_NOT_FOUND && c != ERRATA_ERR_ARG)
            return fail(f, MCP_INTERNAL_ERROR, err.message);
        /* The specification's error for a URI that names nothing, with the URI as data. */
        f->code = MCP_RESOURCE_NOT_FOUND;
        snprintf(f->message, sizeof f->message, "Resource not found: %.400s", uri);
        f->data = json_pack("{s:s}", "uri", uri);
        return NULL;
    }
    json_t *result = json_pack("{s:[{s:s, s:s, s:s}]}", "contents", "uri", uri, "mimeType",
                               markdown ? "text/markdown" : "application/json", "text", text);
    free(text);
    return result;
}
