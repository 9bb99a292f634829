/*
 * http_message.h — a request as the handlers see it and the response they fill, with the
 * helpers that read one and write the other. Depends on nothing else of the server: the daemon,
 * the route table and every handler build on it.
 */
#ifndef ERRATA_HTTP_MESSAGE_H
#define ERRATA_HTTP_MESSAGE_H

#include <stddef.h>

/* A response being built by a handler. body is malloc'd (or NULL for none). */
typedef struct {
    unsigned status;
    char *body;
    size_t len;
    const char *content_type;
    const char *allow; /* for 405: the methods allowed */
} http_response;

typedef struct {
    const char *method;
    const char *path;
    const char *body; /* NUL-terminated */
    size_t body_len;
    const char *content_type;
    void *conn; /* struct MHD_Connection *, for query arguments and headers */
} http_request;

/* A request whose body its handler reads as it arrives, in constant memory, instead of the
 * daemon gathering it under the body limit first (POST /api/v1/scan of a whole log). */
typedef struct body_sink {
    void *state;
    /* Takes the next piece of the body. */
    void (*feed)(struct body_sink *s, const char *data, size_t len);
    /* The body has ended: the answer. */
    void (*finish)(struct body_sink *s, http_response *res);
    void (*free)(struct body_sink *s); /* frees s too */
} body_sink;

/* A query argument (decoded) or header, or NULL. */
const char *http_arg(const http_request *req, const char *name);
const char *http_header(const http_request *req, const char *name);

/* Sets a JSON error body {"error": {"code", "message"}}. */
void http_error(http_response *res, unsigned status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Takes ownership of a malloc'd body. */
void http_set(http_response *res, unsigned status, const char *content_type, char *body);

#endif
