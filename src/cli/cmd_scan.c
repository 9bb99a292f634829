/*
 * cmd_scan.c — `errata scan [FILE… | -]`: every known failure in whole logs, in the format a
 * person or a CI system reads. The scanning and every format are the library's; this file
 * opens the inputs, shows progress on a terminal and joins several files' documents.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_help.h"

typedef struct {
    errata_format fmt;
    bool quiet;
    const char *source; /* --source, for stdin */
    bool progress;      /* stderr is a terminal: show progress on inputs that take a while */
    double started, shown;
} scan_cli;

/* A stop request (SIGINT, SIGTERM) during --follow: the scan ends and reports. */
static volatile sig_atomic_t stop_following;

static void on_stop(int sig)
{
    (void)sig;
    stop_following = 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* On a terminal, after two seconds: bytes read, speed, findings so far; twice a second. */
static void on_progress(const errata_scan *s, void *ctx)
{
    scan_cli *c = ctx;
    double t = now();
    if (!c->progress || t - c->started < 2.0 || t - c->shown < 0.5)
        return;
    c->shown = t;
    double mb = (double)errata_scan_bytes(s) / 1e6;
    fprintf(stderr, "\r\033[Kerrata: %.0f MB, %.0f MB/s, %zu finding%s so far", mb,
            mb / (t - c->started), errata_scan_findings(s), errata_scan_findings(s) == 1 ? "" : "s");
}

static void end_progress(scan_cli *c)
{
    if (c->progress && c->shown > 0)
        fputs("\r\033[K", stderr);
    c->shown = 0;
}

/* JSON Lines and GitHub commands are written as each finding is confirmed. */
static void on_finding(const errata_finding *f, void *ctx)
{
    scan_cli *c = ctx;
    if (c->quiet || (c->fmt != ERRATA_FORMAT_JSONL && c->fmt != ERRATA_FORMAT_GITHUB))
        return;
    char *line = errata_finding_render(f, c->fmt, c->source);
    if (line)
        fputs(line, stdout), fflush(stdout);
    free(line);
}

/* --follow: after the end of the file, wait for more, confirming what is there after each
 * quiet spell, until SIGINT or SIGTERM. */
static errata_code follow(errata_scan *s, FILE *in, errata_error *err)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    errata_code rc = ERRATA_OK;
    while (rc == ERRATA_OK && !stop_following) {
        unsigned long long before = errata_scan_bytes(s);
        rc = errata_scan_stream(s, in, err);
        if (rc == ERRATA_OK && errata_scan_bytes(s) == before) {
            rc = errata_scan_flush(s, err);
            fflush(stdout);
            struct timespec pause = {0, 250 * 1000 * 1000};
            nanosleep(&pause, NULL);
        }
    }
    return rc;
}

/* A scan error names the input, as every error names its place. */
static int report_input(const char *name, const errata_error *err)
{
    cli_error("%s: %s", name, err->message);
    return EXIT_TROUBLE;
}

static int scan_one(errata_db *db, const errata_env *env, FILE *in, const char *name,
                    bool following, scan_cli *c, errata_scan **out)
{
    errata_scan_options so = {.env = env, .on_finding = on_finding, .on_progress = on_progress,
                              .ctx = c};
    errata_error err = {0};
    *out = NULL;
    errata_scan *s = NULL;
    if (errata_scan_open(db, &so, &s, &err) != ERRATA_OK)
        return cli_report(&err);
    c->started = now();
    errata_code rc = following ? follow(s, in, &err) : errata_scan_stream(s, in, &err);
    end_progress(c);
    if (rc == ERRATA_OK)
        rc = errata_scan_finish(s, &err);
    if (rc != ERRATA_OK) {
        errata_scan_free(s);
        return report_input(name, &err);
    }
    *out = s;
    return EXIT_MATCH;
}

static const char *const FORMAT_NAMES[] = {"json", "jsonl", "sarif", "github", "markdown"};

/* One SARIF log holding every file's run. */
static char *join_sarif(char **docs, size_t n)
{
    json_t *root = NULL;
    for (size_t i = 0; i < n; i++) {
        json_t *d = json_loads(docs[i], 0, NULL);
        if (!d)
            continue;
        if (!root)
            root = d;
        else {
            json_array_extend(json_object_get(root, "runs"), json_object_get(d, "runs"));
            json_decref(d);
        }
    }
    char *out = root ? json_dumps(root, JSON_INDENT(2)) : NULL;
    json_decref(root);
    return out;
}

static void print_documents(char **docs, size_t n, errata_format fmt)
{
    if (n > 1 && fmt == ERRATA_FORMAT_SARIF) {
        cli_emit(join_sarif(docs, n));
        return;
    }
    if (n > 1 && fmt == ERRATA_FORMAT_JSON)
        fputs("[", stdout);
    for (size_t i = 0; i < n; i++) {
        if (n > 1 && fmt == ERRATA_FORMAT_JSON && i)
            fputs(",", stdout);
        if (docs[i])
            fputs(docs[i], stdout);
    }
    if (n > 1 && fmt == ERRATA_FORMAT_JSON)
        fputs("]\n", stdout);
}

