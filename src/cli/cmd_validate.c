/*
 * cmd_validate.c — `errata validate PATH…`: every problem of every record file, by place.
 */
#include <getopt.h>
#include <jansson.h>

#include "cli.h"
#include "cli_help.h"

/* Prints the examples that another record also matches, and the summary. */
static int report_cross(const char *const *paths, size_t n, bool json, bool quiet)
{
    errata_cross *c = NULL;
    errata_error err = {0};
    if (errata_cross_check(paths, n, &c, &err) != ERRATA_OK)
        return cli_report(&err);
    size_t shared = 0;
    json_t *arr = json ? json_array() : NULL;
    for (size_t i = 0; i < errata_cross_count(c); i++) {
        const errata_cross_entry *e = errata_cross_get(c, i);
        if (e->rank == 1 && !e->others[0] && !e->scan_missed)
            continue;
        if (e->scan_missed && !json && !quiet)
            printf("%s: examples.match[%zu]: SCAN WOULD MISS IT (none of the pattern's required "
                   "literals is in the example)\n", e->record_id, e->example);
        if (e->rank == 1 && !e->others[0] && !json)
            continue;
        shared += e->others[0] != 0;
        if (json)
            json_array_append_new(arr, json_pack("{s:s, s:I, s:I, s:s, s:s, s:b, s:b}", "record",
                                                 e->record_id, "example", (json_int_t)e->example,
                                                 "rank", (json_int_t)e->rank, "top", e->top_id,
                                                 "others", e->others, "after_cause",
                                                 e->after_cause, "scan_missed", e->scan_missed));
        else if (!quiet)
            printf("%s: examples.match[%zu]: %s%s%s%s%s\n", e->record_id, e->example,
                   e->rank == 1        ? "first"
                   : e->after_cause    ? "second, after its cause"
                   : e->rank           ? "OUTRANKED"
                                       : "NOT MATCHED",
                   e->rank > 1 ? (e->after_cause ? " " : " by ") : "", e->rank > 1 ? e->top_id : "",
                   e->others[0] ? "; also matched: " : "", e->others);
    }
    if (json) {
        json_t *root = json_pack("{s:I, s:I, s:I, s:I, s:o}", "examples",
                                 (json_int_t)errata_cross_count(c), "outranked",
                                 (json_int_t)errata_cross_outranked(c), "scan_missed",
                                 (json_int_t)errata_cross_scan_missed(c), "shared",
                                 (json_int_t)shared, "entries", arr);
        cli_emit(json_dumps(root, JSON_INDENT(2)));
        json_decref(root);
    } else if (!quiet) {
        printf("cross-check: %zu example(s), %zu outranked or unmatched, %zu a scan would miss, "
               "%zu also matched by another record\n",
               errata_cross_count(c), errata_cross_outranked(c), errata_cross_scan_missed(c),
               shared);
    }
    int status = errata_cross_outranked(c) || errata_cross_scan_missed(c) ? EXIT_NONE : EXIT_MATCH;
    errata_cross_free(c);
    return status;
}

int cmd_validate(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS,
                                             {"quiet", no_argument, NULL, 'q'},
                                             {"errors-only", no_argument, NULL, 'E'},
                                             {"cross", no_argument, NULL, 'X'},
                                             {NULL, 0, NULL, 0}};
    bool quiet = false, errors_only = false, cross = false;
    int opt, status = -1;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "hq", longopts, common, NULL, CLI_HELP_validate, &status)) != -1) {
        if (opt == 'q')
            quiet = true;
        else if (opt == 'E')
            errors_only = true;
        else if (opt == 'X')
            cross = true;
    }
    if (status >= 0)
        return status;
    if (optind >= argc) {
        cli_error("validate needs at least one file or directory (see errata validate --help)");
        return EXIT_TROUBLE;
    }
    errata_diags *d = NULL;
    errata_error err = {0};
    if (errata_validate_paths((const char *const *)argv + optind, (size_t)(argc - optind), &d,
                              &err) != ERRATA_OK)
        return cli_report(&err);
    if (cross && errata_diags_errors(d) == 0) {
        size_t n = (size_t)(argc - optind);
        errata_diags_free(d);
        return report_cross((const char *const *)argv + optind, n, common->json, quiet);
    }
    if (!quiet) {
        cli_print_diags(stdout, d, common->json, errors_only);
        if (!common->json)
            printf("%zu file(s), %zu record(s): %zu error(s), %zu warning(s)\n",
                   errata_diags_files(d), errata_diags_records(d), errata_diags_errors(d),
                   errata_diags_warnings(d));
    }
    status = errata_diags_errors(d) > 0 ? EXIT_NONE : EXIT_MATCH;
    errata_diags_free(d);
    return status;
}
