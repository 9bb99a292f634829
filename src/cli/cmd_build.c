/*
 * cmd_build.c — `errata build [KB_DIR…] [-o FILE]`: validate and compile the knowledge base.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>

#include "cli.h"
#include "cli_help.h"

#ifndef ERRATA_DEFAULT_KB
#define ERRATA_DEFAULT_KB "/usr/local/share/errata/kb"
#endif

int cmd_build(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS,
                                             {"output", required_argument, NULL, 'o'},
                                             {"force", no_argument, NULL, 'f'},
                                             {NULL, 0, NULL, 0}};
    errata_build_options bo = {0};
    const char *out = NULL;
    int opt, status = -1;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "ho:", longopts, common, NULL, CLI_HELP_build, &status)) != -1) {
        if (opt == 'o')
            out = optarg;
        else if (opt == 'f')
            bo.force = 1;
    }
    if (status >= 0)
        return status;
    const char *default_kb[] = {ERRATA_DEFAULT_KB};
    const char *const *dirs = optind < argc ? (const char *const *)argv + optind : default_kb;
    size_t n_dirs = optind < argc ? (size_t)(argc - optind) : 1;
    if (!out)
        out = cli_db_path(common);

    errata_build_report rep;
    errata_diags *d = NULL;
    errata_error err = {0};
    errata_code rc = errata_build(dirs, n_dirs, out, &bo, &rep, &d, &err);
    status = rc == ERRATA_OK ? EXIT_MATCH : rc == ERRATA_ERR_INVALID ? EXIT_NONE : EXIT_TROUBLE;
    if (rc == ERRATA_ERR_INVALID)
        cli_print_diags(stderr, d, false, true);
    if (rc != ERRATA_OK) {
        cli_report(&err);
    } else if (common->json) {
        json_t *j = json_pack("{s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:I, s:s}", "index", out,
                              "skipped", rep.skipped, "records", (json_int_t)rep.records,
                              "exact", (json_int_t)rep.hs_patterns, "prefilter",
                              (json_int_t)rep.hs_prefilter, "pcre_only",
                              (json_int_t)rep.pcre_only, "scan_unfiltered",
                              (json_int_t)rep.unfiltered, "warnings",
                              (json_int_t)errata_diags_warnings(d), "kb_hash", rep.kb_hash);
        cli_emit(json_dumps(j, JSON_INDENT(2)));
        json_decref(j);
    } else if (rep.skipped) {
        printf("%s is up to date (%zu records, knowledge base unchanged)\n", out, rep.records);
    } else {
        printf("built %s: %zu records (%zu scanned exactly, %zu prefiltered, %zu by PCRE2 "
               "alone; %zu without scan literals), %zu warning(s)\n",
               out, rep.records, rep.hs_patterns, rep.hs_prefilter, rep.pcre_only,
               rep.unfiltered, errata_diags_warnings(d));
    }
    errata_diags_free(d);
    return status;
}
