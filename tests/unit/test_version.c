/*
 * test_version.c — version specifiers under PEP 440, node-semver, Maven and the generic scheme:
 * tables of cases taken from the examples and rules of each specification, the orders they
 * define, splitting "package<specifier>" texts, and hostile input (long, deep, huge numbers).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "version.h"

#define PEP VSCHEME_PEP440
#define NPM VSCHEME_SEMVER
#define MVN VSCHEME_MAVEN
#define GEN VSCHEME_GENERIC
#define YES VMATCH_YES
#define NO VMATCH_NO
#define UNK VMATCH_UNKNOWN

typedef struct {
    version_scheme scheme;
    const char *version, *specifier;
    vmatch want;
} sat_case;

static const char *match_name(vmatch m)
{
    return m == VMATCH_YES ? "YES" : m == VMATCH_NO ? "NO" : "UNKNOWN";
}

/* Runs every row and reports all the rows that fail, not only the first. An answer other than
 * yes must come with a reason. */
static void check_table(const sat_case *cases, size_t n)
{
    int failures = 0;
    for (size_t i = 0; i < n; i++) {
        const sat_case *c = &cases[i];
        char why[256] = "unset";
        vmatch got = version_satisfies(c->scheme, c->version, c->specifier, why, sizeof why);
        if (got != c->want) {
            print_error("%s: '%s' against '%s': got %s, want %s (%s)\n",
                        version_scheme_name(c->scheme), c->version, c->specifier,
                        match_name(got), match_name(c->want), why);
            failures++;
        } else if ((got == VMATCH_YES) != (why[0] == '\0')) {
            print_error("%s: '%s' against '%s': %s with reason '%s'\n",
                        version_scheme_name(c->scheme), c->version, c->specifier,
                        match_name(got), why);
            failures++;
        }
    }
    if (failures)
        fail_msg("%d of %zu cases failed", failures, n);
}

#define CHECK_TABLE(t) check_table(t, sizeof t / sizeof t[0])

/* ------------------------------------------------------------------ PEP 440 */

static const sat_case pep440_cases[] = {
    /* the records' own specifiers */
    {PEP, "4.38.0", ">=4.38.0", YES},
    {PEP, "4.37.2", ">=4.38.0", NO},
    {PEP, "2.3.1", ">=2.2.0,<2.5", YES},
    {PEP, "2.5.0", ">=2.2.0,<2.5", NO},
    {PEP, "2.1.9", ">=2.2.0,<2.5", NO},
    {PEP, "1.5", " >= 1.0 , < 2.0 ", YES},
    {PEP, "1.5", ">=1.0,", YES},
    /* zero padding and case */
    {PEP, "1.0", "==1.0.0", YES},
    {PEP, "1.0.0.0", "==1", YES},
    {PEP, "1.0.0.1", ">1", YES},
    {PEP, "1.0.1", "!=1.0", YES},
    {PEP, "1.0.0", "!=1.0", NO},
    {PEP, "V2.0", ">=1.0", YES},
    {PEP, "v1.0", "==1.0", YES},
    /* version matching and prefix matching (the spec's examples) */
    {PEP, "1.1.post1", "==1.1", NO},
    {PEP, "1.1.post1", "==1.1.post1", YES},
    {PEP, "1.1.post1", "==1.1.*", YES},
    {PEP, "1.1", "==1.1.*", YES},
    {PEP, "1.1a1", "==1.1.*", YES},
    {PEP, "1.1.dev1", "==1.1.*", YES},
    {PEP, "1.10", "==1.1.*", NO},
    {PEP, "1", "==1.0.*", YES},
    {PEP, "1.1", "!=1.1.*", NO},
    {PEP, "1.2", "!=1.1.*", YES},
    /* compatible release (the spec's examples) */
    {PEP, "2.2", "~=2.2", YES},
    {PEP, "2.3", "~=2.2", YES},
    {PEP, "3.0", "~=2.2", NO},
    {PEP, "2.1.9", "~=2.2", NO},
    {PEP, "1.4.5", "~=1.4.5", YES},
    {PEP, "1.4.9", "~=1.4.5", YES},
    {PEP, "1.5.0", "~=1.4.5", NO},
    {PEP, "2.2.post3", "~=2.2.post3", YES},
    {PEP, "2.9", "~=2.2.post3", YES},
    {PEP, "2.2.post2", "~=2.2.post3", NO},
    {PEP, "3.0", "~=2.2.post3", NO},
    {PEP, "1.4.5a4", "~=1.4.5a4", YES},
    {PEP, "1.4.6", "~=1.4.5a4", YES},
    {PEP, "1.4.5a3", "~=1.4.5a4", NO},
    {PEP, "1.5", "~=1.4.5a4", NO},
    {PEP, "2.2.1", "~=2.2.0", YES},
    {PEP, "2.3.0", "~=2.2.0", NO},
    {PEP, "1.0", "~=1", UNK},
    {PEP, "1.0", "~=1.*", UNK},
    /* epochs */
    {PEP, "1!1.0", ">=2.0", YES},
    {PEP, "1.0", "==1!1.0", NO},
    {PEP, "1!1.0", "==1!1.0", YES},
    {PEP, "2.0", "<1!0.1", YES},
    {PEP, "1!2.0", "==1!2.*", YES},
    /* exclusive ordered comparisons */
    {PEP, "2.0a1", "<2.0", NO},
    {PEP, "2.0.dev1", "<2.0", NO},
    {PEP, "2.0rc1", "<2.0", NO},
    {PEP, "1.9", "<2.0", YES},
    {PEP, "1.9a1", "<2.0", YES},
    {PEP, "2.0a1", "<2.0rc1", YES},
    {PEP, "2.0a1", "<=2.0", YES},
    {PEP, "1.7.0.post1", ">1.7", NO},
    {PEP, "1.7.1", ">1.7", YES},
    {PEP, "1.7.0.post3", ">1.7.post2", YES},
    {PEP, "1.7.0.post1", ">1.7.post2", NO},
    {PEP, "1.7.0.post1", ">=1.7", YES},
    {PEP, "1.7+local.1", ">1.7", NO},
    {PEP, "1.7.1+local.1", ">1.7", YES},
    {PEP, "1.7+local.1", ">1.7a1", NO},
    {PEP, "1.7+local.1", ">=1.7a1", YES},
    /* pre-, post- and dev-release order */
    {PEP, "1.0a1", ">=1.0", NO},
    {PEP, "1.0rc1", ">=1.0a1", YES},
    {PEP, "1.0.dev0", "<1.0a1", YES},
    {PEP, "1.0b2.post345", ">1.0b2", NO},
    {PEP, "1.0b3", ">1.0b2", YES},
    {PEP, "1.0.post1.dev2", "<1.0.post1", NO},
    {PEP, "3.0.0.dev5", ">=3.0.0.dev1", YES},
    {PEP, "2.6.0a1", ">=2.2", YES},
    /* normalisation */
    {PEP, "1.0ALPHA1", "==1.0a1", YES},
    {PEP, "1.0-beta.2", "==1.0b2", YES},
    {PEP, "1.0c1", "==1.0rc1", YES},
    {PEP, "1.0pre1", "==1.0rc1", YES},
    {PEP, "1.0preview2", "==1.0rc2", YES},
    {PEP, "1.0.a", "==1.0a0", YES},
    {PEP, "1.0-1", "==1.0.post1", YES},
    {PEP, "1.0rev2", "==1.0.post2", YES},
    {PEP, "1.0r", "==1.0.post0", YES},
    {PEP, "1.0_post_3", "==1.0.post3", YES},
    {PEP, "1.0-dev", "==1.0.dev0", YES},
    {PEP, "1.0.post", "==1.0.post0", YES},
    {PEP, "01.02", "==1.2", YES},
    /* local versions */
    {PEP, "1.0+ubuntu1", "==1.0", YES},
    {PEP, "1.0+ubuntu1", "==1.0+ubuntu1", YES},
    {PEP, "1.0+ubuntu2", "==1.0+ubuntu1", NO},
    {PEP, "1.0", "==1.0+ubuntu1", NO},
    {PEP, "1.0+Ubuntu-1", "==1.0+ubuntu.1", YES},
    {PEP, "1.0+ubuntu1", "!=1.0", NO},
    {PEP, "1.0+ubuntu1", "<=1.0", YES},
    {PEP, "1.0+ubuntu1", ">=1.0", YES},
    {PEP, "2.1.0+cu121", ">=2.1,<2.2", YES},
    {PEP, "1.0", ">=1.0+abc", UNK},
    {PEP, "1.0", "==1.0+abc.*", UNK},
    /* arbitrary equality */
    {PEP, "foobar", "===foobar", YES},
    {PEP, "FooBar", "===foobar", YES},
    {PEP, "1.0", "===1.0.0", NO},
    {PEP, "1.0", "===1.0", YES},
    /* numbers past any integer type */
    {PEP, "99999999999999999999999.0", ">=1.0", YES},
    {PEP, "1.99999999999999999999", "<1.100000000000000000000", YES},
    /* what cannot be read */
    {PEP, "1.0", "=>1.0", UNK},
    {PEP, "1.0", "1.0", UNK},
    {PEP, "1.0", "=1.0", UNK},
    {PEP, "1.0", ">=", UNK},
    {PEP, "1.0", ">=1.0.*", UNK},
    {PEP, "1.0", ">=1.0,<<2", UNK},
    {PEP, "1.0", "==1.0 2.0", UNK},
    {PEP, "not.a.version", ">=1.0", UNK},
    {PEP, "1.0.", ">=1.0", UNK},
    {PEP, "", ">=1.0", UNK},
    {PEP, "2.0", ">=1.0,<1.5,===x", NO},
    /* the empty specifier */
    {PEP, "1.0", "", YES},
    {PEP, "anything", "  ", YES},
};

