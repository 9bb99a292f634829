/*
 * cmd_validate.c — `errata validate PATH…`: every problem of every record file, by place.
 */
#include <getopt.h>

#include "cli.h"

static const char HELP[] =
    "Usage: errata validate [OPTIONS] PATH...\n\n"
    "Checks record files, and directories of them (searched for *.json), against the record\n"
    "format (docs/format.md): JSON syntax as file:line:col, fields by path\n"
    "(dead_ends[0].fail_rate), regexes, examples, translations and links between records.\n\n"
    "Options:\n"
    "  --json           print the findings as JSON\n"
    "  --quiet          print nothing; the exit status tells\n"
    "  --errors-only    leave out warnings\n\n"
    "Exit status: 0 valid (perhaps with warnings), 1 invalid, 2 could not run.\n";

int cmd_validate(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS,
                                             {"quiet", no_argument, NULL, 'q'},
                                             {"errors-only", no_argument, NULL, 'E'},
                                             {NULL, 0, NULL, 0}};
    bool quiet = false, errors_only = false;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "hq", longopts, NULL)) != -1) {
        int c = cli_common_option(common, opt, optarg);
        if (c < 0)
            return EXIT_TROUBLE;
        if (c > 0)
            continue;
        if (opt == 'h') {
            fputs(HELP, stdout);
            return EXIT_MATCH;
        } else if (opt == 'q') {
            quiet = true;
        } else if (opt == 'E') {
            errors_only = true;
        } else {
            fputs("Run 'errata validate --help' for the options.\n", stderr);
            return EXIT_TROUBLE;
        }
    }
    if (optind >= argc) {
        cli_error("validate needs at least one file or directory (see errata validate --help)");
        return EXIT_TROUBLE;
    }
    errata_diags *d = NULL;
    errata_error err = {0};
    if (errata_validate_paths((const char *const *)argv + optind, (size_t)(argc - optind), &d,
                              &err) != ERRATA_OK)
        return cli_report(&err);
    if (!quiet) {
        cli_print_diags(stdout, d, common->json, errors_only);
        if (!common->json)
            printf("%zu file(s), %zu record(s): %zu error(s), %zu warning(s)\n",
                   errata_diags_files(d), errata_diags_records(d), errata_diags_errors(d),
                   errata_diags_warnings(d));
    }
    int status = errata_diags_errors(d) > 0 ? EXIT_NONE : EXIT_MATCH;
    errata_diags_free(d);
    return status;
}
