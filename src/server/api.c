/*
 * api.c — the JSON endpoints under /api/v1 (docs/http-api.md). Each handler checks its input,
 * calls liberrata and returns what the library rendered; errors become JSON with the right
 * status.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "handlers.h"
#include "limits.h"
#include "params.h"

#define API "/api/v1/"

static bool is(const http_request *req, const char *method) { return strcmp(req->method, method) == 0; }

static void not_allowed(http_response *res, const char *allow)
{
    http_error(res, 405, "method_not_allowed", "use %s here", allow);
    res->allow = allow;
}

/* The status and code that answer a library error. */
static unsigned error_status(const errata_error *err, const char **code)
{
    switch (err->code) {
    case ERRATA_ERR_NOT_FOUND: *code = "not_found"; return 404;
    case ERRATA_ERR_ARG: *code = "bad_request"; return 400;
    case ERRATA_ERR_TOO_BIG: *code = "payload_too_large"; return 413;
    default: *code = "internal"; return 500;
    }
}

static void library_error(http_response *res, const errata_error *err)
{
    const char *code;
    unsigned status = error_status(err, &code);
    http_error(res, status, code, "%s", err->message);
}

/* Reads a positive limit from a query argument or JSON value; 0 when absent; -1 when bad. */
static long parse_limit(const char *s)
{
    if (!s)
        return 0;
    char *end;
    long v = strtol(s, &end, 10);
    return *end || v < 1 || v > SERVER_MAX_LIMIT ? -1 : v;
}

/* Looks text up and renders the answer as JSON into *out. */
static bool lookup_json(errata_db *db, const char *text, size_t len, size_t limit,
                        errata_lang lang, char **out, errata_error *err)
{
    errata_lookup_options lo = {.max_results = limit};
    errata_result *r = NULL;
    if (errata_lookup(db, text, len, &lo, &r, err) != ERRATA_OK)
        return false;
    errata_render_options ro = {.lang = lang};
    *out = errata_result_render(r, ERRATA_FORMAT_JSON, &ro);
    errata_result_free(r);
    if (!*out) {
        err->code = ERRATA_ERR_NOMEM;
        snprintf(err->message, sizeof err->message, "out of memory");
        return false;
    }
    return true;
}

/* Answers with a lookup of text, or with the error. */
static void lookup_answer(errata_db *db, const char *text, size_t len, size_t limit,
                          errata_lang lang, http_response *res)
{
    char *out;
    errata_error err = {0};
    if (lookup_json(db, text, len, limit, lang, &out, &err))
        http_set(res, 200, "application/json", out);
    else
        library_error(res, &err);
}

/* Parses a JSON body that must be an object; on failure fills res. */
static json_t *json_body(const http_request *req, http_response *res)
{
    if (!errata_utf8_valid(req->body, req->body_len)) {
        http_error(res, 400, "invalid_utf8", "the body is not valid UTF-8");
        return NULL;
    }
    json_error_t je;
    json_t *j = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        http_error(res, 400, "invalid_json", "line %d, column %d: %s", je.line, je.column,
                   je.text);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        http_error(res, 400, "invalid_json", "the body must be a JSON object");
        return NULL;
    }
    return j;
}

static bool json_options(json_t *j, size_t *limit, errata_lang *lang, http_response *res)
{
    json_t *l = json_object_get(j, "limit");
    if (l && (!json_is_integer(l) || json_integer_value(l) < 1 || json_integer_value(l) > SERVER_MAX_LIMIT)) {
        http_error(res, 400, "bad_request", "limit must be a whole number from 1 to %d", SERVER_MAX_LIMIT);
        return false;
    }
    *limit = l ? (size_t)json_integer_value(l) : 0;
    json_t *g = json_object_get(j, "lang");
    if ((g && !json_is_string(g)) || !server_parse_lang(g ? json_string_value(g) : NULL, lang)) {
        http_error(res, 400, "bad_request", "lang must be \"en\" or \"zh\"");
        return false;
    }
    return true;
}

static void lookup_get(errata_db *db, const http_request *req, http_response *res)
{
    const char *q = http_arg(req, "q");
    long limit = parse_limit(http_arg(req, "limit"));
    errata_lang lang;
    if (!q || !*q)
        return http_error(res, 400, "bad_request", "the query parameter q (the error text) is required");
    if (!errata_utf8_valid(q, strlen(q)))
        return http_error(res, 400, "invalid_utf8", "q is not valid UTF-8");
    if (limit < 0)
        return http_error(res, 400, "bad_request", "limit must be a whole number from 1 to %d", SERVER_MAX_LIMIT);
    if (!server_parse_lang(http_arg(req, "lang"), &lang))
        return http_error(res, 400, "bad_request", "lang must be en or zh");
    lookup_answer(db, q, strlen(q), (size_t)limit, lang, res);
}

