/*
 * version.h — version specifiers: whether a record's `versions[]` entry ("torch>=2.2.0,<2.5",
 * "@types/node@^20", "org.slf4j:slf4j-api[1.7,2.0)", "gcc>=12") applies to the version a user
 * has installed, under the rules of the package's own ecosystem.
 *
 * The answer is three-valued on purpose: when a version or a specifier cannot be read under the
 * scheme, or the scheme's rules cannot order the two, the answer is VMATCH_UNKNOWN and why says
 * what stood in the way — never a yes or no that might be wrong. The rules of each scheme, and
 * every choice where the specifications leave room, are described at the top of version.c.
 */
#ifndef ERRATA_VERSION_H
#define ERRATA_VERSION_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    VSCHEME_PEP440,  /* Python packages: PEP 440 versions and specifiers */
    VSCHEME_SEMVER,  /* npm packages: SemVer 2.0.0 versions, node-semver ranges */
    VSCHEME_MAVEN,   /* Java artifacts: ComparableVersion order, Maven version ranges */
    VSCHEME_GENERIC, /* OS and tool versions: dotted numbers (python, node, gcc, openssl, …) */
} version_scheme;

typedef enum { VMATCH_NO = 0, VMATCH_YES = 1, VMATCH_UNKNOWN = -1 } vmatch;

/* Splits a record's "package<specifier>" ("transformers>=4.38.0", "torch>=2.2.0,<2.5",
 * "node>=20", "@types/node@^20", "org.slf4j:slf4j-api[1.7,2.0)", "openssl>=3.0", "gcc") into a
 * malloc'd package and a malloc'd specifier, both trimmed; the specifier is "" when any version
 * applies. PEP 508 extras ("requests[socks]>=2.31") are dropped from the package, and a PEP 508
 * parenthesised specifier ("requests (>=2.31)") loses its parentheses. On a malformed text
 * returns false, sets both outputs to NULL and writes the reason into why. The specifier itself
 * is only checked by version_satisfies, which knows the scheme. */
bool version_requirement_split(const char *text, char **package, char **specifier, char *why,
                               size_t why_size);

/* Whether version satisfies specifier under scheme. An empty (or NULL, or all-blank) specifier
 * is satisfied by every version, even one the scheme cannot read. VMATCH_UNKNOWN when the
 * version or the specifier cannot be parsed under the scheme, or when the scheme cannot order
 * the two; why (which may be NULL) then says what. On VMATCH_NO why names the clause or range
 * that failed; on VMATCH_YES it is set to "". */
vmatch version_satisfies(version_scheme scheme, const char *version, const char *specifier,
                         char *why, size_t why_size);

/* The scheme's order: negative, zero or positive as a is before, equal to or after b. *ok (which
 * may be NULL) is set to false, and 0 returned, when either does not parse. For the generic
 * scheme, versions whose numbers are equal and whose suffixes cannot be ordered by the rules in
 * version.c are ordered by their suffix text, so that sorting is deterministic. */
int version_compare(version_scheme scheme, const char *a, const char *b, bool *ok);

/* "pep440", "semver", "maven", "generic" ("unknown" for a value outside the enum). */
const char *version_scheme_name(version_scheme s);

#endif
