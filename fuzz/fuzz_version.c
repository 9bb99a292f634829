/*
 * fuzz_version.c — version and specifier parsing under the four schemes (version.h), on text
 * decoded from the input: byte 0 picks the scheme, the rest is split at newlines into three
 * versions a, b, c and a specifier. Record authors write specifiers and users' lock files hold
 * versions, so neither may crash the parsers; and the answers must be coherent, or an
 * applicability verdict would depend on the order records or packages happen to be read in.
 *
 * Properties (abort on violation), for every pair and triple of a, b, c that parse:
 *   - version_compare is a total order: compare(x, x) == 0, compare(x, y) == -compare(y, x),
 *     and x <= y <= z implies x <= z (and x == y puts both on the same side of z) — except
 *     transitivity under Maven, whose ComparableVersion order is not transitive and which
 *     maven.c reproduces as it is (see there; fuzz/regressions/version/ keeps an example);
 *   - version_satisfies(x, OP y) agrees with that order for the plain operators of the scheme
 *     (>=, <=, >, <, ==, != and Maven's one-sided ranges): a YES always means the order holds;
 *     a NO means it does not, except where the scheme's documented rules exclude versions on
 *     purpose (PEP 440's exclusive < and >, npm's pre-releases; see version.c and the schemes'
 *     files), and an UNKNOWN is always allowed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "version.h"

typedef enum { REL_LT, REL_LE, REL_GT, REL_GE, REL_EQ, REL_NE } relation;

/* A specifier "before VERSION after" that holds exactly when the relation does. no_exact: the
 * scheme may answer NO although the relation holds (its exclusion rules). */
typedef struct {
    const char *before, *after;
    relation rel;
    bool no_exact;
} op_form;

static const op_form PEP440_FORMS[] = {
    {">=", "", REL_GE, false}, {"<=", "", REL_LE, false}, {"==", "", REL_EQ, false},
    {"!=", "", REL_NE, false}, {"<", "", REL_LT, true},   {">", "", REL_GT, true}, {0}};
static const op_form GENERIC_FORMS[] = {
    {">=", "", REL_GE, false}, {"<=", "", REL_LE, false}, {"==", "", REL_EQ, false},
    {"!=", "", REL_NE, false}, {"<", "", REL_LT, false},  {">", "", REL_GT, false}, {0}};
/* npm's pre-release rule is applied by the caller: no_exact is set for a pre-release x. */
static const op_form SEMVER_FORMS[] = {
    {">=", "", REL_GE, false}, {"<=", "", REL_LE, false}, {"=", "", REL_EQ, false},
    {"", "", REL_EQ, false},   {"<", "", REL_LT, false},  {">", "", REL_GT, false}, {0}};
static const op_form MAVEN_FORMS[] = {
    {"[", ",)", REL_GE, false}, {"(,", "]", REL_LE, false}, {"[", "]", REL_EQ, false},
    {"", "", REL_EQ, false},    {"(,", ")", REL_LT, false}, {"(", ",)", REL_GT, false}, {0}};

static bool holds(relation rel, int c)
{
    switch (rel) {
    case REL_LT: return c < 0;
    case REL_LE: return c <= 0;
    case REL_GT: return c > 0;
    case REL_GE: return c >= 0;
    case REL_EQ: return c == 0;
    case REL_NE: return c != 0;
    }
    return false;
}

/* Characters that cannot change how a specifier built around the version reads (no blanks,
 * commas, ranges, wildcards or operators): only such versions are put into specifiers. */
static bool plain_version(const char *v)
{
    if (!*v)
        return false;
    for (const char *p = v; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              strchr(".+_~!-", *p)))
            return false;
    return true;
}

/* PEP 440 compares a candidate's public version in ordered clauses, and in == and != unless the
 * specifier has a local label (pep440.c): the part before '+'. */
static void public_part(const char *v, char *out, size_t size)
{
    snprintf(out, size, "%.*s", (int)strcspn(v, "+"), v);
}

