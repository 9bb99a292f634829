/*
 * sandbox.h — running a record's reproduce command the way `errata verify` promises: `/bin/sh -c
 * COMMAND` (the command is the one piece of record text a shell sees, as one argument) in a
 * fresh empty scratch directory that is also HOME and TMPDIR, with the environment cleared to a
 * fixed PATH and the C.UTF-8 locale, in a network namespace of its own where the kernel allows
 * one (so no network), with core dumps off, written files and CPU time bounded, and the whole
 * process group killed at the timeout. Run as root, the command runs as nobody (uid 65534), so
 * that it cannot change the machine. The scratch directory is removed afterwards.
 *
 * Memory is deliberately not limited: sanitizer runtimes reserve terabytes of address space and
 * the JVM gigabytes, so any RLIMIT_AS low enough to matter would break the very tools verified.
 * This runs commands from the knowledge base, which is reviewed like code; it contains mistakes,
 * not attacks (docs/verify.md).
 */
#ifndef ERRATA_SANDBOX_H
#define ERRATA_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "errata.h"

/* The PATH every command runs with: the system's tools, the same on every machine. */
extern const char SANDBOX_PATH[];

typedef struct {
    double timeout_s;         /* wall clock; then the process group is killed */
    size_t max_output;        /* bytes of stdout+stderr kept; more is read and dropped */
    size_t max_file_bytes;    /* RLIMIT_FSIZE */
    bool isolate_network;     /* try a new network namespace */
} sandbox_limits;

typedef struct {
    char *output;          /* stdout and stderr interleaved, NUL-terminated; owned */
    size_t len;
    bool truncated;        /* more than max_output was printed */
    int exit_status;       /* the exit code, or -1 when a signal ended it */
    int signal;            /* that signal, else 0 */
    bool timed_out;        /* killed at the timeout */
    bool network_isolated; /* the command ran without a network */
    double seconds;
} sandbox_result;

/* Runs command. Fails only when it could not be run at all (no scratch directory, no process,
 * no /bin/sh); a command that fails, hangs or crashes is a result. */
errata_code sandbox_run(const char *command, const sandbox_limits *lim, sandbox_result *out,
                        errata_error *err);
void sandbox_result_free(sandbox_result *r);

#endif
