/*
 * cmd_search.c — `errata search WORDS…`: full-text search over the records.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_help.h"

int cmd_search(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS,
                                             {"limit", required_argument, NULL, 'n'},
                                             {NULL, 0, NULL, 0}};
    size_t limit = 10;
    int opt, status = -1;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "h", longopts, common, NULL, CLI_HELP_search, &status)) != -1) {
        if (opt == 'n') {
            char *end;
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || v == 0 || optarg[0] == '-') {
                cli_error("--limit takes a positive whole number, not '%s'", optarg);
                return EXIT_TROUBLE;
            }
            limit = v;
        }
    }
    if (status >= 0)
        return status;
    if (optind >= argc) {
        cli_error("search needs words to search for (see errata search --help)");
        return EXIT_TROUBLE;
    }
    size_t len = 0;
    char *q = cli_join_args(argc - optind, argv + optind, &len);
    if (!q) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    errata_db *db = cli_open_db(common);
    if (!db) {
        free(q);
        return EXIT_TROUBLE;
    }
    errata_result *res = NULL;
    errata_error err = {0};
    if (errata_search(db, q, len, limit, &res, &err) != ERRATA_OK) {
        status = cli_report(&err);
    } else if (common->json) {
        errata_render_options ro = {.lang = common->lang};
        cli_emit(errata_result_render(res, ERRATA_FORMAT_JSON, &ro));
        status = errata_result_count(res) ? EXIT_MATCH : EXIT_NONE;
    } else {
        for (size_t i = 0; i < errata_result_count(res); i++) {
            const errata_record *r = errata_match_record(errata_result_match(res, i));
            printf("%-56s %s\n", errata_record_id(r), errata_record_signature(r));
        }
        if (errata_result_count(res) == 0)
            printf("No record found.\n");
        status = errata_result_count(res) ? EXIT_MATCH : EXIT_NONE;
    }
    errata_result_free(res);
    errata_close(db);
    free(q);
    return status;
}