static void pep440_specifiers(void **state)
{
    (void)state;
    CHECK_TABLE(pep440_cases);
}

/* ------------------------------------------------------------------ npm */

static const sat_case npm_cases[] = {
    /* plain versions */
    {NPM, "1.2.3", "1.2.3", YES},
    {NPM, "1.2.4", "1.2.3", NO},
    {NPM, "v1.2.3", "=1.2.3", YES},
    {NPM, "1.2.3", "=v1.2.3", YES},
    {NPM, "1.2.3+build.5", "1.2.3", YES},
    {NPM, "1.2.3", "1.2.3+other", YES},
    /* the README's comparator examples */
    {NPM, "1.2.7", ">=1.2.7", YES},
    {NPM, "1.2.8", ">=1.2.7", YES},
    {NPM, "2.5.3", ">=1.2.7", YES},
    {NPM, "1.3.9", ">=1.2.7", YES},
    {NPM, "1.2.6", ">=1.2.7", NO},
    {NPM, "1.1.0", ">=1.2.7", NO},
    {NPM, "1.2.99", ">=1.2.7 <1.3.0", YES},
    {NPM, "1.3.0", ">=1.2.7 <1.3.0", NO},
    {NPM, "1.2.6", ">=1.2.7 <1.3.0", NO},
    {NPM, "1.2.7", "1.2.7 || >=1.2.9 <2.0.0", YES},
    {NPM, "1.4.6", "1.2.7 || >=1.2.9 <2.0.0", YES},
    {NPM, "1.2.8", "1.2.7 || >=1.2.9 <2.0.0", NO},
    {NPM, "2.0.0", "1.2.7 || >=1.2.9 <2.0.0", NO},
    {NPM, "1.5.0", ">= 1.2.3 < 2", YES},
    /* pre-release tags */
    {NPM, "1.2.3-alpha.7", ">1.2.3-alpha.3", YES},
    {NPM, "3.4.5-alpha.9", ">1.2.3-alpha.3", NO},
    {NPM, "3.4.5", ">1.2.3-alpha.3", YES},
    {NPM, "1.2.3-alpha.2", ">1.2.3-alpha.3", NO},
    {NPM, "1.0.0-rc.1", "<1.0.0", NO},
    {NPM, "1.0.0", ">1.0.0-rc.1", YES},
    {NPM, "1.0.0-alpha.1", ">1.0.0-alpha", YES},
    {NPM, "1.0.0-alpha.beta", ">1.0.0-alpha.1", YES},
    {NPM, "1.0.0-beta", ">1.0.0-alpha.beta", YES},
    {NPM, "1.0.0-beta.2", ">1.0.0-beta", YES},
    {NPM, "1.0.0-beta.11", ">1.0.0-beta.2", YES},
    {NPM, "1.0.0-rc.1", ">1.0.0-beta.11", YES},
    /* hyphen ranges */
    {NPM, "1.2.3", "1.2.3 - 2.3.4", YES},
    {NPM, "2.3.4", "1.2.3 - 2.3.4", YES},
    {NPM, "2.3.5", "1.2.3 - 2.3.4", NO},
    {NPM, "1.2.2", "1.2.3 - 2.3.4", NO},
    {NPM, "1.2.0", "1.2 - 2.3.4", YES},
    {NPM, "1.1.9", "1.2 - 2.3.4", NO},
    {NPM, "2.3.9", "1.2.3 - 2.3", YES},
    {NPM, "2.4.0", "1.2.3 - 2.3", NO},
    {NPM, "2.9.9", "1.2.3 - 2", YES},
    {NPM, "3.0.0", "1.2.3 - 2", NO},
    /* x-ranges */
    {NPM, "1.0.0", "*", YES},
    {NPM, "1.0.0-beta", "*", NO},
    {NPM, "1.0.0-beta", "", YES},
    {NPM, "1.0.0", "1.x", YES},
    {NPM, "1.9.9", "1.x", YES},
    {NPM, "2.0.0", "1.x", NO},
    {NPM, "0.9.9", "1.x", NO},
    {NPM, "1.5.0-beta", "1.x", NO},
    {NPM, "1.2.99", "1.2.x", YES},
    {NPM, "1.3.0", "1.2.x", NO},
    {NPM, "1.2.5", "1.2.*", YES},
    {NPM, "1.5.5", "1", YES},
    {NPM, "2.0.0", "1", NO},
    {NPM, "1.2.9", "1.2", YES},
    {NPM, "1.3.0", "1.2", NO},
    {NPM, "1.9.0", "1.X.3", YES},
    /* tilde ranges */
    {NPM, "1.2.3", "~1.2.3", YES},
    {NPM, "1.2.9", "~1.2.3", YES},
    {NPM, "1.3.0", "~1.2.3", NO},
    {NPM, "1.2.2", "~1.2.3", NO},
    {NPM, "1.2.0", "~1.2", YES},
    {NPM, "1.3.0", "~1.2", NO},
    {NPM, "1.9.0", "~1", YES},
    {NPM, "2.0.0", "~1", NO},
    {NPM, "0.2.5", "~0.2.3", YES},
    {NPM, "0.3.0", "~0.2.3", NO},
    {NPM, "0.9.9", "~0", YES},
    {NPM, "1.0.0", "~0", NO},
    {NPM, "1.2.3-beta.4", "~1.2.3-beta.2", YES},
    {NPM, "1.2.4-beta.2", "~1.2.3-beta.2", NO},
    {NPM, "1.2.3-beta.1", "~1.2.3-beta.2", NO},
    {NPM, "1.2.5", "~1.2.3-beta.2", YES},
    {NPM, "1.2.5", "~>1.2", YES},
    {NPM, "1.2.5", "~ 1.2", YES},
    /* caret ranges */
    {NPM, "1.9.9", "^1.2.3", YES},
    {NPM, "2.0.0", "^1.2.3", NO},
    {NPM, "2.0.0-0", "^1.2.3", NO},
    {NPM, "1.2.2", "^1.2.3", NO},
    {NPM, "0.2.9", "^0.2.3", YES},
    {NPM, "0.3.0", "^0.2.3", NO},
    {NPM, "0.0.3", "^0.0.3", YES},
    {NPM, "0.0.4", "^0.0.3", NO},
    {NPM, "1.2.3-beta.4", "^1.2.3-beta.2", YES},
    {NPM, "1.2.4-beta.2", "^1.2.3-beta.2", NO},
    {NPM, "1.2.4", "^1.2.3-beta.2", YES},
    {NPM, "0.0.3-pr.2", "^0.0.3-beta", YES},
    {NPM, "0.0.4", "^0.0.3-beta", NO},
    {NPM, "1.9.0", "^1.2.x", YES},
    {NPM, "2.0.0", "^1.2.x", NO},
    {NPM, "0.0.9", "^0.0.x", YES},
    {NPM, "0.1.0", "^0.0.x", NO},
    {NPM, "0.0.5", "^0.0", YES},
    {NPM, "1.0.0", "^1.x", YES},
    {NPM, "2.0.0", "^1.x", NO},
    {NPM, "0.9.0", "^0.x", YES},
    {NPM, "1.0.0", "^0.x", NO},
    {NPM, "20.11.1", "^20", YES},
    {NPM, "1.0.0", "^0.9 || ^1", YES},
    /* x-ranges with comparators */
    {NPM, "2.0.0", ">1", YES},
    {NPM, "1.9.9", ">1", NO},
    {NPM, "1.1.9", "<1.2", YES},
    {NPM, "1.2.0", "<1.2", NO},
    {NPM, "1.2.0-beta", "<1.2", NO},
    {NPM, "1.2.9", "<=1.2", YES},
    {NPM, "1.3.0", "<=1.2", NO},
    {NPM, "1.2.0", ">=1.2", YES},
    {NPM, "1.3.0", ">1.2", YES},
    {NPM, "1.2.9", ">1.2", NO},
    {NPM, "1.0.0", "<*", NO},
    {NPM, "1.0.0", ">=*", YES},
    /* numbers past any integer type, bumped with a carry */
    {NPM, "99999999999999999999999.0.0", "^99999999999999999999999", YES},
    {NPM, "100000000000000000000000.0.0", "^99999999999999999999999", NO},
    {NPM, "1.99999999999999999999.0", "~1.99999999999999999999", YES},
    {NPM, "1.100000000000000000000.0", "~1.99999999999999999999", NO},
    /* what cannot be read */
    {NPM, "1.2", "*", UNK},
    {NPM, "01.2.3", "*", UNK},
    {NPM, "1.2.3-01", "*", UNK},
    {NPM, "not-a-version", "*", UNK},
    {NPM, "1.2.3", ">=01.2", UNK},
    {NPM, "1.2.3", "~<1", UNK},
    {NPM, "1.2.5", "~>=1.2", YES},
    {NPM, "1.2.3", "1.2.3.4", UNK},
    {NPM, "1.2.3", "| 1.2.3", UNK},
    {NPM, "1.2.3", ">=", UNK},
    {NPM, "1.2.3", "latest", UNK},
    {NPM, "1.2.3", "1.2-beta", UNK},
};

