/*
 * cmd_show.c — `errata show ID`: one record, for a person or as JSON.
 */
#include <getopt.h>

#include "cli.h"
#include "cli_help.h"

int cmd_show(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
    int status = -1;
    optind = 1;
    while (cli_getopt(argc, argv, "h", longopts, common, NULL, CLI_HELP_show, &status) != -1)
        ;
    if (status >= 0)
        return status;
    if (argc - optind != 1) {
        cli_error("show takes exactly one record id (see errata show --help)");
        return EXIT_TROUBLE;
    }
    errata_db *db = cli_open_db(common);
    if (!db)
        return EXIT_TROUBLE;
    const errata_record *r;
    errata_error err = {0};
    errata_code rc = errata_get_record(db, argv[optind], &r, &err);
    status = EXIT_MATCH;
    if (rc == ERRATA_ERR_NOT_FOUND) {
        cli_error("%s", err.message);
        status = EXIT_NONE;
    } else if (rc != ERRATA_OK) {
        status = cli_report(&err);
    } else {
        errata_render_options ro = {.lang = common->lang, .color = cli_use_color(common)};
        cli_emit(errata_record_render(r, common->json ? ERRATA_FORMAT_JSON : ERRATA_FORMAT_TEXT,
                                      &ro));
    }
    errata_close(db);
    return status;
}