static void lookup_post(errata_db *db, const http_request *req, http_response *res)
{
    const char *ct = req->content_type ? req->content_type : "";
    if (strncmp(ct, "text/plain", 10) == 0) {
        /* A raw paste: invalid UTF-8 is repaired by the lookup, as on the command line. */
        lookup_answer(db, req->body, req->body_len, 0, ERRATA_LANG_EN, res);
        return;
    }
    json_t *j = json_body(req, res);
    if (!j)
        return;
    json_t *text = json_object_get(j, "text");
    size_t limit;
    errata_lang lang;
    if (!json_is_string(text))
        http_error(res, 400, "invalid_json", "the body needs \"text\": the error text, a string");
    else if (json_options(j, &limit, &lang, res))
        lookup_answer(db, json_string_value(text), json_string_length(text), limit, lang, res);
    json_decref(j);
}

static void lookup_batch(errata_db *db, const http_request *req, http_response *res)
{
    json_t *j = json_body(req, res);
    if (!j)
        return;
    json_t *items = json_object_get(j, "items");
    size_t limit;
    errata_lang lang;
    if (!json_is_array(items) || json_array_size(items) == 0) {
        http_error(res, 400, "invalid_json", "the body needs \"items\": an array of {\"text\": …}");
    } else if (json_array_size(items) > SERVER_MAX_BATCH) {
        http_error(res, 400, "bad_request", "at most %d items in one batch, not %zu", SERVER_MAX_BATCH,
                   json_array_size(items));
    } else if (json_options(j, &limit, &lang, res)) {
        json_t *results = json_array();
        size_t i;
        json_t *item;
        json_array_foreach(items, i, item)
        {
            json_t *text = json_object_get(item, "text");
            char *out;
            errata_error err = {0};
            if (!json_is_string(text)) {
                http_error(res, 400, "invalid_json", "items[%zu] needs \"text\", a string", i);
                break;
            }
            if (!lookup_json(db, json_string_value(text), json_string_length(text), limit, lang,
                             &out, &err)) {
                const char *code;
                unsigned status = error_status(&err, &code);
                http_error(res, status, code, "items[%zu]: %.900s", i, err.message);
                break;
            }
            json_array_append_new(results, json_loads(out, 0, NULL));
            free(out);
        }
        if (i == json_array_size(items)) {
            json_t *answer = json_pack("{s:o}", "results", results);
            http_set(res, 200, "application/json", json_dumps(answer, JSON_INDENT(2)));
            json_decref(answer);
        } else {
            json_decref(results);
        }
    }
    json_decref(j);
}

static void check(errata_db *db, const http_request *req, http_response *res)
{
    json_t *j = json_body(req, res);
    if (!j)
        return;
    const char *format = json_string_value(json_object_get(j, "format"));
    char why[1024];
    bool bad_shape;
    errata_env *env = NULL;
    if (json_object_get(j, "format") &&
        (!format || (strcmp(format, "json") != 0 && strcmp(format, "sarif") != 0)))
        http_error(res, 400, "invalid_json", "format must be \"json\" or \"sarif\"");
    else if (!(env = env_from_request(j, why, sizeof why, &bad_shape)))
        http_error(res, 400, bad_shape ? "invalid_json" : "bad_request", "%s", why);
    if (env) {
        bool sarif = format && strcmp(format, "sarif") == 0;
        char *out = NULL;
        errata_error err = {0};
        if (errata_check(db, env, sarif ? ERRATA_FORMAT_SARIF : ERRATA_FORMAT_JSON, &out, NULL,
                         &err) != ERRATA_OK)
            library_error(res, &err);
        else
            http_set(res, 200, sarif ? "application/sarif+json" : "application/json", out);
        errata_env_free(env);
    }
    json_decref(j);
}

static void search(errata_db *db, const http_request *req, http_response *res)
{
    const char *q = http_arg(req, "q");
    long limit = parse_limit(http_arg(req, "limit"));
    if (!q || !*q)
        return http_error(res, 400, "bad_request", "the query parameter q (words) is required");
    if (!errata_utf8_valid(q, strlen(q)))
        return http_error(res, 400, "invalid_utf8", "q is not valid UTF-8");
    if (limit < 0)
        return http_error(res, 400, "bad_request", "limit must be a whole number from 1 to %d", SERVER_MAX_LIMIT);
    errata_result *r = NULL;
    errata_error err = {0};
    if (errata_search(db, q, strlen(q), (size_t)limit, &r, &err) != ERRATA_OK)
        return library_error(res, &err);
    http_set(res, 200, "application/json", errata_result_render(r, ERRATA_FORMAT_JSON, NULL));
    errata_result_free(r);
}