static void npm_ranges(void **state)
{
    (void)state;
    CHECK_TABLE(npm_cases);
}

/* ------------------------------------------------------------------ Maven */

static const sat_case maven_cases[] = {
    /* the POM reference's range examples */
    {MVN, "1.0", "[1.0]", YES},
    {MVN, "1.0.0", "[1.0]", YES},
    {MVN, "1.1", "[1.0]", NO},
    {MVN, "1.0", "(,1.0]", YES},
    {MVN, "0.9", "(,1.0]", YES},
    {MVN, "1.0.1", "(,1.0]", NO},
    {MVN, "1.2", "[1.2,1.3]", YES},
    {MVN, "1.3", "[1.2,1.3]", YES},
    {MVN, "1.3.1", "[1.2,1.3]", NO},
    {MVN, "1.1", "[1.2,1.3]", NO},
    {MVN, "1.0", "[1.0,2.0)", YES},
    {MVN, "1.9.9", "[1.0,2.0)", YES},
    {MVN, "2.0", "[1.0,2.0)", NO},
    {MVN, "2.0-SNAPSHOT", "[1.0,2.0)", YES},
    {MVN, "1.5", "[1.5,)", YES},
    {MVN, "99", "[1.5,)", YES},
    {MVN, "1.4", "[1.5,)", NO},
    {MVN, "1.1", "(,1.0],[1.2,)", NO},
    {MVN, "1.0", "(,1.0],[1.2,)", YES},
    {MVN, "1.2", "(,1.0],[1.2,)", YES},
    {MVN, "1.1", "(,1.1),(1.1,)", NO},
    {MVN, "1.1.1", "(,1.1),(1.1,)", YES},
    {MVN, "1.0", "(,1.1),(1.1,)", YES},
    {MVN, "1.7.36", "[1.7,2.0)", YES},
    {MVN, "2.0.0-alpha1", "[1.7,2.0)", YES},
    {MVN, "1.5", " [ 1.0 , 2.0 ) ", YES},
    {MVN, "2.14.1", "[2.0-beta9,2.15.0)", YES},
    {MVN, "2.15.0", "[2.0-beta9,2.15.0)", NO},
    /* qualifiers in ranges */
    {MVN, "1.0-beta-1", "[1.0-alpha-1,1.0)", YES},
    {MVN, "1.0-rc1", "[1.0-cr1]", YES},
    {MVN, "1.0-sp1", "(1.0,)", YES},
    {MVN, "1.0-SNAPSHOT", "[1.0,)", NO},
    {MVN, "1.0-final", "[1.0]", YES},
    {MVN, "1.0.RELEASE", "[1.0]", YES},
    {MVN, "1.0-m1", "(1.0-beta-1,1.0-rc1)", YES},
    {MVN, "1.0-xyz", "(1.0,1.0.1)", YES},
    /* a plain version is that version */
    {MVN, "1.0", "1.0", YES},
    {MVN, "1.0.0", "1.0", YES},
    {MVN, "1-ga", "1.0", YES},
    {MVN, "1.1", "1.0", NO},
    {MVN, "1.0-SNAPSHOT", "1.0", NO},
    /* what VersionRange refuses */
    {MVN, "1.0", "(1.0)", UNK},
    {MVN, "1.0", "[1.0)", UNK},
    {MVN, "1.0", "[2.0,1.0]", UNK},
    {MVN, "1.0", "[1.0,1.0]", UNK},
    {MVN, "1.0", "(,)", UNK},
    {MVN, "1.0", "[1.0,2.0", UNK},
    {MVN, "1.0", "[1.0,2.0),1.5", UNK},
    {MVN, "1.0", "[1.0,2.0),[1.5,3.0)", UNK},
    {MVN, "1.0", "[1.0,2.0,3.0]", UNK},
    {MVN, "1.0", "[]", UNK},
    {MVN, "1 0", "[1.0]", UNK},
    {MVN, "", "[1.0]", UNK},
};

