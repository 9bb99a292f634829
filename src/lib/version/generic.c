/*
 * generic.c — OS and tool versions; see version.h.
 *
 * Generic (OS and tool versions: python>=3.11,<3.13, node>=20, gcc>=12, openssl>=3.0,
 * ubuntu>=22.04, kernel>=6.1)
 *   A version is an optional "v", dotted decimal numbers, and an optional suffix: whatever
 *   follows the numbers (3.0.2k, 12.2.0-14+deb12u1, 20.20.2-1nodesource1, 3.13.0rc1, 6.8-rc3).
 *   The numbers compare numerically, a missing one is 0 (22.04 == 22.4.0). The suffix matters
 *   only when the numbers are equal, and is read as one of three kinds:
 *     packaging    "+…", or "-" then a digit (Debian and RPM revisions, build metadata, kernel
 *                  ABI numbers: 12.2.0-14+deb12u1, 20.20.2-1nodesource1, 6.1.0-18-amd64): the
 *                  same release as the numbers, so 12.2.0-14+deb12u1 == 12.2.0; but when the
 *                  specifier itself names one (>=12.2.0-14), a version of the same numbers
 *                  with another or no revision cannot be ordered against it: unknown
 *     pre-release  "~…", or, after an optional "-", "." or "_", the word alpha, beta, rc, pre,
 *                  preview, prerelease, dev, snapshot or ea, or a or b followed by a digit
 *                  (3.13.0rc1, 6.8-rc3, 21-ea, 3.12.0b2): before the numbers' release
 *     other        anything else (3.0.2k, 9.6p1, 1.8.0_392): at or after the numbers' release,
 *                  by an unknown amount
 *   So 3.0.2k >= 3.0.2 holds, 3.0.2k > 3.0.2 is unknown, 3.13.0rc1 >= 3.13 does not hold, and
 *   two different pre-release (or two different other) suffixes on equal numbers cannot be
 *   ordered: unknown. Operators: ==, != (both also with a final .* prefix match on the
 *   numbers), <, <=, >, >=, ~= (as in PEP 440), === (string equality); "=" is read as "==".
 *   A clause needs an operator; clauses are joined by commas as in PEP 440.
 */
#include "version_schemes.h"

/* ------------------------------------------------------------------ generic */

static suffix_kind gen_classify(span x)
{
    static const char *const pre_words[] = {"alpha", "beta",     "rc",       "pre", "preview",
                                            "prerelease", "dev", "snapshot", "ea"};
    if (!x.n)
        return SUFFIX_NONE;
    if (x.p[0] == '+' || (x.p[0] == '-' && x.n > 1 && is_digit(x.p[1])))
        return SUFFIX_PACKAGING;
    if (x.p[0] == '~')
        return SUFFIX_PRE; /* Debian's "sorts before the release" */
    size_t i = x.p[0] == '-' || x.p[0] == '.' || x.p[0] == '_' ? 1 : 0, start = i;
    while (i < x.n && is_alpha(x.p[i]))
        i++;
    span word = sub(x, start, i);
    for (size_t k = 0; k < sizeof pre_words / sizeof pre_words[0]; k++)
        if (ci_eq(word, pre_words[k]))
            return SUFFIX_PRE;
    /* 3.12.0a1 and 3.12.0b2 are Python's pre-releases; 3.0.2a is an OpenSSL letter release. */
    if (word.n == 1 && (lower(word.p[0]) == 'a' || lower(word.p[0]) == 'b') && i < x.n &&
        is_digit(x.p[i]))
        return SUFFIX_PRE;
    return SUFFIX_OTHER;
}

