/*
 * cmd_lookup.c — `errata lookup [TEXT… | -]`: the main job. Reads error text from the arguments
 * or stdin, looks it up and prints the answer for a person or as JSON.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_help.h"

int cmd_lookup(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS, CLI_ENV_LONGOPTS,
                                             {"explain", no_argument, NULL, 'e'},
                                             {"limit", required_argument, NULL, 'n'},
                                             {"max-input", required_argument, NULL, 'm'},
                                             {NULL, 0, NULL, 0}};
    errata_lookup_options lo = {0};
    cli_env envopts = {0};
    bool explain = false;
    int opt, status = -1;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "h", longopts, common, &envopts, CLI_HELP_lookup, &status)) != -1) {
        char *end;
        switch (opt) {
        case 'e':
            explain = true;
            break;
        case 'n':
        case 'm': {
            unsigned long long v = strtoull(optarg, &end, 10);
            if (*end || v == 0 || optarg[0] == '-') {
                cli_error("--%s takes a positive whole number, not '%s'",
                          opt == 'n' ? "limit" : "max-input", optarg);
                return EXIT_TROUBLE;
            }
            if (opt == 'n')
                lo.max_results = (size_t)v;
            else
                lo.max_input = (size_t)v;
            break;
        }
        }
    }
    if (status >= 0)
        return status;
    errata_error err = {0};
    size_t len = 0;
    char *text;
    int rest = argc - optind;
    if (rest == 0 || (rest == 1 && strcmp(argv[optind], "-") == 0)) {
        if (isatty(STDIN_FILENO))
            fputs("errata: reading error text from stdin (end with Ctrl-D)\n", stderr);
        if (errata_read_all(stdin, lo.max_input ? lo.max_input : ERRATA_DEFAULT_MAX_INPUT, &text,
                            &len, &err) != ERRATA_OK)
            text = NULL;
    } else {
        text = cli_join_args(rest, argv + optind, &len);
        if (!text)
            snprintf(err.message, sizeof err.message, "out of memory");
    }
    if (!text)
        return cli_report(&err);

    errata_env *env = NULL;
    if (cli_env_given(&envopts) && !(env = cli_env_build(&envopts))) {
        free(text);
        return EXIT_TROUBLE;
    }
    lo.env = env;
    errata_db *db = cli_open_db(common);
    if (!db) {
        errata_env_free(env);
        free(text);
        return EXIT_TROUBLE;
    }
    errata_result *res = NULL;
    if (errata_lookup(db, text, len, &lo, &res, &err) != ERRATA_OK) {
        status = cli_report(&err);
    } else {
        errata_render_options ro = {
            .lang = common->lang, .color = cli_use_color(common), .explain = explain};
        cli_emit(errata_result_render(res, common->json ? ERRATA_FORMAT_JSON : ERRATA_FORMAT_TEXT,
                                      &ro));
        /* Full-text guesses are shown but are not a match. */
        status = errata_result_count(res) > 0 &&
                         !errata_match_is_fuzzy(errata_result_match(res, 0))
                     ? EXIT_MATCH
                     : EXIT_NONE;
    }
    errata_result_free(res);
    errata_close(db);
    errata_env_free(env);
    free(text);
    return status;
}
