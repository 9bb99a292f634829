/*
 * cmd_verify.c — `errata verify [ID…]`: run records' reproduce recipes against the real tools.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_help.h"

#ifndef ERRATA_DEFAULT_KB
#define ERRATA_DEFAULT_KB "/usr/local/share/errata/kb"
#endif

typedef struct {
    bool quiet, json;
} printer;

static void print_entry(const errata_verify_entry *e, void *arg)
{
    const printer *p = arg;
    if (p->json || (p->quiet && e->state != ERRATA_VERIFY_FAILED))
        return;
    const char *mark = e->state == ERRATA_VERIFY_VERIFIED ? "verified"
                       : e->state == ERRATA_VERIFY_FAILED ? "FAILED  "
                                                          : "skipped ";
    printf("%s %s", mark, e->record_id);
    if (e->state != ERRATA_VERIFY_SKIPPED)
        printf(" (%.1f s%s)", e->seconds, e->network_isolated ? "" : ", network not isolated");
    if (e->reason[0])
        printf(": %s", e->reason);
    if (e->updated)
        printf(" [updated%s]", e->tier_changed ? ", tier changed" : "");
    putchar('\n');
    fflush(stdout);
}

static void print_json(const errata_verify_report *rep)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < errata_verify_count(rep); i++) {
        const errata_verify_entry *e = errata_verify_get(rep, i);
        json_array_append_new(
            arr, json_pack("{s:s, s:s, s:s, s:s, s:f, s:b, s:b, s:b, s:s?}", "id", e->record_id,
                           "file", e->file, "state", errata_verify_state_name(e->state),
                           "reason", e->reason, "seconds", e->seconds, "network_isolated",
                           e->network_isolated, "updated", e->updated, "tier_changed",
                           e->tier_changed, "output", e->output));
    }
    json_t *root = json_pack(
        "{s:I, s:I, s:I, s:o}", "verified",
        (json_int_t)errata_verify_tally(rep, ERRATA_VERIFY_VERIFIED), "failed",
        (json_int_t)errata_verify_tally(rep, ERRATA_VERIFY_FAILED), "skipped",
        (json_int_t)errata_verify_tally(rep, ERRATA_VERIFY_SKIPPED), "records", arr);
    cli_emit(json_dumps(root, JSON_INDENT(2)));
    json_decref(root);
}

int cmd_verify(int argc, char **argv, cli_common *common)
{
    static const struct option longopts[] = {CLI_COMMON_LONGOPTS,
                                             {"kb", required_argument, NULL, 'K'},
                                             {"domain", required_argument, NULL, 'd'},
                                             {"timeout", required_argument, NULL, 't'},
                                             {"update", no_argument, NULL, 'u'},
                                             {"quiet", no_argument, NULL, 'q'},
                                             {NULL, 0, NULL, 0}};
    const char *dirs[16];
    size_t n_dirs = 0;
    errata_verify_options vo = {0};
    printer p = {0};
    int opt, status = -1;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "hq", longopts, common, NULL, CLI_HELP_verify, &status)) != -1) {
        if (opt == 'K' && n_dirs < sizeof dirs / sizeof *dirs) {
            dirs[n_dirs++] = optarg;
        } else if (opt == 'K') {
            cli_error("at most %zu --kb directories", sizeof dirs / sizeof *dirs);
            return EXIT_TROUBLE;
        } else if (opt == 'd') {
            vo.domain = optarg;
        } else if (opt == 't') {
            char *end;
            vo.timeout_s = strtod(optarg, &end);
            if (*end || vo.timeout_s <= 0 || vo.timeout_s > 3600) {
                cli_error("--timeout takes seconds from 1 to 3600, not '%s'", optarg);
                return EXIT_TROUBLE;
            }
        } else if (opt == 'u') {
            vo.update = 1;
        } else if (opt == 'q') {
            p.quiet = true;
        }
    }
    if (status >= 0)
        return status;
    if (n_dirs == 0)
        dirs[n_dirs++] = ERRATA_DEFAULT_KB;
    vo.ids = (const char *const *)argv + optind;
    vo.n_ids = (size_t)(argc - optind);
    p.json = common->json;
    vo.progress = print_entry;
    vo.progress_arg = &p;

    errata_verify_report *rep = NULL;
    errata_error err = {0};
    if (errata_verify(dirs, n_dirs, &vo, &rep, &err) != ERRATA_OK)
        return cli_report(&err);
    if (p.json)
        print_json(rep);
    else
        printf("%zu verified, %zu failed, %zu skipped (of %zu records)\n",
               errata_verify_tally(rep, ERRATA_VERIFY_VERIFIED),
               errata_verify_tally(rep, ERRATA_VERIFY_FAILED),
               errata_verify_tally(rep, ERRATA_VERIFY_SKIPPED), errata_verify_count(rep));
    status = errata_verify_tally(rep, ERRATA_VERIFY_FAILED) ? EXIT_NONE : EXIT_MATCH;
    errata_verify_free(rep);
    return status;
}
