/*
 * cmd_run.c — `errata run [OPTIONS] -- CMD [ARGS…]`: runs a command without a shell, passes its
 * output through unchanged and live, scans it as it comes, and when the command fails says which
 * known failures its output holds. Exits with the command's own status.
 *
 * stdout and stderr are read from two pipes; each is passed through as it arrives, and given
 * to the scan one whole line at a time, so that a line of one stream is never cut by a line of
 * the other. Line numbers in the findings count the lines in the order they arrived.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "cli_help.h"

extern char **environ;

/* A line longer than this is given to the scan in pieces (the scan takes lines of any length;
 * this only bounds what waits here for its end). */
#define PENDING_MAX ((size_t)1 << 20)

typedef struct {
    int fd;          /* the read end of the pipe, -1 once it is closed */
    int out;         /* where it is passed through: 1 or 2 */
    char *pending;   /* the start of a line whose end has not arrived */
    size_t n_pending;
} stream;

/* The child, for the signal handler: signals that would stop errata are passed on to it. */
static volatile sig_atomic_t child_pid;

static void forward_signal(int sig)
{
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return; /* our own output is gone (a closed pipe): keep running the command */
        p += w, n -= (size_t)w;
    }
}

/* Gives the complete lines of what arrived to the scan and keeps the rest for later. */
static errata_code take_output(stream *st, const char *buf, size_t n, errata_scan *scan,
                               errata_error *err)
{
    const char *last_nl = memrchr(buf, '\n', n);
    errata_code rc = ERRATA_OK;
    if (!last_nl) {
        if (st->n_pending + n > PENDING_MAX) {
            rc = errata_scan_feed(scan, st->pending, st->n_pending, err);
            st->n_pending = 0;
            if (rc == ERRATA_OK)
                rc = errata_scan_feed(scan, buf, n, err);
            return rc;
        }
        memcpy(st->pending + st->n_pending, buf, n);
        st->n_pending += n;
        return ERRATA_OK;
    }
    size_t upto = (size_t)(last_nl - buf) + 1;
    if (st->n_pending)
        rc = errata_scan_feed(scan, st->pending, st->n_pending, err);
    st->n_pending = 0;
    if (rc == ERRATA_OK)
        rc = errata_scan_feed(scan, buf, upto, err);
    memcpy(st->pending, buf + upto, n - upto);
    st->n_pending = n - upto;
    return rc;
}

/* Reads both pipes until both end, passing output through and scanning it. */
static errata_code pump(stream *st, errata_scan *scan, errata_error *err)
{
    char buf[65536];
    errata_code rc = ERRATA_OK;
    while (st[0].fd >= 0 || st[1].fd >= 0) {
        struct pollfd p[2] = {{st[0].fd, POLLIN, 0}, {st[1].fd, POLLIN, 0}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return ERRATA_ERR_IO;
        }
        for (int i = 0; i < 2; i++) {
            if (st[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(st[i].fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                close(st[i].fd);
                st[i].fd = -1;
                if (rc == ERRATA_OK && st[i].n_pending) /* a last line without its newline */
                    rc = errata_scan_feed(scan, st[i].pending, st[i].n_pending, err);
                st[i].n_pending = 0;
                continue;
            }
            write_all(st[i].out, buf, (size_t)n);
            /* A failed scan does not stop the output: the command's own status matters more. */
            if (rc == ERRATA_OK)
                rc = take_output(&st[i], buf, (size_t)n, scan, err);
        }
    }
    return rc;
}

static pid_t spawn(char **argv, int out_fd, int err_fd)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
    pid_t pid = -1;
    int e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0) {
        cli_error("cannot run %s: %s", argv[0], strerror(e));
        return -1;
    }
    return pid;
}

/* --report FILE, in the format chosen: written whatever the command's status, so a CI step
 * that uploads it always finds it. */