static void maven_ranges(void **state)
{
    (void)state;
    CHECK_TABLE(maven_cases);
}

/* ------------------------------------------------------------------ generic */

static const sat_case generic_cases[] = {
    {GEN, "3.12.1", ">=3.11,<3.13", YES},
    {GEN, "3.13.0", ">=3.11,<3.13", NO},
    {GEN, "3.10.12", ">=3.11,<3.13", NO},
    {GEN, "20.11.1", ">=20", YES},
    {GEN, "v20.11.1", ">=20", YES},
    {GEN, "18.19.0", ">=20", NO},
    {GEN, "12.2.0", ">=12", YES},
    {GEN, "11.4.0", ">=12", NO},
    {GEN, "22.04", ">=22.04", YES},
    {GEN, "22.04", "==22.4", YES},
    {GEN, "20.04", ">=22.04", NO},
    {GEN, "6.1.0", ">=6.1", YES},
    {GEN, "3.27.4", ">=3.27,<4.0", YES},
    {GEN, "4.0.0", ">=3.27,<4.0", NO},
    {GEN, "2.39.2", "=2.39.2", YES},
    {GEN, "1.2", "===1.2", YES},
    /* OpenSSL letter releases: at or after their numbers */
    {GEN, "3.0.2", ">=3.0", YES},
    {GEN, "1.1.1w", ">=3.0", NO},
    {GEN, "3.0.2k", ">=3.0.2", YES},
    {GEN, "3.0.2k", ">3.0.2", UNK},
    {GEN, "3.0.2k", "==3.0.2", UNK},
    {GEN, "3.0.2k", "<=3.0.2", UNK},
    {GEN, "3.0.2k", "<3.0.3", YES},
    {GEN, "3.0.2k", "!=3.0.1", YES},
    {GEN, "3.0.2k", "==3.0.2k", YES},
    {GEN, "3.0.2k", "<3.0.2j", UNK},
    {GEN, "9.6p1", ">=8.8", YES},
    {GEN, "1.8.0_392", ">=1.8.0", YES},
    {GEN, "1.8.0_392", ">1.8.0", UNK},
    /* distribution revisions and build metadata: the same release */
    {GEN, "6.1.0-18-amd64", ">=6.1", YES},
    {GEN, "6.1.0-18-amd64", "==6.1.0", YES},
    {GEN, "12.2.0-14+deb12u1", ">=12.2", YES},
    {GEN, "12.2.0-14+deb12u1", "==12.2.0", YES},
    {GEN, "12.2.0-14+deb12u1", ">12.2.0", NO},
    {GEN, "20.20.2-1nodesource1", ">=20.19", YES},
    {GEN, "20.20.2-1nodesource1", "<20.20.2", NO},
    {GEN, "17.0.9+9", "==17.0.9", YES},
    {GEN, "12.2.0-13", ">=12.2.0-14", UNK},
    {GEN, "12.2.0", ">=12.2.0-14", UNK},
    {GEN, "12.2.0-14", ">=12.2.0-14", YES},
    {GEN, "12.2.1", ">=12.2.0-14", YES},
    /* pre-releases: before their numbers */
    {GEN, "6.8-rc3", ">=6.8", NO},
    {GEN, "6.8-rc3", "<6.8", YES},
    {GEN, "6.8-rc3", ">=6.7", YES},
    {GEN, "3.13.0rc1", ">=3.13", NO},
    {GEN, "3.13.0rc1", ">=3.12", YES},
    {GEN, "3.13.0rc1", "==3.13.*", YES},
    {GEN, "3.13.0rc1", "<3.13.0rc2", UNK},
    {GEN, "3.12.0b2", "<3.12", YES},
    {GEN, "21-ea", ">=21", NO},
    {GEN, "21-ea", ">=20", YES},
    {GEN, "2.0~rc1", "<2.0", YES},
    /* compatible release and prefixes */
    {GEN, "3.11.4", "~=3.11", YES},
    {GEN, "4.0", "~=3.11", NO},
    {GEN, "3.11.9", "~=3.11.0", YES},
    {GEN, "3.12.0", "~=3.11.0", NO},
    {GEN, "3.11.4", "==3.11.*", YES},
    {GEN, "3.12.0", "!=3.11.*", YES},
    {GEN, "3.11.0", "!=3.11.*", NO},
    /* a clause that fails decides even beside an unknown one */
    {GEN, "3.0.2k", ">3.0.2,<3.0", NO},
    /* what cannot be read */
    {GEN, "abc", ">=1", UNK},
    {GEN, "", ">=1", UNK},
    {GEN, "1.0", "1.0", UNK},
    {GEN, "1.0", "~=1", UNK},
    {GEN, "1.0", ">=x", UNK},
    {GEN, "1.0", "=>1", UNK},
    {GEN, "1.0", ">=1.*", UNK},
};