static void record(errata_db *db, const char *id, http_response *res)
{
    const errata_record *r;
    errata_error err = {0};
    if (errata_get_record(db, id, &r, &err) != ERRATA_OK)
        return library_error(res, &err);
    http_set(res, 200, "application/json", errata_record_render(r, ERRATA_FORMAT_JSON, NULL));
}

/* rc and out come from a catalog call made just before (not in the argument list: C leaves the
 * order of evaluating arguments open, and out must be read after the call). */
static void catalog_answer(errata_code rc, char *out, const errata_error *err, http_response *res)
{
    if (rc != ERRATA_OK)
        library_error(res, err);
    else
        http_set(res, 200, "application/json", out);
}

static void chain(errata_db *db, const http_request *req, const char *id, http_response *res)
{
    const char *d = http_arg(req, "depth");
    long depth = 2;
    if (d) {
        char *end;
        depth = strtol(d, &end, 10);
        if (*end || depth < 1 || depth > 5)
            return http_error(res, 400, "bad_request", "depth must be from 1 to 5");
    }
    char *out = NULL;
    errata_error err = {0};
    errata_code rc = errata_chain(db, id, (int)depth, ERRATA_FORMAT_JSON, NULL, &out, &err);
    catalog_answer(rc, out, &err, res);
}

static void health(errata_db *db, http_response *res)
{
    json_t *j = json_pack("{s:s, s:I}", "status", "ok", "records",
                          (json_int_t)errata_db_record_count(db));
    http_set(res, 200, "application/json", json_dumps(j, 0));
    json_decref(j);
}

int api_route(errata_db *db, const http_request *req, http_response *res)
{
    const char *p = req->path;
    if (strcmp(p, "/healthz") == 0) {
        if (!is(req, "GET"))
            not_allowed(res, "GET");
        else
            health(db, res);
        return 1;
    }
    if (strncmp(p, API, strlen(API)) != 0)
        return 0;
    p += strlen(API);
    char *out = NULL;
    errata_error err = {0};
    if (strcmp(p, "lookup") == 0) {
        if (is(req, "GET"))
            lookup_get(db, req, res);
        else if (is(req, "POST"))
            lookup_post(db, req, res);
        else
            not_allowed(res, "GET, POST");
    } else if (strcmp(p, "check") == 0) {
        if (is(req, "POST"))
            check(db, req, res);
        else
            not_allowed(res, "POST");
    } else if (strcmp(p, "scan") == 0) {
        /* A POST is streamed to scan_api.c before the body is gathered; one that reaches here
         * found no memory for its scan. */
        if (is(req, "POST"))
            http_error(res, 503, "unavailable", "out of memory for a scan; try again");
        else
            not_allowed(res, "POST");
    } else if (strcmp(p, "lookup/batch") == 0) {
        if (is(req, "POST"))
            lookup_batch(db, req, res);
        else
            not_allowed(res, "POST");
    } else if (!is(req, "GET")) {
        not_allowed(res, "GET");
    } else if (strcmp(p, "search") == 0) {
        search(db, req, res);
    } else if (strncmp(p, "records/", 8) == 0 && p[8]) {
        record(db, p + 8, res);
    } else if (strcmp(p, "domains") == 0) {
        errata_code rc = errata_domains(db, ERRATA_FORMAT_JSON, NULL, &out, &err);
        catalog_answer(rc, out, &err, res);
    } else if (strncmp(p, "domains/", 8) == 0 && p[8]) {
        errata_code rc = errata_domain_records(db, p + 8, ERRATA_FORMAT_JSON, NULL, &out, &err);
        catalog_answer(rc, out, &err, res);
    } else if (strcmp(p, "stats") == 0) {
        errata_code rc = errata_stats(db, ERRATA_FORMAT_JSON, NULL, &out, &err);
        catalog_answer(rc, out, &err, res);
    } else if (strncmp(p, "chain/", 6) == 0 && p[6]) {
        chain(db, req, p + 6, res);
    } else {
        http_error(res, 404, "not_found", "no such endpoint: %s", req->path);
    }
    return 1;
}
