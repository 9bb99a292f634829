/*
 * deadline.c — the watchdog behind deadline.h.
 *
 * Every open connection is on one list, guarded by one mutex, with the time by which its
 * current stage must end. The list is short (at most the server's connection limit) and is
 * walked twice a second, so a plain list is enough.
 *
 * Why shutdown() and not close(): the socket belongs to libmicrohttpd, which closes it and
 * frees the connection. shutdown() only ends the stream, which libmicrohttpd notices in its own
 * thread and handles as a client that went away. It is safe against a reused descriptor
 * because libmicrohttpd sends the "closed" notification, which takes the connection off the
 * list under the same mutex, before it closes the socket.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "deadline.h"

typedef struct watched {
    int fd;
    int64_t due_ms; /* CLOCK_MONOTONIC; 0 while the server is answering (no deadline) */
    bool cut;       /* shut down once already; waiting for libmicrohttpd to close it */
    struct watched *prev, *next;
} watched;

struct deadlines {
    unsigned header_s, body_s;
    pthread_mutex_t lock; /* guards head, every watched on it, and stopping */
    pthread_cond_t wake;  /* signalled to stop the watchdog */
    watched *head;
    bool stopping;
    pthread_t thread;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void cut_overdue(deadlines *dl, int64_t now)
{
    for (watched *w = dl->head; w; w = w->next)
        if (w->due_ms && now >= w->due_ms && !w->cut) {
            shutdown(w->fd, SHUT_RDWR);
            w->cut = true;
        }
}

static void *watchdog(void *arg)
{
    deadlines *dl = arg;
    pthread_mutex_lock(&dl->lock);
    while (!dl->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts); /* pthread_cond_timedwait's clock */
        ts.tv_nsec += 500 * 1000000L;
        if (ts.tv_nsec >= 1000000000L)
            ts.tv_sec++, ts.tv_nsec -= 1000000000L;
        int rc = pthread_cond_timedwait(&dl->wake, &dl->lock, &ts);
        if (rc == ETIMEDOUT || rc == 0)
            cut_overdue(dl, now_ms());
    }
    pthread_mutex_unlock(&dl->lock);
    return NULL;
}

deadlines *deadlines_start(unsigned header_s, unsigned body_s)
{
    deadlines *dl = calloc(1, sizeof *dl);
    if (!dl)
        return NULL;
    dl->header_s = header_s;
    dl->body_s = body_s;
    pthread_mutex_init(&dl->lock, NULL);
    pthread_cond_init(&dl->wake, NULL);
    if (pthread_create(&dl->thread, NULL, watchdog, dl) != 0) {
        pthread_cond_destroy(&dl->wake);
        pthread_mutex_destroy(&dl->lock);
        free(dl);
        return NULL;
    }
    return dl;
}

void deadlines_stop(deadlines *dl)
{
    if (!dl)
        return;
    pthread_mutex_lock(&dl->lock);
    dl->stopping = true;
    pthread_cond_signal(&dl->wake);
    pthread_mutex_unlock(&dl->lock);
    pthread_join(dl->thread, NULL);
    while (dl->head) { /* none after MHD_stop_daemon; freed in case */
        watched *w = dl->head;
        dl->head = w->next;
        free(w);
    }
    pthread_cond_destroy(&dl->wake);
    pthread_mutex_destroy(&dl->lock);
    free(dl);
}

void deadlines_on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                             enum MHD_ConnectionNotificationCode code)
{
    deadlines *dl = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *fd =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        watched *w = fd ? calloc(1, sizeof *w) : NULL;
        *socket_context = w;
        if (!w)
            return; /* unwatched: only the idle timeout applies to it */
        w->fd = fd->connect_fd;
        pthread_mutex_lock(&dl->lock);
        w->due_ms = now_ms() + (int64_t)dl->header_s * 1000;
        w->next = dl->head;
        if (dl->head)
            dl->head->prev = w;
        dl->head = w;
        pthread_mutex_unlock(&dl->lock);
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        watched *w = *socket_context;
        pthread_mutex_lock(&dl->lock);
        if (w->prev)
            w->prev->next = w->next;
        else
            dl->head = w->next;
        if (w->next)
            w->next->prev = w->prev;
        pthread_mutex_unlock(&dl->lock);
        free(w);
        *socket_context = NULL;
    }
}

/* Sets the connection's deadline to `seconds` from now, or none for 0. */
static void set_due(deadlines *dl, struct MHD_Connection *conn, unsigned seconds)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    watched *w = info ? info->socket_context : NULL;
    if (!w)
        return;
    pthread_mutex_lock(&dl->lock);
    w->due_ms = seconds ? now_ms() + (int64_t)seconds * 1000 : 0;
    pthread_mutex_unlock(&dl->lock);
}

void deadlines_headers_received(deadlines *dl, struct MHD_Connection *conn)
{
    set_due(dl, conn, dl->body_s);
}

void deadlines_request_received(deadlines *dl, struct MHD_Connection *conn)
{
    set_due(dl, conn, 0);
}

void deadlines_request_done(deadlines *dl, struct MHD_Connection *conn)
{
    set_due(dl, conn, dl->header_s);
}