static void generic_specifiers(void **state)
{
    (void)state;
    CHECK_TABLE(generic_cases);
}

/* The reasons say what went wrong, and a NULL why is allowed. */
static void reasons(void **state)
{
    (void)state;
    char why[200];
    assert_int_equal(version_satisfies(PEP, "banana", ">=1.0", why, sizeof why), UNK);
    assert_non_null(strstr(why, "banana"));
    assert_int_equal(version_satisfies(PEP, "1.0", ">=1.0,~=2", why, sizeof why), UNK);
    assert_non_null(strstr(why, "~=2"));
    assert_int_equal(version_satisfies(PEP, "2.5", ">=2.2.0,<2.5", why, sizeof why), NO);
    assert_non_null(strstr(why, "<2.5"));
    assert_int_equal(version_satisfies(GEN, "3.0.2k", ">3.0.2", why, sizeof why), UNK);
    assert_non_null(strstr(why, "suffix"));
    assert_int_equal(version_satisfies(MVN, "1.0", "[2.0,1.0]", why, sizeof why), UNK);
    assert_non_null(strstr(why, "order"));
    assert_int_equal(version_satisfies(NPM, "1.2", "^1", why, sizeof why), UNK);
    assert_non_null(strstr(why, "SemVer"));
    assert_int_equal(version_satisfies(NPM, "1.2.3", "^1", NULL, 0), YES);
    assert_int_equal(version_satisfies(PEP, NULL, ">=1", NULL, 0), UNK);
    assert_int_equal(version_satisfies(PEP, NULL, NULL, NULL, 0), YES);
    assert_int_equal(version_satisfies((version_scheme)42, "1", ">=1", why, sizeof why), UNK);
    /* a reason never overflows a small buffer */
    char tiny[8];
    assert_int_equal(version_satisfies(PEP, "banana", ">=1.0", tiny, sizeof tiny), UNK);
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

/* ------------------------------------------------------------------ order */

/* Every version is before every later one, and after every earlier one (Maven's
 * checkVersionsOrder). */
static void check_order(version_scheme scheme, const char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            bool ok = false;
            int lt = version_compare(scheme, v[i], v[j], &ok);
            int gt = version_compare(scheme, v[j], v[i], NULL);
            if (!ok || lt >= 0 || gt <= 0)
                fail_msg("%s: expected %s < %s (got %d, %d, ok %d)", version_scheme_name(scheme),
                         v[i], v[j], lt, gt, ok);
        }
}

static void check_equal(version_scheme scheme, const char *a, const char *b)
{
    bool ok = false;
    int c = version_compare(scheme, a, b, &ok);
    if (!ok || c != 0 || version_compare(scheme, b, a, NULL) != 0)
        fail_msg("%s: expected %s == %s (got %d, ok %d)", version_scheme_name(scheme), a, b, c,
                 ok);
}

#define CHECK_ORDER(scheme, list) check_order(scheme, list, sizeof list / sizeof list[0])

