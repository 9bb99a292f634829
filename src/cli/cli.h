/*
 * cli.h — what the errata command's subcommands share: exit codes, the options every command
 * takes, opening the index, reading input and printing findings. The command is a thin layer over
 * the public API (errata.h); nothing here matches, ranks or renders a record.
 */
#ifndef ERRATA_CLI_H
#define ERRATA_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "errata.h"

/* As grep: 0 something matched or succeeded, 1 nothing matched (or invalid records), 2 error. */
enum { EXIT_MATCH = 0, EXIT_NONE = 1, EXIT_TROUBLE = 2 };

typedef struct {
    const char *db_path; /* --db, else $ERRATA_DB, else the built-in default */
    bool json;           /* --json */
    int color;           /* -1 auto, 0 never, 1 always */
    errata_lang lang;    /* --lang */
} cli_common;

/* The environment options of lookup and check: --env FILE, --env-set NAME=VERSION (both
 * repeatable) and --env-auto. */
typedef struct cli_env {
    const char *files[64];
    size_t n_files;
    const char *sets[64];
    size_t n_sets;
    bool automatic;
} cli_env;

#define CLI_ENV_LONGOPTS                                                                          \
    {"env", required_argument, NULL, 'F'}, {"env-set", required_argument, NULL, 'S'},           \
        {"env-auto", no_argument, NULL, 'A'}

/* Takes an environment option (1), or not (0), or prints why it is bad (-1). */
int cli_env_option(cli_env *e, int opt, const char *arg);
bool cli_env_given(const cli_env *e);
/* Builds the environment, or prints the error (file and line) and returns NULL. */
errata_env *cli_env_build(const cli_env *e);

/* Each subcommand: argc/argv start at the subcommand's name. */
int cmd_lookup(int argc, char **argv, cli_common *common);
int cmd_run(int argc, char **argv, cli_common *common);
int cmd_scan(int argc, char **argv, cli_common *common);
int cmd_show(int argc, char **argv, cli_common *common);
int cmd_search(int argc, char **argv, cli_common *common);
int cmd_serve(int argc, char **argv, cli_common *common);
int cmd_mcp(int argc, char **argv, cli_common *common);
int cmd_check(int argc, char **argv, cli_common *common);
int cmd_validate(int argc, char **argv, cli_common *common);
int cmd_build(int argc, char **argv, cli_common *common);
int cmd_verify(int argc, char **argv, cli_common *common);
/* In errata-serve, the serve and mcp commands themselves (cmd_serve and cmd_mcp run them). */
int cmd_serve_main(int argc, char **argv, cli_common *common);
int cmd_mcp_main(int argc, char **argv, cli_common *common);

/* The option loop every subcommand runs. Returns the next option the command handles itself,
 * or -1 when the options end. It takes the common options (and the environment options when
 * env is not NULL), prints the help for --help and a hint for an unknown option: then it sets
 * *exit_status (EXIT_MATCH, EXIT_TROUBLE) and returns -1. *exit_status is left alone otherwise,
 * so a caller starts it at -1 and returns it when it is set. */
struct cli_env;
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
               cli_common *common, struct cli_env *env, const char *help, int *exit_status);

/* Handles an option shared by all subcommands (--db, --json, --lang, --color). Returns 1 when
 * it took the option, 0 when it is not a common one, -1 (after printing why) on a bad value. */
int cli_common_option(cli_common *c, int opt, const char *arg);

/* The long options of cli_common_option(), for getopt_long tables. */
#define CLI_COMMON_LONGOPTS                                                                       \
    {"db", required_argument, NULL, 'D'}, {"json", no_argument, NULL, 'J'},                     \
        {"lang", required_argument, NULL, 'L'}, {"color", required_argument, NULL, 'C'},        \
        {"help", no_argument, NULL, 'h'}

const char *cli_db_path(const cli_common *c);
bool cli_use_color(const cli_common *c);
/* Opens the index or prints why not (exit code 2 follows). */
errata_db *cli_open_db(const cli_common *c);
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints an errata_error as "errata: message". Returns EXIT_TROUBLE. */
int cli_report(const errata_error *err);
/* Prints findings, one a line, errors before warnings; or as JSON. */
void cli_print_diags(FILE *out, const errata_diags *d, bool json, bool errors_only);
/* Writes s and a newline unless s already ends with one; frees s. */
void cli_emit(char *s);

/* The arguments joined by single spaces (malloc'd, *len its length), or NULL when out of
 * memory: lookup's text and search's query are read this one way. */
char *cli_join_args(int argc, char **argv, size_t *len);

#endif