int cmd_scan(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {
        CLI_COMMON_LONGOPTS, CLI_ENV_LONGOPTS,
        {"jsonl", no_argument, NULL, 'l'},   {"sarif", no_argument, NULL, 's'},
        {"github", no_argument, NULL, 'g'},  {"markdown", no_argument, NULL, 'm'},
        {"source", required_argument, NULL, 'n'}, {"quiet", no_argument, NULL, 'q'},
        {"fail-on", required_argument, NULL, 'f'}, {"follow", no_argument, NULL, 'w'},
        {NULL, 0, NULL, 0}};
    const char *fail_on = NULL;
    bool following = false;
    scan_cli c = {.fmt = ERRATA_FORMAT_TEXT};
    cli_env envopts = {0};
    int opt, status = -1, chosen = 0;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "hq", longopts, common, &envopts, CLI_HELP_scan,
                             &status)) != -1) {
        switch (opt) {
        case 'l': c.fmt = ERRATA_FORMAT_JSONL, chosen++; break;
        case 's': c.fmt = ERRATA_FORMAT_SARIF, chosen++; break;
        case 'g': c.fmt = ERRATA_FORMAT_GITHUB, chosen++; break;
        case 'm': c.fmt = ERRATA_FORMAT_MARKDOWN, chosen++; break;
        case 'n': c.source = optarg; break;
        case 'q': c.quiet = true; break;
        case 'f': fail_on = optarg; break;
        case 'w': following = true; break;
        }
    }
    if (status >= 0)
        return status;
    if (common->json)
        c.fmt = ERRATA_FORMAT_JSON, chosen++;
    if (chosen > 1) {
        cli_error("choose one output format of --%s, --%s, --%s, --%s, --%s", FORMAT_NAMES[0],
                  FORMAT_NAMES[1], FORMAT_NAMES[2], FORMAT_NAMES[3], FORMAT_NAMES[4]);
        return EXIT_TROUBLE;
    }
    int n_files = argc - optind;
    if (following && (n_files != 1 || strcmp(argv[optind], "-") == 0)) {
        cli_error("--follow follows one file: errata scan --follow build.log");
        return EXIT_TROUBLE;
    }
    c.progress = !c.quiet && isatty(STDERR_FILENO);
    errata_env *env = NULL;
    if (cli_env_given(&envopts) && !(env = cli_env_build(&envopts)))
        return EXIT_TROUBLE;
    errata_db *db = cli_open_db(common);
    if (!db) {
        errata_env_free(env);
        return EXIT_TROUBLE;
    }
    size_t n_inputs = n_files > 0 ? (size_t)n_files : 1;
    char **docs = calloc(n_inputs, sizeof *docs);
    errata_render_options ro = {.lang = common->lang, .color = cli_use_color(common)};
    /* As grep: 0 when something was found. With --fail-on, as a CI gate: 1 when a finding
     * falls under the list, 0 otherwise. */
    bool found = false, failing = false, trouble = false;
    for (size_t i = 0; docs && i < n_inputs; i++) {
        const char *name = n_files > 0 ? argv[optind + (int)i] : "-";
        bool is_stdin = strcmp(name, "-") == 0;
        FILE *in = is_stdin ? stdin : fopen(name, "rb");
        if (!in) {
            cli_error("%s: %s", name, strerror(errno));
            trouble = true;
            continue;
        }
        if (is_stdin && isatty(STDIN_FILENO))
            fputs("errata: reading a log from stdin (end with Ctrl-D)\n", stderr);
        c.source = is_stdin ? c.source : name;
        errata_scan *s = NULL;
        int rc = scan_one(db, env, in, is_stdin ? "stdin" : name, following, &c, &s);
        if (!is_stdin)
            fclose(in);
        if (rc != EXIT_MATCH) {
            trouble = true;
            continue;
        }
        found = found || errata_scan_findings(s) > 0;
        if (fail_on) {
            errata_error ferr = {0};
            int f = errata_scan_fails_on(s, fail_on, &ferr);
            if (f < 0) {
                cli_report(&ferr);
                trouble = true;
            }
            failing = failing || f == 1;
        }
        if (!c.quiet && c.fmt != ERRATA_FORMAT_GITHUB)
            docs[i] = errata_scan_render(s, c.fmt, c.source, &ro);
        errata_scan_free(s);
    }
    if (docs && !c.quiet)
        print_documents(docs, n_inputs, c.fmt);
    status = trouble ? EXIT_TROUBLE
             : fail_on ? (failing ? EXIT_NONE : EXIT_MATCH)
             : found ? EXIT_MATCH : EXIT_NONE;
    for (size_t i = 0; docs && i < n_inputs; i++)
        free(docs[i]);
    if (!docs)
        status = cli_report(&(errata_error){.message = "out of memory"});
    free(docs);
    errata_close(db);
    errata_env_free(env);
    return status;
}
