/*
 * multiscan.c — building the Hyperscan database of record patterns; see multiscan.h.
 */
#include "multiscan.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "strbuf.h"

/* The flags mirror pattern_compile(): case-insensitive, ^ and $ at line ends, UTF-8, with ASCII
 * classes (\w, \d, \s). Unicode classes (HS_FLAG_UCP) made the database six times larger
 * (9.8 MB against 1.7 MB for 475 records) and a cold `errata lookup` three times slower, for
 * error messages that are ASCII where classes are used. SINGLEMATCH: one report per pattern is
 * enough, PCRE2 then finds every occurrence itself. */
static unsigned hs_flags(engine_kind e)
{
    unsigned f = HS_FLAG_CASELESS | HS_FLAG_MULTILINE | HS_FLAG_UTF8 |
                 HS_FLAG_SINGLEMATCH;
    return e == ENGINE_PREFILTER ? f | HS_FLAG_PREFILTER : f;
}

/* Hyperscan has no named groups; a group's name changes nothing about what it matches, so
 * "(?P<name>" and "(?<name>" become "(" for it. Lookbehinds "(?<=" and "(?<!" stay. */
static char *strip_group_names(const char *re)
{
    strbuf sb;
    sb_init(&sb);
    bool in_class = false;
    for (size_t i = 0; re[i];) {
        if (re[i] == '\\' && re[i + 1]) {
            sb_append(&sb, re + i, 2);
            i += 2;
            continue;
        }
        if (in_class) {
            if (re[i] == ']')
                in_class = false;
            sb_putc(&sb, re[i++]);
            continue;
        }
        if (re[i] == '[') {
            in_class = true;
            sb_putc(&sb, re[i++]);
            if (re[i] == '^')
                sb_putc(&sb, re[i++]);
            if (re[i] == ']')
                sb_putc(&sb, re[i++]);
            continue;
        }
        size_t skip = 0;
        if (strncmp(re + i, "(?P<", 4) == 0)
            skip = 4;
        else if (strncmp(re + i, "(?<", 3) == 0 && re[i + 3] != '=' && re[i + 3] != '!')
            skip = 3;
        if (skip) {
            const char *close = strchr(re + i + skip, '>');
            if (close) {
                sb_putc(&sb, '(');
                i = (size_t)(close - re) + 1;
                continue;
            }
        }
        sb_putc(&sb, re[i++]);
    }
    return sb_finish(&sb);
}

static bool compiles(const char *expr, engine_kind e)
{
    hs_database_t *db = NULL;
    hs_compile_error_t *cerr = NULL;
    hs_error_t rc = hs_compile(expr, hs_flags(e), HS_MODE_BLOCK, NULL, &db, &cerr);
    hs_free_database(db);
    hs_free_compile_error(cerr);
    return rc == HS_SUCCESS;
}

engine_kind multiscan_classify(const char *regex)
{
    char *expr = strip_group_names(regex);
    engine_kind e = ENGINE_PCRE_ONLY;
    if (expr && compiles(expr, ENGINE_HS))
        e = ENGINE_HS;
    else if (expr && compiles(expr, ENGINE_PREFILTER))
        e = ENGINE_PREFILTER;
    free(expr);
    return e;
}

errata_code multiscan_compile(const char *const *regexes, const engine_kind *engines, size_t n,
                              hs_database_t **out, errata_error *err)
{
    *out = NULL;
    char **exprs = calloc(n ? n : 1, sizeof *exprs);
    unsigned *flags = calloc(n ? n : 1, sizeof *flags);
    unsigned *ids = calloc(n ? n : 1, sizeof *ids);
    errata_code rc = ERRATA_OK;
    size_t m = 0;
    if (!exprs || !flags || !ids)
        rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory compiling patterns");
    for (size_t i = 0; rc == ERRATA_OK && i < n; i++) {
        if (engines[i] == ENGINE_PCRE_ONLY)
            continue;
        if (!(exprs[m] = strip_group_names(regexes[i]))) {
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory compiling patterns");
            break;
        }
        flags[m] = hs_flags(engines[i]);
        ids[m] = (unsigned)i;
        m++;
    }
    if (rc == ERRATA_OK && m > 0) {
        hs_compile_error_t *cerr = NULL;
        if (hs_compile_multi((const char *const *)exprs, flags, ids, (unsigned)m, HS_MODE_BLOCK,
                             NULL, out, &cerr) != HS_SUCCESS) {
            rc = set_error(err, ERRATA_ERR_REGEX,
                           "the multi-pattern database did not compile (pattern of record %d): %s",
                           cerr && cerr->expression >= 0 ? (int)ids[cerr->expression] : -1,
                           cerr ? cerr->message : "unknown");
            *out = NULL;
        }
        hs_free_compile_error(cerr);
    }
    for (size_t i = 0; exprs && i < m; i++)
        free(exprs[i]);
    free(exprs);
    free(flags);
    free(ids);
    return rc;
}