static void pep440_order(void **state)
{
    (void)state;
    /* the spec's "Summary of permitted suffixes and relative ordering" */
    static const char *const order[] = {
        "1.dev0",        "1.0.dev456",          "1.0a1",         "1.0a2.dev456",
        "1.0a12.dev456", "1.0a12",              "1.0b1.dev456",  "1.0b2",
        "1.0b2.post345.dev456", "1.0b2.post345", "1.0rc1.dev456", "1.0rc1",
        "1.0",           "1.0+abc.5",           "1.0+abc.7",     "1.0+5",
        "1.0.post456.dev34", "1.0.post456",     "1.0.15",        "1.1.dev1",
        "1!0.1"};
    CHECK_ORDER(PEP, order);
    check_equal(PEP, "1.0", "1.0.0");
    check_equal(PEP, "1.0a1", "1.0.alpha.1");
    check_equal(PEP, "1.0+Ubuntu.1", "1.0+ubuntu-1");
    check_equal(PEP, "v1.0.post0", "1.0-0");
}

static void npm_order(void **state)
{
    (void)state;
    /* SemVer 2.0.0, item 11 */
    static const char *const order[] = {
        "1.0.0-alpha",  "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
        "1.0.0-beta.11", "1.0.0-rc.1",   "1.0.0",            "2.0.0",      "2.1.0",
        "2.1.1",        "10.0.0"};
    CHECK_ORDER(NPM, order);
    check_equal(NPM, "1.0.0+a", "1.0.0+b");
    check_equal(NPM, "v1.0.0", "1.0.0");
}