static bool write_report(const errata_scan *scan, errata_format fmt, const char *path,
                         const char *source, const errata_render_options *ro)
{
    char *doc = errata_scan_render(scan, fmt, source, ro);
    FILE *f = fopen(path, "w");
    bool ok = f && doc && fputs(doc, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    free(doc);
    if (!ok)
        cli_error("%s: could not write the report: %s", path, strerror(errno));
    return ok;
}

/* After a failure, what the output showed, on stderr after the command's own output. */
static void tell_findings(const errata_scan *scan, const char *source,
                          const errata_render_options *ro)
{
    if (errata_scan_findings(scan) == 0) {
        fputs("errata: the command failed; its output shows no known failure\n", stderr);
        return;
    }
    char *text = errata_scan_render(scan, ERRATA_FORMAT_TEXT, source, ro);
    fprintf(stderr, "\nerrata: the command failed; its output shows these known failures\n%s",
            text ? text : "");
    free(text);
}

/* One run of the command: its output passed through and scanned into *scan (opened here,
 * the caller frees it). Returns the command's status as a shell reports it. */
static int attempt(char **cmd, errata_db *db, const errata_env *env, errata_scan **scan)
{
    errata_error err = {0};
    errata_scan_options so = {.env = env};
    if (errata_scan_open(db, &so, scan, &err) != ERRATA_OK)
        return cli_report(&err);
    int out_pipe[2], err_pipe[2];
    stream st[2] = {{-1, 1, NULL, 0}, {-1, 2, NULL, 0}};
    st[0].pending = malloc(PENDING_MAX), st[1].pending = malloc(PENDING_MAX);
    pid_t pid = -1;
    if (st[0].pending && st[1].pending && pipe2(out_pipe, O_CLOEXEC) == 0) {
        if (pipe2(err_pipe, O_CLOEXEC) == 0) {
            pid = spawn(cmd, out_pipe[1], err_pipe[1]);
            close(err_pipe[1]);
            st[1].fd = err_pipe[0];
        }
        close(out_pipe[1]);
        st[0].fd = out_pipe[0];
    }
    /* As a shell: 127 when the command cannot be run at all. */
    int code = pid < 0 && st[0].pending && st[1].pending ? 127 : EXIT_TROUBLE;
    if (pid > 0) {
        child_pid = pid;
        errata_code rc = pump(st, *scan, &err);
        if (rc == ERRATA_OK)
            rc = errata_scan_finish(*scan, &err);
        int ws = 0;
        while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
            ;
        child_pid = 0;
        if (rc != ERRATA_OK)
            cli_report(&err);
        if (WIFSIGNALED(ws)) {
            fprintf(stderr, "errata: %s was killed by signal %d (%s)\n", cmd[0], WTERMSIG(ws),
                    strsignal(WTERMSIG(ws)));
            code = 128 + WTERMSIG(ws);
        } else {
            code = WEXITSTATUS(ws);
        }
    }
    for (int i = 0; i < 2; i++)
        if (st[i].fd >= 0)
            close(st[i].fd);
    free(st[0].pending), free(st[1].pending);
    return code;
}

static void forward_signals(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = forward_signal;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int cmd_run(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {
        CLI_COMMON_LONGOPTS, CLI_ENV_LONGOPTS,
        {"report", required_argument, NULL, 'r'}, {"jsonl", no_argument, NULL, 'l'},
        {"sarif", no_argument, NULL, 's'},       {"github", no_argument, NULL, 'g'},
        {"markdown", no_argument, NULL, 'm'},    {"source", required_argument, NULL, 'n'},
        {"fail-on", required_argument, NULL, 'f'}, {"retry", required_argument, NULL, 'R'},
        {NULL, 0, NULL, 0}};
    errata_format fmt = ERRATA_FORMAT_TEXT;
    const char *report_path = NULL, *source = NULL, *fail_on = NULL;
    unsigned long retries = 0;
    cli_env envopts = {0};
    int opt, status = -1;
    optind = 1;
    /* '+': options end at the command's name, so its own options are never ours. */
    while ((opt = cli_getopt(argc, argv, "+h", longopts, common, &envopts, CLI_HELP_run,
                             &status)) != -1) {
        char *end;
        switch (opt) {
        case 'r': report_path = optarg; break;
        case 'l': fmt = ERRATA_FORMAT_JSONL; break;
        case 's': fmt = ERRATA_FORMAT_SARIF; break;
        case 'g': fmt = ERRATA_FORMAT_GITHUB; break;
        case 'm': fmt = ERRATA_FORMAT_MARKDOWN; break;
        case 'n': source = optarg; break;
        case 'f': fail_on = optarg; break;
        case 'R':
            retries = strtoul(optarg, &end, 10);
            if (*end || optarg[0] == '-' || !*optarg || retries > 10) {
                cli_error("--retry takes a whole number from 0 to 10, not '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        }
    }
    if (status >= 0)
        return status;
    if (common->json)
        fmt = ERRATA_FORMAT_JSON;
    if (optind >= argc) {
        cli_error("give the command to run after --: errata run -- make test");
        return EXIT_TROUBLE;
    }
    char **cmd = argv + optind;
    if (!source)
        source = cmd[0];
    errata_env *env = NULL;
    if (cli_env_given(&envopts) && !(env = cli_env_build(&envopts)))
        return EXIT_TROUBLE;
    errata_db *db = cli_open_db(common);
    if (!db) {
        errata_env_free(env);
        return EXIT_TROUBLE;
    }
    forward_signals();
    errata_render_options ro = {.lang = common->lang, .color = cli_use_color(common)};
    errata_scan *scan = NULL;
    int code = EXIT_TROUBLE;
    for (unsigned long n = 0;; n++) {
        errata_scan_free(scan);
        scan = NULL;
        code = attempt(cmd, db, env, &scan);
        /* Run again only a failure whose every finding is transient infrastructure. */
        if (code == 0 || code == 127 || !scan || n == retries || !errata_scan_retryable(scan))
            break;
        fprintf(stderr, "errata: %s failed on transient infrastructure only (%s); running it "
                        "again (%lu of %lu)\n", cmd[0],
                errata_record_id(errata_match_record(
                    errata_finding_match(errata_scan_finding(scan, 0)))),
                n + 1, retries);
    }
    if (scan && fail_on && code == 0) {
        errata_error ferr = {0};
        int f = errata_scan_fails_on(scan, fail_on, &ferr);
        if (f < 0)
            code = cli_report(&ferr);
        else if (f == 1)
            code = EXIT_NONE; /* a finding under --fail-on fails a command that exited 0 */
    }
    if (scan && report_path && !write_report(scan, fmt, report_path, source, &ro) && code == 0)
        code = EXIT_TROUBLE;
    if (scan && code != 0)
        tell_findings(scan, source, &ro);
    errata_scan_free(scan);
    errata_close(db);
    errata_env_free(env);
    return code;
}
