/*
 * http_message.c — see http_message.h.
 */
#define _GNU_SOURCE
#include "http_message.h"

#include <jansson.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *http_arg(const http_request *req, const char *name)
{
    return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

const char *http_header(const http_request *req, const char *name)
{
    return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

void http_set(http_response *res, unsigned status, const char *content_type, char *body)
{
    free(res->body);
    res->status = status;
    res->content_type = content_type;
    res->body = body;
    res->len = body ? strlen(body) : 0;
}

void http_error(http_response *res, unsigned status, const char *code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *j = json_pack("{s:{s:s, s:s}}", "error", "code", code, "message", msg);
    http_set(res, status, "application/json", j ? json_dumps(j, JSON_INDENT(2)) : NULL);
    json_decref(j);
}
