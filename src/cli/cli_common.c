/*
 * cli_common.c — helpers shared by the subcommands; see cli.h.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef ERRATA_DEFAULT_DB
#define ERRATA_DEFAULT_DB "/usr/local/share/errata/errata.db"
#endif

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("errata: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_report(const errata_error *err)
{
    cli_error("%s", err->message[0] ? err->message : errata_code_name(err->code));
    return EXIT_TROUBLE;
}

int cli_common_option(cli_common *c, int opt, const char *arg)
{
    switch (opt) {
    case 'D':
        c->db_path = arg;
        return 1;
    case 'J':
        c->json = true;
        return 1;
    case 'L':
        if (strcmp(arg, "en") == 0)
            c->lang = ERRATA_LANG_EN;
        else if (strcmp(arg, "zh") == 0)
            c->lang = ERRATA_LANG_ZH;
        else {
            cli_error("--lang takes en or zh, not '%s'", arg);
            return -1;
        }
        return 1;
    case 'C':
        if (strcmp(arg, "auto") == 0)
            c->color = -1;
        else if (strcmp(arg, "always") == 0)
            c->color = 1;
        else if (strcmp(arg, "never") == 0)
            c->color = 0;
        else {
            cli_error("--color takes auto, always or never, not '%s'", arg);
            return -1;
        }
        return 1;
    }
    return 0;
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
               cli_common *common, struct cli_env *env, const char *help, int *exit_status)
{
    int opt;
    while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        int c = cli_common_option(common, opt, optarg);
        if (c == 0 && env)
            c = cli_env_option(env, opt, optarg);
        if (c > 0)
            continue;
        if (c < 0) {
            *exit_status = EXIT_TROUBLE;
        } else if (opt == 'h') {
            fputs(help, stdout);
            *exit_status = EXIT_MATCH;
        } else if (opt == '?' || opt == ':') {
            fprintf(stderr, "Run 'errata %s --help' for the options.\n", argv[0]);
            *exit_status = EXIT_TROUBLE;
        } else {
            return opt;
        }
        return -1;
    }
    return -1;
}

const char *cli_db_path(const cli_common *c)
{
    if (c->db_path)
        return c->db_path;
    const char *env = getenv("ERRATA_DB");
    return env && *env ? env : ERRATA_DEFAULT_DB;
}

bool cli_use_color(const cli_common *c)
{
    if (c->color >= 0)
        return c->color == 1;
    const char *nc = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(nc && *nc);
}

errata_db *cli_open_db(const cli_common *c)
{
    errata_db *db = NULL;
    errata_error err = {0};
    if (errata_open(cli_db_path(c), &db, &err) != ERRATA_OK) {
        cli_report(&err);
        return NULL;
    }
    return db;
}

static void print_diag(FILE *out, const errata_diag *d)
{
    const char *sev = d->severity == ERRATA_SEV_ERROR ? "error" : "warning";
    if (d->line > 0)
        fprintf(out, "%s:%d:%d: %s: %s\n", d->file, d->line, d->col, sev, d->message);
    else if (d->field[0])
        fprintf(out, "%s: %s: %s: %s\n", d->file, d->field, sev, d->message);
    else
        fprintf(out, "%s: %s: %s\n", d->file, sev, d->message);
}

void cli_print_diags(FILE *out, const errata_diags *d, bool json, bool errors_only)
{
    size_t n = errata_diags_count(d);
    if (json) {
        json_t *arr = json_array();
        for (size_t i = 0; i < n; i++) {
            const errata_diag *x = errata_diags_get(d, i);
            json_array_append_new(
                arr, json_pack("{s:s, s:s, s:i, s:i, s:s, s:s}", "severity",
                               x->severity == ERRATA_SEV_ERROR ? "error" : "warning", "file",
                               x->file, "line", x->line, "column", x->col, "field", x->field,
                               "message", x->message));
        }
        json_t *root = json_pack("{s:b, s:I, s:I, s:I, s:I, s:o}", "valid",
                                 errata_diags_errors(d) == 0, "files",
                                 (json_int_t)errata_diags_files(d), "records",
                                 (json_int_t)errata_diags_records(d), "errors",
                                 (json_int_t)errata_diags_errors(d), "warnings",
                                 (json_int_t)errata_diags_warnings(d), "diagnostics", arr);
        char *s = json_dumps(root, JSON_INDENT(2));
        if (s)
            fprintf(out, "%s\n", s);
        free(s);
        json_decref(root);
        return;
    }
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            const errata_diag *x = errata_diags_get(d, i);
            if ((pass == 0) == (x->severity == ERRATA_SEV_ERROR) && !(errors_only && pass == 1))
                print_diag(out, x);
        }
}

void cli_emit(char *s)
{
    if (!s) {
        cli_error("out of memory");
        return;
    }
    size_t n = strlen(s);
    fputs(s, stdout);
    if (n == 0 || s[n - 1] != '\n')
        fputc('\n', stdout);
    free(s);
}

char *cli_join_args(int argc, char **argv, size_t *len)
{
    size_t n = 0;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) + 1;
    char *s = malloc(n + 1), *p = s;
    if (!s)
        return NULL;
    for (int i = 0; i < argc; i++) {
        size_t l = strlen(argv[i]);
        memcpy(p, argv[i], l);
        p += l;
        if (i + 1 < argc)
            *p++ = ' ';
    }
    *p = '\0';
    *len = (size_t)(p - s);
    return s;
}