/* npm: x has a pre-release when a '-' follows MAJOR.MINOR.PATCH before any build metadata. */
static bool semver_prerelease(const char *v)
{
    const char *dash = strchr(v, '-');
    return dash && dash < v + strcspn(v, "+");
}

static void check_forms(version_scheme s, const char *x, const char *y)
{
    static const op_form *const forms[] = {PEP440_FORMS, SEMVER_FORMS, MAVEN_FORMS, GENERIC_FORMS};
    if (!plain_version(x) || !plain_version(y))
        return;
    char xp[1024];
    public_part(x, xp, sizeof xp);
    for (const op_form *f = forms[s]; f->before; f++) {
        /* The version x is compared as: PEP 440 drops its local label where y has none. */
        const char *as = s == VSCHEME_PEP440 && (f->rel != REL_EQ && f->rel != REL_NE ? true
                                                 : !strchr(y, '+')) ? xp : x;
        bool ok;
        int c = version_compare(s, as, y, &ok);
        if (!ok)
            continue;
        char spec[2100], why[256];
        snprintf(spec, sizeof spec, "%s%s%s", f->before, y, f->after);
        vmatch m = version_satisfies(s, x, spec, why, sizeof why);
        bool no_exact = f->no_exact || (s == VSCHEME_SEMVER && semver_prerelease(x));
        if ((m == VMATCH_YES && !holds(f->rel, c)) ||
            (m == VMATCH_NO && !no_exact && holds(f->rel, c)))
            fuzz_fail("%s: '%s' %s '%s' (compare says %d as '%s'), but the order is %d",
                      version_scheme_name(s), x, m == VMATCH_YES ? "satisfies" : "does not satisfy",
                      spec, c, as, c);
    }
}

static void check_order(version_scheme s, char *const v[3])
{
    int c[3][3];
    bool ok[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            c[i][j] = version_compare(s, v[i], v[j], &ok[i][j]);
    for (int i = 0; i < 3; i++) {
        if (ok[i][i] && c[i][i] != 0)
            fuzz_fail("%s: '%s' is not equal to itself", version_scheme_name(s), v[i]);
        for (int j = 0; j < 3; j++) {
            if (ok[i][j] != ok[j][i] || (ok[i][j] && c[i][j] != -c[j][i]))
                fuzz_fail("%s: compare('%s', '%s') = %d but compare('%s', '%s') = %d",
                          version_scheme_name(s), v[i], v[j], c[i][j], v[j], v[i], c[j][i]);
            for (int k = 0; k < 3 && s != VSCHEME_MAVEN; k++) {
                if (!ok[i][j] || !ok[j][k] || !ok[i][k])
                    continue;
                if ((c[i][j] <= 0 && c[j][k] <= 0 && c[i][k] > 0) ||
                    (c[i][j] == 0 && c[i][k] != c[j][k]))
                    fuzz_fail("%s: not transitive over '%s', '%s', '%s'", version_scheme_name(s),
                              v[i], v[j], v[k]);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    version_scheme s = (version_scheme)(data[0] % 4);
    char *text = fuzz_cstring(data + 1, size - 1);
    char *field[4] = {"", "", "", ""};
    char *rest = text;
    for (int i = 0; i < 4 && rest; i++) {
        field[i] = rest;
        rest = i < 3 ? strchr(rest, '\n') : NULL;
        if (rest)
            *rest++ = '\0';
    }
    check_order(s, field);
    for (int i = 0; i < 3; i++) {
        char why[256];
        version_satisfies(s, field[i], field[3], why, sizeof why);
        for (int j = 0; j < 3; j++)
            check_forms(s, field[i], field[j]);
    }
    char *package, *specifier, why[256];
    if (version_requirement_split(field[3], &package, &specifier, why, sizeof why)) {
        version_satisfies(s, field[0], specifier, why, sizeof why);
        free(package);
        free(specifier);
    }
    free(text);
    return 0;
}
