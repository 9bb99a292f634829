/*
 * cmd_check.c — `errata check`: the known errors an environment is exposed to.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_help.h"

int cmd_check(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS, CLI_ENV_LONGOPTS,
                                             {"sarif", no_argument, NULL, 's'},
                                             {"fail-on", required_argument, NULL, 'f'},
                                             {NULL, 0, NULL, 0}};
    cli_env envopts = {0};
    bool sarif = false;
    errata_check_options co = {.lang = ERRATA_LANG_EN};
    int opt, status = -1;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "h", longopts, common, &envopts, CLI_HELP_check, &status)) != -1) {
        if (opt == 's')
            sarif = true;
        else if (opt == 'f')
            co.fail_on = optarg;
    }
    if (status >= 0)
        return status;
    if (optind < argc) {
        cli_error("check takes no arguments; give the environment with --env FILE");
        return EXIT_TROUBLE;
    }
    if (!cli_env_given(&envopts)) {
        cli_error("check needs an environment: --env FILE, --env-set NAME=VERSION or --env-auto");
        return EXIT_TROUBLE;
    }
    errata_env *env = cli_env_build(&envopts);
    if (!env)
        return EXIT_TROUBLE;
    errata_db *db = cli_open_db(common);
    if (!db) {
        errata_env_free(env);
        return EXIT_TROUBLE;
    }
    char *out = NULL;
    size_t count = 0, problems = 0;
    errata_error err = {0};
    co.lang = common->lang;
    errata_format fmt = sarif ? ERRATA_FORMAT_SARIF
                              : common->json ? ERRATA_FORMAT_JSON
                                             : ERRATA_FORMAT_TEXT;
    /* A report, not a verdict: 0 whatever it lists, unless --fail-on makes some of it a
     * problem (then 1), so that a CI step fails only when asked to. */
    if (errata_check_with(db, env, &co, fmt, &out, &count, &problems, &err) != ERRATA_OK) {
        status = cli_report(&err);
    } else {
        cli_emit(out);
        status = problems ? EXIT_NONE : EXIT_MATCH;
    }
    errata_close(db);
    errata_env_free(env);
    return status;
}
