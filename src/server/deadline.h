/*
 * deadline.h — time limits on receiving a request that a trickling client cannot extend.
 *
 * libmicrohttpd's connection timeout is an idle timeout: every byte restarts it, so a client
 * that sends one header line every few seconds holds its connection for ever, and 1,024 such
 * clients hold all of them (slowloris). A deadline here runs from the moment the server starts
 * waiting for a request (the connection opened, or the previous answer was sent) and is not
 * moved by anything the client sends: the headers must be complete within `header_s`, the body
 * within `body_s` of the headers. A connection past its deadline is shut down; libmicrohttpd
 * then sees the end of the stream and closes it as usual.
 *
 * A watchdog thread checks the connections every half second, so a deadline is kept to within
 * about half a second.
 */
#ifndef ERRATA_SERVER_DEADLINE_H
#define ERRATA_SERVER_DEADLINE_H

#include <microhttpd.h>

typedef struct deadlines deadlines;

/* Starts the watchdog. NULL when out of memory or no thread could be started. */
deadlines *deadlines_start(unsigned header_s, unsigned body_s);
/* Stops the watchdog and frees what it holds; call after MHD_stop_daemon, which has closed (and
 * so unregistered) every connection. */
void deadlines_stop(deadlines *dl);

/* MHD_OPTION_NOTIFY_CONNECTION callback, with cls the deadlines: registers a connection when it
 * opens (its header deadline starts) and forgets it when it closes. */
void deadlines_on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                             enum MHD_ConnectionNotificationCode code);

/* The request's headers have arrived: its body deadline starts. */
void deadlines_headers_received(deadlines *dl, struct MHD_Connection *conn);
/* The request has arrived whole and is being answered: no deadline while the server works. */
void deadlines_request_received(deadlines *dl, struct MHD_Connection *conn);
/* The answer has been sent: the header deadline of the next request on the connection starts. */
void deadlines_request_done(deadlines *dl, struct MHD_Connection *conn);

#endif
