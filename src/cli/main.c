/*
 * main.c — the errata command: global options and the table of subcommands.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv, cli_common *common);
    const char *summary;
} command;

static const command COMMANDS[] = {
    {"lookup", cmd_lookup, "find the known failure in error text (a line, a trace, a log)"},
    {"scan", cmd_scan, "report every known failure in whole logs, with line numbers"},
    {"run", cmd_run, "run a command; when it fails, name the known failures in its output"},
    {"search", cmd_search, "full-text search over the records"},
    {"check", cmd_check, "list the known errors an environment's versions are exposed to"},
    {"show", cmd_show, "show one record by id"},
    {"validate", cmd_validate, "check record files and report every problem by file and field"},
    {"build", cmd_build, "validate the knowledge base and compile it into an index"},
    {"verify", cmd_verify, "run records' reproduce recipes and check the real output matches"},
    {"serve", cmd_serve, "serve the HTTP API, MCP over HTTP and the web pages"},
    {"mcp", cmd_mcp, "speak the Model Context Protocol over stdio"},
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: errata [--db FILE] COMMAND [OPTIONS] [ARGS]\n\n"
                 "Errata answers error text with the known failure it is: its root cause, what\n"
                 "not to try, what works.\n\nCommands:\n");
    for (size_t i = 0; i < sizeof COMMANDS / sizeof *COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(out, "\nRun 'errata COMMAND --help' for a command's options. Exit status: 0 matched\n"
                 "or succeeded, 1 nothing matched (or invalid records), 2 error.\n"
                 "The index is --db FILE, else $ERRATA_DB, else the built-in default.\n");
}

int main(int argc, char **argv)
{
    cli_common common = {NULL, false, -1, ERRATA_LANG_EN};
    int i = 1;
    /* Global options may come before the command; each command also accepts them. */
    while (i < argc && argv[i][0] == '-') {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return EXIT_MATCH;
        }
        if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("errata %s (index format %d)\n", errata_version(), ERRATA_INDEX_FORMAT);
            return EXIT_MATCH;
        }
        if (strcmp(a, "--db") == 0 && i + 1 < argc) {
            common.db_path = argv[i + 1];
            i += 2;
        } else if (strncmp(a, "--db=", 5) == 0) {
            common.db_path = a + 5;
            i++;
        } else {
            cli_error("unknown option '%s' (see errata --help)", a);
            return EXIT_TROUBLE;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return EXIT_TROUBLE;
    }
    for (size_t c = 0; c < sizeof COMMANDS / sizeof *COMMANDS; c++)
        if (strcmp(argv[i], COMMANDS[c].name) == 0)
            return COMMANDS[c].run(argc - i, argv + i, &common);
    if (strcmp(argv[i], "help") == 0) {
        usage(stdout);
        return EXIT_MATCH;
    }
    cli_error("unknown command '%s' (see errata --help)", argv[i]);
    return EXIT_TROUBLE;
}