static bool gen_parse(span text, bool wildcard_ok, gen_version *g, char *why, size_t why_size)
{
    span s = trim(text);
    *g = (gen_version){.release = EMPTY, .suffix = EMPTY};
    size_t i = s.n && lower(s.p[0]) == 'v' ? 1 : 0;
    if (!take_release(s, &i, &g->release, &g->n_release)) {
        say(why, why_size, "'%.*s' is not a version: it does not start with a number", shown(s),
            s.p);
        return false;
    }
    if (wildcard_ok && s.n - i == 2 && s.p[i] == '.' && s.p[i + 1] == '*') {
        g->wildcard = true;
        return true;
    }
    g->suffix = sub(s, i, s.n);
    g->kind = gen_classify(g->suffix);
    return true;
}

/* Where a suffix puts a version against its numbers' release: before, at, or at-or-after. */
static int suffix_side(suffix_kind k) { return k == SUFFIX_PRE ? -1 : k == SUFFIX_OTHER ? 1 : 0; }

/* The possible orders of v against s (see the generic rules at the top). */
static unsigned gen_order(const gen_version *v, const gen_version *s)
{
    int c = release_cmp(v->release, s->release);
    if (c)
        return order_of(c);
    if (v->kind == s->kind && ci_cmp(v->suffix, s->suffix) == 0)
        return ORD_EQ;
    if (s->kind == SUFFIX_PACKAGING) /* a specifier that names a revision cares about it */
        return ORD_LT | ORD_EQ | ORD_GT;
    int a = suffix_side(v->kind), b = suffix_side(s->kind);
    if (a == 0 && b == 0)
        return ORD_EQ;
    if (a == b)
        return ORD_LT | ORD_EQ | ORD_GT; /* two pre-releases, or two unknown suffixes */
    if (a < b)
        return a == -1 ? ORD_LT : ORD_LT | ORD_EQ;
    return b == -1 ? ORD_GT : ORD_GT | ORD_EQ;
}

static vmatch gen_holds(clause_op op, const gen_version *v, const gen_version *s)
{
    if (s->wildcard) {
        bool prefix = release_prefix_eq(v->release, s->release, s->n_release);
        return (op == OP_EQ) == prefix ? VMATCH_YES : VMATCH_NO;
    }
    if (op == OP_COMPAT) {
        if (!release_prefix_eq(v->release, s->release, s->n_release - 1))
            return VMATCH_NO;
        op = OP_GE;
    }
    return order_satisfies(op, gen_order(v, s));
}

static bool gen_check(clause_op op, const gen_version *s, char *why, size_t why_size)
{
    if (op == OP_COMPAT && s->n_release < 2) {
        say(why, why_size, "~= needs two numbers at least (~=3.11, not ~=3)");
        return false;
    }
    if (memchr(s->suffix.p, '*', s->suffix.n)) {
        say(why, why_size, "a wildcard is only allowed as a final .* after == or !=");
        return false;
    }
    return true;
}

/* A total order for sorting: the numbers, then pre-release < none or packaging < other, then
 * the suffix text — a deterministic tie-break, not a claim about which release is later. */
static int gen_total_cmp(const gen_version *a, const gen_version *b)
{
    int c = release_cmp(a->release, b->release);
    if (c)
        return c;
    int sa = suffix_side(a->kind), sb = suffix_side(b->kind);
    if (sa != sb)
        return sa < sb ? -1 : 1;
    return sa ? ci_cmp(a->suffix, b->suffix) : 0;
}

static bool gen_parse_any(span t, bool w, any_version *o, char *why, size_t n)
{
    return gen_parse(t, w, &o->gen, why, n);
}
static bool gen_check_any(clause_op op, const any_version *s, char *why, size_t n)
{
    return gen_check(op, &s->gen, why, n);
}
static vmatch gen_holds_any(clause_op op, const any_version *v, const any_version *s)
{
    return gen_holds(op, &v->gen, &s->gen);
}

const clause_rules GENERIC_RULES = {"generic", true, gen_parse_any, gen_check_any,
                                    gen_holds_any};

bool generic_compare(span a, span b, int *c)
{
    gen_version x, y;
    if (!gen_parse(a, false, &x, NULL, 0) || !gen_parse(b, false, &y, NULL, 0))
        return false;
    *c = gen_total_cmp(&x, &y);
    return true;
}