static void maven_order(void **state)
{
    (void)state;
    /* ComparableVersionTest's VERSIONS_QUALIFIER and VERSIONS_NUMBER */
    static const char *const qualifiers[] = {
        "1-alpha2snapshot", "1-alpha2", "1-alpha-123", "1-beta-2", "1-beta123", "1-m2", "1-m11",
        "1-rc",             "1-cr2",    "1-rc123",     "1-SNAPSHOT", "1",       "1-sp", "1-sp2",
        "1-sp123",          "1-abc",    "1-def",       "1-pom-1",  "1-1-snapshot", "1-1",
        "1-2",              "1-123"};
    static const char *const numbers[] = {
        "2.0",   "2-1",   "2.0.a", "2.0.0.a", "2.0.2", "2.0.123", "2.1.0", "2.1-a", "2.1b",
        "2.1-c", "2.1-1", "2.1.0.1", "2.2",   "2.123", "11.a2",   "11.a11", "11.b2", "11.b11",
        "11.m2", "11.m11", "11",   "11.a",    "11b",   "11c",     "11m"};
    /* the POM reference's examples */
    static const char *const reference[] = {"1-snapshot", "1", "1-sp"};
    static const char *const separators[] = {"1-foo", "1-1", "1.1"};
    static const char *const foo[] = {"1-foo2", "1-foo10"};
    static const char *const sp[] = {"1-sp-1", "1-1"};
    CHECK_ORDER(MVN, qualifiers);
    CHECK_ORDER(MVN, numbers);
    CHECK_ORDER(MVN, reference);
    CHECK_ORDER(MVN, separators);
    CHECK_ORDER(MVN, foo);
    CHECK_ORDER(MVN, sp);
    /* ComparableVersionTest's testVersionComparing */
    static const char *const pairs[][2] = {
        {"1", "2"},           {"1.5", "2"},           {"1", "2.5"},
        {"1.0", "1.1"},       {"1.1", "1.2"},         {"1.0.0", "1.1"},
        {"1.0.1", "1.1"},     {"1.1", "1.2.0"},       {"1.0-alpha-1", "1.0"},
        {"1.0-alpha-1", "1.0-alpha-2"}, {"1.0-alpha-1", "1.0-beta-1"},
        {"1.0-beta-1", "1.0-SNAPSHOT"}, {"1.0-SNAPSHOT", "1.0"},
        {"1.0-alpha-1-SNAPSHOT", "1.0-alpha-1"}, {"1.0", "1.0-1"},
        {"1.0-1", "1.0-2"},   {"1.0.0", "1.0-1"},     {"2.0-1", "2.0.1"},
        {"2.0.1-klm", "2.0.1-lmn"}, {"2.0.1", "2.0.1-xyz"}, {"2.0.1", "2.0.1-123"},
        {"2.0.1-xyz", "2.0.1-123"}, {"1-sp.1", "1.1"},  {"1-ga.1", "1-sp.1"},
        {"1.foo", "1-foo"},   {"1-foo", "1-1"},
        {"1-sp-1", "1-ga-1"}, {"2.14", "2.14.jre7"}, {"2.14.jre7", "2.14.1"},
        {"RELEASE90", "RELEASE120"}, {"alpha-1", "a-1"}, {"alpha-1", "a.1"},
        {"alpha", "aaaaaa"},  {"1.0.0-alpha.beta", "1.0.0-alpha"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        check_order(MVN, pairs[i], 2);
    /* ComparableVersionTest's MNG-5568, MNG-6572 and MNG-6964 cases */
    static const char *const mng5568[] = {"6.1.0rc3", "6.1.0", "6.1H.5-beta"};
    static const char *const mng6572[] = {"20190126.230843", "1234567890.12345",
                                          "123456789012345.1H.5-beta",
                                          "12345678901234567890.1H.5-beta"};
    static const char *const mng6964[] = {"1-0.alpha", "1-0.beta", "1"};
    CHECK_ORDER(MVN, mng5568);
    CHECK_ORDER(MVN, mng6572);
    CHECK_ORDER(MVN, mng6964);
    /* ComparableVersionTest's testVersionsEqual, and the POM reference's trimming examples */
    static const char *const equal[][2] = {
        {"1", "1.0"},          {"1", "1.0.0"},         {"1.0", "1.0.0"},     {"1", "1-0"},
        {"1", "1.0-0"},        {"1.0", "1.0-0"},       {"1a", "1-a"},        {"1a", "1.0-a"},
        {"1a", "1.0.0-a"},     {"1.0a", "1-a"},        {"1.0.0a", "1-a"},    {"1x", "1-x"},
        {"1x", "1.0.0-x"},     {"1.0x", "1-x"},        {"1.0.0x", "1-x"},    {"1ga", "1"},
        {"1release", "1"},     {"1final", "1"},        {"1cr", "1rc"},       {"1a1", "1-alpha-1"},
        {"1b2", "1-beta-2"},   {"1m3", "1-milestone-3"}, {"1X", "1x"},       {"1A", "1a"},
        {"1Ga", "1"},          {"1RELeaSE", "1"},      {"1FINAL", "1"},      {"1cR", "1rC"},
        {"1m3", "1MileStone3"}, {"1-abcdefghijklmnopqrstuvwxyz", "1-ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
        {"0000000000000000001", "1"}, {"0000000000000000000", "0"}, {"0", "0.0"},
        {"1-1.foo-bar1baz-.1", "1-1.foo-bar-1-baz-0.1"}, {"1.0.0-foo.0.0", "1-foo"},
        {"1.0.0-0.0.0", "1"},  {"1.ga", "1"},          {"1.final", "1"},     {"1.", "1"},
        {"1-", "1"},           {"1.RELEASE", "1"},     {"1-FOO2", "1-foo2"},
        {"1.1.1", "1.1.1-final"}, {"a1", "alpha-1"}};
    for (size_t i = 0; i < sizeof equal / sizeof equal[0]; i++)
        check_equal(MVN, equal[i][0], equal[i][1]);
}

static void generic_order(void **state)
{
    (void)state;
    static const char *const order[] = {"1",         "1.0.1",  "3.0.2",    "3.0.2k", "3.0.10",
                                        "3.13.0rc1", "3.13",   "9.99",     "10",     "22.04",
                                        "22.10"};
    CHECK_ORDER(GEN, order);
    check_equal(GEN, "22.04", "22.4.0");
    check_equal(GEN, "12.2.0-14+deb12u1", "12.2.0");
    check_equal(GEN, "v20.1", "20.1.0");
}

/* What does not parse is reported, never ordered. */
static void compare_refuses_what_does_not_parse(void **state)
{
    (void)state;
    static const struct {
        version_scheme scheme;
        const char *a, *b;
    } bad[] = {{PEP, "foo", "1.0"},  {PEP, "1.0", "1.0+"},   {NPM, "1.2", "1.2.3"},
               {NPM, "1.2.3", "x"},  {MVN, "", "1"},         {MVN, "1", "[1]"},
               {GEN, "x1", "1"},     {GEN, "1", NULL},       {(version_scheme)9, "1", "1"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bool ok = true;
        assert_int_equal(version_compare(bad[i].scheme, bad[i].a, bad[i].b, &ok), 0);
        assert_false(ok);
    }
}

/* ------------------------------------------------------------------ requirements */

static void requirements_split(void **state)
{
    (void)state;
    static const struct {
        const char *text, *package, *specifier;
    } good[] = {
        {"transformers>=4.38.0", "transformers", ">=4.38.0"},
        {"torch>=2.2.0,<2.5", "torch", ">=2.2.0,<2.5"},
        {"node>=20", "node", ">=20"},
        {"@types/node@^20", "@types/node", "^20"},
        {"org.slf4j:slf4j-api[1.7,2.0)", "org.slf4j:slf4j-api", "[1.7,2.0)"},
        {"org.apache.logging.log4j:log4j-core(,2.15.0)", "org.apache.logging.log4j:log4j-core",
         "(,2.15.0)"},
        {"openssl>=3.0", "openssl", ">=3.0"},
        {"gcc", "gcc", ""},
        {"  numpy  ==  1.26.*  ", "numpy", "==  1.26.*"},
        {"requests[socks]>=2.31", "requests", ">=2.31"},
        {"requests[socks, security] >=2.31", "requests", ">=2.31"},
        {"requests (>=2.31,<3)", "requests", ">=2.31,<3"},
        {"lodash@4.17.21", "lodash", "4.17.21"},
        {"@angular/core", "@angular/core", ""},
        {"@angular/core@", "@angular/core", ""},
        {"junit:junit:4.13.2", "junit:junit", "4.13.2"},
        {"g++>=12", "g++", ">=12"},
        {"python~=3.11", "python", "~=3.11"},
        {"react ^18.2", "react", "^18.2"},
        {"Flask!=2.0.0", "Flask", "!=2.0.0"},
        {"zope.interface===5.4", "zope.interface", "===5.4"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char *package = NULL, *specifier = NULL, why[200] = "unset";
        if (!version_requirement_split(good[i].text, &package, &specifier, why, sizeof why))
            fail_msg("'%s' refused: %s", good[i].text, why);
        assert_string_equal(package, good[i].package);
        assert_string_equal(specifier, good[i].specifier);
        assert_string_equal(why, "");
        free(package);
        free(specifier);
    }
    static const char *const bad[] = {
        "",       "   ",         ">=1.0",         "foo; python_version<'3.8'",
        "pkg @ https://example.com/pkg-1.0.whl", "@types@^20", "@/x",  "foo$bar",
        "requests[socks>=2", "requests (>=2.0", "foo\x01>=1", ".hidden>=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *package = (char *)"x", *specifier = (char *)"x", why[200] = "";
        if (version_requirement_split(bad[i], &package, &specifier, why, sizeof why))
            fail_msg("'%s' accepted as '%s' '%s'", bad[i], package, specifier);
        assert_null(package);
        assert_null(specifier);
        assert_true(why[0] != '\0');
    }
    char *package = (char *)"x", *specifier = (char *)"x";
    assert_false(version_requirement_split(NULL, &package, &specifier, NULL, 0));
    assert_null(package);
    assert_null(specifier);
}

/* A split requirement goes straight into version_satisfies. */
static void split_then_match(void **state)
{
    (void)state;
    static const struct {
        version_scheme scheme;
        const char *requirement, *installed;
        vmatch want;
    } cases[] = {
        {PEP, "transformers>=4.38.0", "4.40.1", YES},
        {PEP, "torch>=2.2.0,<2.5", "2.5.1", NO},
        {NPM, "@types/node@^20", "20.11.5", YES},
        {NPM, "@types/node@^20", "18.19.0", NO},
        {MVN, "org.slf4j:slf4j-api[1.7,2.0)", "2.0.9", NO},
        {MVN, "junit:junit:4.13.2", "4.13.2", YES},
        {GEN, "openssl>=3.0", "3.0.2k", YES},
        {GEN, "gcc", "12.2.0-14+deb12u1", YES},
        {GEN, "node>=12.17,<20.19", "20.19.0-1nodesource1", NO},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *package, *specifier, why[200];
        assert_true(version_requirement_split(cases[i].requirement, &package, &specifier, why,
                                              sizeof why));
        vmatch got = version_satisfies(cases[i].scheme, cases[i].installed, specifier, why,
                                       sizeof why);
        if (got != cases[i].want)
            fail_msg("%s on %s: got %s (%s)", cases[i].requirement, cases[i].installed,
                     match_name(got), why);
        free(package);
        free(specifier);
    }
}

/* ------------------------------------------------------------------ hostile input */

static char *repeat(const char *head, const char *unit, size_t times, const char *tail)
{
    size_t h = strlen(head), u = strlen(unit), t = strlen(tail);
    char *s = malloc(h + u * times + t + 1);
    assert_non_null(s);
    memcpy(s, head, h);
    for (size_t i = 0; i < times; i++)
        memcpy(s + h + i * u, unit, u);
    memcpy(s + h + u * times, tail, t + 1);
    return s;
}

static void long_and_deep_input(void **state)
{
    (void)state;
    char why[200];
    /* 100 000 release numbers */
    char *dots = repeat("1", ".1", 100000, "");
    assert_int_equal(version_satisfies(PEP, dots, ">=1.1", why, sizeof why), YES);
    assert_int_equal(version_satisfies(GEN, dots, "<2", why, sizeof why), YES);
    assert_int_equal(version_satisfies(MVN, dots, "[1.1,)", why, sizeof why), YES);
    assert_int_equal(version_satisfies(NPM, dots, "*", why, sizeof why), UNK);
    assert_int_equal(version_compare(PEP, dots, dots, NULL), 0);
    free(dots);
    /* thousands of bare dots */
    char *empty = repeat("1", ".", 5000, "");
    assert_int_equal(version_satisfies(PEP, empty, ">=1", why, sizeof why), UNK);
    assert_int_equal(version_satisfies(MVN, empty, "[1]", why, sizeof why), YES);
    free(empty);
    /* Maven sub-lists 50 000 deep, compared without recursion */
    char *deep = repeat("1", "-1", 50000, "");
    char *deeper = repeat("1", "-1", 50000, "-2");
    bool ok = false;
    assert_int_equal(version_compare(MVN, deep, deep, &ok), 0);
    assert_true(ok);
    assert_int_equal(version_compare(MVN, deep, deeper, NULL), -1);
    assert_int_equal(version_compare(MVN, deeper, deep, NULL), 1);
    free(deep);
    free(deeper);
    char *qualifiers = repeat("1", "a", 20000, "");
    assert_int_equal(version_compare(MVN, qualifiers, "1", &ok), 1);
    assert_true(ok);
    free(qualifiers);
    /* 10 000 clauses and 10 000 alternatives */
    char *clauses = repeat(">=1.0", ",<2.0", 10000, "");
    assert_int_equal(version_satisfies(PEP, "1.5", clauses, why, sizeof why), YES);
    assert_int_equal(version_satisfies(GEN, "2.5", clauses, why, sizeof why), NO);
    free(clauses);
    char *sets = repeat("^1", " || ^1", 10000, " || ^3");
    assert_int_equal(version_satisfies(NPM, "3.1.0", sets, why, sizeof why), YES);
    free(sets);
}

static void huge_numbers(void **state)
{
    (void)state;
    char why[200];
    char *nines = repeat("", "9", 10000, ".0.0");
    char *ten = repeat("1", "0", 10000, ".0.0");
    char *caret = repeat("^", "9", 10000, "");
    assert_int_equal(version_satisfies(NPM, nines, caret, why, sizeof why), YES);
    assert_int_equal(version_satisfies(NPM, ten, caret, why, sizeof why), NO);
    assert_int_equal(version_compare(NPM, nines, ten, NULL), -1);
    assert_int_equal(version_compare(PEP, nines, ten, NULL), -1);
    assert_int_equal(version_compare(MVN, ten, nines, NULL), 1);
    assert_int_equal(version_compare(GEN, ten, nines, NULL), 1);
    char *zeros = repeat("", "0", 10000, "1.0");
    assert_int_equal(version_compare(PEP, zeros, "1", NULL), 0);
    assert_int_equal(version_compare(GEN, zeros, "1", NULL), 0);
    assert_int_equal(version_compare(MVN, zeros, "1", NULL), 0);
    free(nines);
    free(ten);
    free(caret);
    free(zeros);
}

/* Bytes that are no version in any scheme are refused, whatever they are. */
static void arbitrary_bytes(void **state)
{
    (void)state;
    static const char *const junk[] = {"\xff\xfe", "1.0\x7f", "\t", "1..2", "+", "-", "!", "*",
                                       "~=", "||", "[", "(", ")", ",", "1!", "1!!2", "v", "=",
                                       "x.y.z", "1.0+", "1.0a.b", "1 - ", " - 2"};
    static const version_scheme schemes[] = {PEP, NPM, MVN, GEN};
    char why[64];
    for (size_t s = 0; s < 4; s++)
        for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++)
            for (size_t j = 0; j < sizeof junk / sizeof junk[0]; j++) {
                vmatch m = version_satisfies(schemes[s], junk[i], junk[j], why, sizeof why);
                assert_true(m == YES || m == NO || m == UNK);
                (void)version_compare(schemes[s], junk[i], junk[j], NULL);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pep440_specifiers),
        cmocka_unit_test(npm_ranges),
        cmocka_unit_test(maven_ranges),
        cmocka_unit_test(generic_specifiers),
        cmocka_unit_test(reasons),
        cmocka_unit_test(pep440_order),
        cmocka_unit_test(npm_order),
        cmocka_unit_test(maven_order),
        cmocka_unit_test(generic_order),
        cmocka_unit_test(compare_refuses_what_does_not_parse),
        cmocka_unit_test(requirements_split),
        cmocka_unit_test(split_then_match),
        cmocka_unit_test(long_and_deep_input),
        cmocka_unit_test(huge_numbers),
        cmocka_unit_test(arbitrary_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
