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

/* Whether an atom that can match a non-ASCII character is followed by an unbounded quantifier
 * (*, +, {0,} or {1,}), so that matching it byte by byte covers every UTF-8 sequence too. */
static bool unbounded_after(const char *p)
{
    if (*p == '*' || *p == '+')
        return true;
    if (*p != '{')
        return false;
    return strncmp(p, "{0,}", 4) == 0 || strncmp(p, "{1,}", 4) == 0;
}

/* Whether Hyperscan may scan this pattern as bytes (without HS_FLAG_UTF8) and still report
 * every match PCRE2 finds in UTF-8 mode, which is a fifth faster to scan and a database half
 * the size. True when the pattern is ASCII and every atom that can match a non-ASCII character
 * (".", "[^…]", \S, \W, \D, \H, \V, \N, \p) repeats without bound: bytes then cover what
 * characters would. Counted or single such atoms ("a.b", "[^']{2,8}") need UTF-8 mode, where
 * one character is one step. (PCRE2's caseless UTF-8 mode also lets "k" match the Kelvin sign
 * and "s" the long s; byte mode does not: an accepted gap.) */
static bool byte_safe(const char *re)
{
    bool in_class = false, negated = false, wide_in_class = false;
    for (const char *p = re; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x80)
            return false;
        if (in_class) {
            if (c == '\\' && p[1]) {
                p++;
                if (strchr("SWDHVNpP", *p))
                    wide_in_class = true;
                continue;
            }
            if (c == ']') {
                in_class = false;
                if ((negated || wide_in_class) && !unbounded_after(p + 1))
                    return false;
            }
            continue;
        }
        if (c == '\\' && p[1]) {
            p++;
            if (strchr("SWDHVNpPXC", *p)) {
                if ((*p == 'p' || *p == 'P') && p[1] == '{') {
                    const char *close = strchr(p, '}');
                    if (!close)
                        return false;
                    p = close;
                }
                if (!unbounded_after(p + 1))
                    return false;
            }
            continue;
        }
        if (c == '[') {
            in_class = true;
            negated = p[1] == '^';
            wide_in_class = false;
            if (negated)
                p++;
            if (p[1] == ']')
                p++; /* a literal ] first in the class */
            continue;
        }
        if (c == '.' && !unbounded_after(p + 1))
            return false;
    }
    return true;
}

/* The flags of one pattern in the database: byte mode where that is safe. */
static unsigned pattern_flags(const char *expr, engine_kind e)
{
    unsigned f = hs_flags(e);
    return e == ENGINE_HS && byte_safe(expr) ? f & ~(unsigned)HS_FLAG_UTF8 : f;
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

/* Whether Hyperscan accepts the pattern with these flags. hs_expression_info() parses and
 * analyses without building a database, a fraction of hs_compile()'s cost; the rare pattern it
 * accepts but the full compile then refuses is demoted by multiscan_compile(). */
static bool compiles(const char *expr, engine_kind e)
{
    hs_expr_info_t *info = NULL;
    hs_compile_error_t *cerr = NULL;
    hs_error_t rc = hs_expression_info(expr, hs_flags(e), &info, &cerr);
    free(info);
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

/* One attempt. When Hyperscan refuses one pattern, returns ERRATA_ERR_REGEX with *bad set to
 * its index (err untouched); *bad is n for any other failure (err set). */
static errata_code compile_once(char **exprs, const engine_kind *engines, size_t n,
                                hs_database_t **out, size_t *bad, errata_error *err)
{
    unsigned *flags = calloc(n ? n : 1, sizeof *flags);
    unsigned *ids = calloc(n ? n : 1, sizeof *ids);
    const char **use = calloc(n ? n : 1, sizeof *use);
    errata_code rc = ERRATA_OK;
    size_t m = 0;
    *bad = n;
    if (!flags || !ids || !use)
        rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory compiling patterns");
    for (size_t i = 0; rc == ERRATA_OK && i < n; i++) {
        if (engines[i] == ENGINE_PCRE_ONLY)
            continue;
        use[m] = exprs[i];
        flags[m] = pattern_flags(exprs[i], engines[i]);
        ids[m] = (unsigned)i;
        m++;
    }
    *out = NULL;
    if (rc == ERRATA_OK && m > 0) {
        hs_compile_error_t *cerr = NULL;
        if (hs_compile_multi(use, flags, ids, (unsigned)m, HS_MODE_BLOCK, NULL, out, &cerr) !=
            HS_SUCCESS) {
            *out = NULL;
            if (cerr && cerr->expression >= 0 && (size_t)cerr->expression < m) {
                *bad = ids[cerr->expression];
                rc = ERRATA_ERR_REGEX;
            } else {
                rc = set_error(err, ERRATA_ERR_REGEX,
                               "the multi-pattern database did not compile: %s",
                               cerr ? cerr->message : "unknown error");
            }
        }
        hs_free_compile_error(cerr);
    }
    free(flags);
    free(ids);
    free(use);
    return rc;
}

errata_code multiscan_compile(const char *const *regexes, engine_kind *engines, size_t n,
                              hs_database_t **out, errata_error *err)
{
    *out = NULL;
    char **exprs = calloc(n ? n : 1, sizeof *exprs);
    if (!exprs)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory compiling patterns");
    errata_code rc = ERRATA_OK;
    for (size_t i = 0; rc == ERRATA_OK && i < n; i++)
        if (!(exprs[i] = strip_group_names(regexes[i])))
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory compiling patterns");
    /* Each retry demotes one pattern one step (exact → prefilter → PCRE2 only), so this ends
     * after at most 2n + 1 attempts. */
    while (rc == ERRATA_OK) {
        size_t bad;
        rc = compile_once(exprs, engines, n, out, &bad, err);
        if (rc != ERRATA_ERR_REGEX || bad >= n || engines[bad] == ENGINE_PCRE_ONLY)
            break;
        engines[bad] = engines[bad] == ENGINE_HS ? ENGINE_PREFILTER : ENGINE_PCRE_ONLY;
        rc = ERRATA_OK;
    }
    if (rc == ERRATA_ERR_REGEX && err && err->code != ERRATA_ERR_REGEX)
        set_error(err, ERRATA_ERR_REGEX, "the multi-pattern database did not compile");
    for (size_t i = 0; i < n; i++)
        free(exprs[i]);
    free(exprs);
    return rc;
}
