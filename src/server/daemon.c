/*
 * daemon.c — the HTTP layer of `errata serve` on libmicrohttpd: a pool of worker threads, the
 * request body read under a size limit, handed to the route table (routes.c), and a clean stop
 * on SIGTERM.
 *
 * libmicrohttpd calls the access handler several times per request: once when the headers have
 * arrived, once per chunk of body, and a last time with no data, when the response is queued.
 * The body is gathered in a request_state kept in *con_cls between the calls.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <jansson.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "daemon.h"
#include "deadline.h"
#include "limits.h"
#include "routes.h"

typedef struct {
    errata_db *db;
    size_t max_body;
    const server_config *cfg;
    deadlines *deadlines;
} server_ctx;

typedef struct {
    char *body;
    size_t len, cap;
    int too_large;   /* the body passed max_body; the rest is discarded */
    body_sink *sink; /* the body goes to its handler as it arrives (routes_sink) */
} request_state;

static enum MHD_Result send_response(struct MHD_Connection *conn, http_response *res)
{
    if (!res->body)
        res->len = 0;
    struct MHD_Response *r = MHD_create_response_from_buffer(
        res->len, res->body ? res->body : (void *)"", res->body ? MHD_RESPMEM_MUST_FREE
                                                                 : MHD_RESPMEM_PERSISTENT);
    if (!r) {
        free(res->body);
        return MHD_NO;
    }
    res->body = NULL; /* now the response's */
    if (res->content_type)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, res->content_type);
    if (res->allow)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, res->allow);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    enum MHD_Result ok = MHD_queue_response(conn, res->status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_size, void **con_cls)
{
    (void)version;
    server_ctx *ctx = cls;
    request_state *st = *con_cls;
    if (!st) {
        if (!(st = calloc(1, sizeof *st)))
            return MHD_NO;
        *con_cls = st;
        deadlines_headers_received(ctx->deadlines, conn);
        http_request head = {method, url, "", 0,
                             MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                         MHD_HTTP_HEADER_CONTENT_TYPE),
                             conn};
        if ((st->sink = routes_sink(ctx->db, ctx->cfg, &head)))
            return MHD_YES; /* no body limit: the sink reads in constant memory */
        /* A declared oversize body is read and discarded, not stored, and answered 413 at the
         * end: answering before reading it and closing makes many clients see a reset
         * instead of the 413. */
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                     MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > ctx->max_body)
            st->too_large = 1;
        return MHD_YES;
    }
    if (*upload_size && st->sink) {
        st->sink->feed(st->sink, upload_data, *upload_size);
        *upload_size = 0;
        return MHD_YES;
    }
    if (*upload_size) {
        if (!st->too_large && st->len + *upload_size <= ctx->max_body) {
            if (st->len + *upload_size + 1 > st->cap) {
                size_t cap = st->cap ? st->cap : 4096;
                while (cap < st->len + *upload_size + 1)
                    cap *= 2;
                char *p = realloc(st->body, cap);
                if (!p)
                    return MHD_NO;
                st->body = p;
                st->cap = cap;
            }
            memcpy(st->body + st->len, upload_data, *upload_size);
            st->len += *upload_size;
        } else {
            st->too_large = 1;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    deadlines_request_received(ctx->deadlines, conn);
    http_response res = {0};
    if (st->sink) {
        st->sink->finish(st->sink, &res);
        return send_response(conn, &res);
    }
    if (st->too_large) {
        http_error(&res, 413, "payload_too_large", "the body is over the limit of %zu bytes",
                   ctx->max_body);
        return send_response(conn, &res);
    }
    if (st->body)
        st->body[st->len] = '\0';
    http_request req = {method, url, st->body ? st->body : "", st->len,
                        MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                    MHD_HTTP_HEADER_CONTENT_TYPE),
                        conn};
    routes_dispatch(ctx->db, ctx->cfg, &req, &res);
    if (!res.status)
        http_error(&res, 500, "internal", "the request was not answered");
    return send_response(conn, &res);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)toe;
    server_ctx *ctx = cls;
    deadlines_request_done(ctx->deadlines, conn);
    request_state *st = *con_cls;
    if (st) {
        free(st->body);
        if (st->sink)
            st->sink->free(st->sink);
        free(st);
        *con_cls = NULL;
    }
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Percent-decoding of the path and the query, as libmicrohttpd's own, except that "%00" stays
 * as it is: a decoded NUL would end the C string early, so "/assets/style.css%00.js" would be
 * routed as "/assets/style.css". Kept encoded, it names no route and gets a 404. */
static size_t unescape_without_nul(void *cls, struct MHD_Connection *conn, char *s)
{
    (void)cls, (void)conn;
    char *out = s;
    for (const char *in = s; *in; in++) {
        int hi, lo;
        if (in[0] == '%' && (hi = hex_value(in[1])) >= 0 && (lo = hex_value(in[2])) >= 0 &&
            (hi | lo) != 0) {
            *out++ = (char)(hi * 16 + lo);
            in += 2;
        } else {
            *out++ = *in;
        }
    }
    *out = '\0';
    return (size_t)(out - s);
}

int server_run(errata_db *db, const server_config *cfg)
{
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons(cfg->port);
    if (inet_pton(AF_INET, cfg->host, &addr.sin_addr) != 1) {
        fprintf(stderr, "errata: '%s' is not an IPv4 address to listen on\n", cfg->host);
        return 2;
    }
    /* Signals are taken by sigwait() below, so every thread (libmicrohttpd's included) must
     * have them blocked: block before starting any. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = cfg->threads ? cfg->threads : (cpus > 0 ? (unsigned)cpus : 2);
    server_ctx ctx = {db, cfg->max_body, cfg, NULL};
    unsigned header_s = cfg->header_timeout_s ? cfg->header_timeout_s : SERVER_HEADER_TIMEOUT_S;
    unsigned per_client = cfg->max_client_connections ? cfg->max_client_connections
                                                      : SERVER_MAX_CLIENT_CONNECTIONS;
    if (!(ctx.deadlines = deadlines_start(header_s, SERVER_BODY_TIMEOUT_S))) {
        fprintf(stderr, "errata: cannot start the server's watchdog thread\n");
        return 2;
    }
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO, 0, NULL, NULL,
        on_request, &ctx, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        SERVER_CONNECTION_MEMORY, MHD_OPTION_CONNECTION_TIMEOUT, SERVER_IDLE_TIMEOUT_S,
        MHD_OPTION_CONNECTION_LIMIT, SERVER_MAX_CONNECTIONS, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
        per_client, MHD_OPTION_NOTIFY_CONNECTION, deadlines_on_connection, ctx.deadlines,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, &ctx, MHD_OPTION_UNESCAPE_CALLBACK,
        unescape_without_nul, NULL, MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "errata: cannot listen on %s:%u (in use, or not allowed)\n", cfg->host,
                cfg->port);
        deadlines_stop(ctx.deadlines);
        return 2;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    fprintf(stderr, "errata: serving on http://%s:%u\n", cfg->host,
            info ? info->port : cfg->port);
    fflush(stderr);
    int sig = 0;
    sigwait(&stop, &sig);
    MHD_stop_daemon(d); /* waits for the requests in flight */
    deadlines_stop(ctx.deadlines);
    fprintf(stderr, "errata: stopped (%s)\n", sig == SIGTERM ? "SIGTERM" : "SIGINT");
    return 0;
}
