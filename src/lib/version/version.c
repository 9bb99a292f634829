/*
 * version.c — whether an installed version satisfies a record's version specifier, under the
 * rules of four schemes; see version.h.
 *
 * Common rules
 *   An empty specifier applies to every version: the record named the package and no versions.
 *   Numbers are compared as digit strings (leading zeros dropped, then by length, then digit by
 *   digit), so a number of any length compares exactly and nothing overflows. Nothing is
 *   guessed: a version or specifier that does not parse under the scheme gives VMATCH_UNKNOWN.
 *   Parsing is iterative throughout, so no input, however long or deeply nested, grows the stack.
 *
 * PEP 440 (packaging.python.org, "Version specifiers")
 *   Versions: [N!]N(.N)*[{a|b|rc}N][.postN][.devN][+local] with the spec's normalisation: case
 *   ignored, a leading "v", the alpha/beta/c/pre/preview spellings, "-", "_", "." or no
 *   separator, implicit numbers (1.0a = 1.0a0), implicit post releases (1.0-1), rev and r for
 *   post, zero padding (1.0 == 1.0.0). Order: epoch, release, then .devN < aN < bN < rcN < final
 *   < .postN, and a local label after none (numeric segments after alphanumeric ones).
 *   Specifiers are comma-separated clauses that must all hold (empty clauses are ignored):
 *     ~=V     >= V, and the release without its last number matches as a prefix (V needs two
 *             numbers at least)
 *     ==V.*   prefix match on epoch and the zero-padded release; the candidate's local label is
 *             ignored; !=V.* is its negation
 *     ==V     equal with zero padding; the candidate's local label is ignored unless V has one,
 *             and then it must be equal too (segment by segment, numbers as numbers); != is the
 *             negation
 *     <=, >=  on the candidate's public version (its local label dropped)
 *     <V      and not a pre-release of V's release unless V is itself a pre-release (the
 *             exclusive ordered comparison rule: <2.0 excludes 2.0a1 and 2.0.dev1)
 *     >V      and not a post-release of V's release unless V is itself a post-release, and not
 *             a version with a local label on V's release (packaging's reading of "not a local
 *             version of V", which pip applies: 1.0+local is not >1.0 and not >1.0a1)
 *     ===V    case-insensitive string equality; the candidate need not be a PEP 440 version
 *   A local label is accepted in == and != clauses only, .* in == and != only (as the spec says).
 *   Choice: the spec excludes pre-releases "unless they are already present on the system";
 *   an installed version is present, so pre-releases are accepted by every clause except where
 *   the exclusive ordered comparison rule above excludes them: torch>=2.2 applies to 2.6.0a1.
 *
 * npm (node-semver README, "Ranges"; SemVer 2.0.0 for versions and precedence)
 *   Versions: MAJOR.MINOR.PATCH[-pre][+build], numbers without leading zeros; a leading "v" or
 *   "=" and surrounding blanks are accepted, as node-semver's loose parsing accepts them.
 *   Ranges: sets joined by "||" (any set), comparators in a set separated by blanks (all of
 *   them); <, <=, >, >=, =, bare versions; x-ranges (1.x, 1.2.*, *, partial 1 and 1.2); tilde
 *   (~ and ~>); caret (^); hyphen ranges "A - B"; a blank may follow an operator. Each form is
 *   desugared exactly as node-semver desugars it (^1.2.3 is >=1.2.3 <2.0.0-0, <=1.2 is
 *   <1.3.0-0, >1 is >=2.0.0, <* matches nothing). A version with a pre-release satisfies a set
 *   only if some comparator of that set carries a pre-release on the same MAJOR.MINOR.PATCH
 *   (includePrerelease off). Build metadata is ignored. Pre-release identifiers compare
 *   numerically when numeric, numeric before alphanumeric, alphanumeric in ASCII order, and a
 *   longer list after its own prefix.
 *   Choice: the empty specifier means "any version" (the record format's rule) and so matches
 *   pre-releases too, while "*" is node-semver's and does not.
 *
 * Maven (maven-artifact 3.8: ComparableVersion and VersionRange; pom.html, "Version Order
 * Specification")
 *   Order: ComparableVersion's as of Maven 3.8 (the order changed in details between 3.0, 3.8
 *   and 3.9; 3.8's is the one its own test suite pins down). Tokens split at ".", "-" and
 *   digit/letter transitions; "-" and transitions open a sub-list; empty tokens are 0; trailing
 *   null tokens (0, "", ga, final, release) are trimmed list by list from the end; alpha = a <
 *   beta = b < milestone = m < rc = cr < snapshot < "" = ga = final = release < sp < any other
 *   qualifier (lexically, case-insensitive), where a, b and m are short forms only when a digit
 *   follows; a number is after a qualifier and after a sub-list (1.foo < 1-foo < 1-1 < 1.1); a
 *   sub-list against padding is decided by its first non-null token (1-0.alpha < 1). "_" is an
 *   ordinary character, as in ComparableVersion. Any text is a version except one that is
 *   empty or holds blanks, control characters or the range characters "[](),".
 *   Ranges: [a,b] (a,b) [a,b) (a,b] with either bound left out, [v] exact, and unions such as
 *   "(,1.0],[1.2,)"; refused as VersionRange refuses them: (v) or [v) single versions,
 *   identical bounds, bounds out of order, overlapping ranges, an unclosed range, a bare version
 *   after ranges.
 *   Choice: a plain version ("1.0"), a soft requirement to Maven's resolver, means that exact
 *   version here (by ComparableVersion equality, so 1.0 == 1 == 1.0.0-ga): a record that names
 *   one version saw the error on that version, not on every version.
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
#include "version.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ text */

/* A piece of a caller's string: nothing is copied, nothing is NUL-terminated. p is never NULL,
 * so the mem* functions can be given it even when n is 0. */
typedef struct {
    const char *p;
    size_t n;
} span;

static const span EMPTY = {"", 0};

/* ASCII classes of our own: <ctype.h> would make version syntax depend on the locale. */
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static bool is_control(char c) { return (unsigned char)c < 0x20 || c == 0x7f; }
static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

static span span_of(const char *s) { return s ? (span){s, strlen(s)} : EMPTY; }

static span sub(span s, size_t from, size_t to) { return (span){s.p + from, to - from}; }

static span trim(span s)
{
    while (s.n && is_blank(s.p[0]))
        s.p++, s.n--;
    while (s.n && is_blank(s.p[s.n - 1]))
        s.n--;
    return s;
}

static bool has_blank(span s)
{
    for (size_t i = 0; i < s.n; i++)
        if (is_blank(s.p[i]))
            return true;
    return false;
}

static bool all_digits(span s)
{
    for (size_t i = 0; i < s.n; i++)
        if (!is_digit(s.p[i]))
            return false;
    return s.n > 0;
}

static int sign(int x) { return (x > 0) - (x < 0); }

/* Byte order, a shorter text before the longer one it starts. */
static int bytes_cmp(span a, span b)
{
    size_t n = a.n < b.n ? a.n : b.n;
    int c = n ? memcmp(a.p, b.p, n) : 0;
    return c ? sign(c) : (a.n > b.n) - (a.n < b.n);
}

/* The same, ignoring ASCII case. */
static int ci_cmp(span a, span b)
{
    size_t n = a.n < b.n ? a.n : b.n;
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)lower(a.p[i]), y = (unsigned char)lower(b.p[i]);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return (a.n > b.n) - (a.n < b.n);
}

static bool ci_eq(span a, const char *word) { return ci_cmp(a, span_of(word)) == 0; }

/* Where needle first occurs in s, or s.n. */
static size_t find(span s, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= s.n; i++)
        if (memcmp(s.p + i, needle, k) == 0)
            return i;
    return s.n;
}

/* Whether s continues at *i with word, ignoring case; if so, moves *i past it. */
static bool take_word(span s, size_t *i, const char *word)
{
    size_t k = strlen(word);
    if (s.n - *i < k || ci_cmp(sub(s, *i, *i + k), (span){word, k}) != 0)
        return false;
    *i += k;
    return true;
}

static span take_digits(span s, size_t *i)
{
    size_t start = *i;
    while (*i < s.n && is_digit(s.p[*i]))
        (*i)++;
    return sub(s, start, *i);
}

/* Takes the next field of *rest up to one of the separator characters seps; false once rest is
 * used up. A text ending in a separator ends with that separator: no empty last field. */
static bool next_field(span *rest, const char *seps, span *field)
{
    if (!rest->n)
        return false;
    size_t k = 0;
    while (k < rest->n && !(rest->p[k] && strchr(seps, rest->p[k])))
        k++;
    *field = sub(*rest, 0, k);
    size_t skip = k < rest->n ? k + 1 : k;
    rest->p += skip;
    rest->n -= skip;
    return true;
}

/* Writes a reason into why, which may be NULL. */
__attribute__((format(printf, 3, 4))) static void say(char *why, size_t size, const char *fmt, ...)
{
    if (!why || !size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
}

/* How much of an input to quote in a reason: enough to recognise it, never a whole log. */
#define QUOTE_MAX 60
static int shown(span s) { return s.n > QUOTE_MAX ? QUOTE_MAX : (int)s.n; }

/* ------------------------------------------------------------------ numbers */

/* A decimal number as its digits without leading zeros; no digits at all is zero. */
static span num_trim(span d)
{
    while (d.n && d.p[0] == '0')
        d.p++, d.n--;
    return d;
}

static int num_cmp(span a, span b)
{
    a = num_trim(a), b = num_trim(b);
    if (a.n != b.n)
        return a.n < b.n ? -1 : 1;
    return a.n ? sign(memcmp(a.p, b.p, a.n)) : 0;
}

/* Dotted releases ("1.2.3"), padded with zeros: 1.0 == 1.0.0. */
static int release_cmp(span a, span b)
{
    span x, y;
    for (;;) {
        bool hx = next_field(&a, ".", &x), hy = next_field(&b, ".", &y);
        if (!hx && !hy)
            return 0;
        int c = num_cmp(hx ? x : EMPTY, hy ? y : EMPTY);
        if (c)
            return c;
    }
}

/* Whether the first count numbers of release r (zero padded) are those of prefix. */
static bool release_prefix_eq(span r, span prefix, size_t count)
{
    span x, y;
    for (size_t k = 0; k < count; k++) {
        bool hx = next_field(&r, ".", &x), hy = next_field(&prefix, ".", &y);
        if (num_cmp(hx ? x : EMPTY, hy ? y : EMPTY) != 0)
            return false;
    }
    return true;
}

/* Takes a dotted release at *i: digits, then ".digits" as long as they go on. */
static bool take_release(span s, size_t *i, span *release, size_t *count)
{
    size_t start = *i;
    if (!take_digits(s, i).n)
        return false;
    *count = 1;
    while (*i + 1 < s.n && s.p[*i] == '.' && is_digit(s.p[*i + 1])) {
        (*i)++;
        take_digits(s, i);
        (*count)++;
    }
    *release = sub(s, start, *i);
    return true;
}

/* ------------------------------------------------------------------ comparison clauses */

/* The clause operators of PEP 440, shared by the generic scheme. */
typedef enum {
    OP_NONE, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_COMPAT, OP_ARBITRARY
} clause_op;

/* Takes the operator at the start of *s. single_eq admits "=" for "==" (the generic scheme). */
static clause_op take_op(span *s, bool single_eq)
{
    static const struct {
        const char *text;
        clause_op op;
    } ops[] = {{"===", OP_ARBITRARY}, {"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE},
               {">=", OP_GE},        {"~=", OP_COMPAT}, {"<", OP_LT}, {">", OP_GT}};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        size_t i = 0;
        if (take_word(*s, &i, ops[k].text)) {
            *s = sub(*s, i, s->n);
            return ops[k].op;
        }
    }
    if (single_eq && s->n && s->p[0] == '=') {
        *s = sub(*s, 1, s->n);
        return OP_EQ;
    }
    return OP_NONE;
}

/* The possible orders of a version against a specifier's, as a set: one bit when the order is
 * known, several when the scheme can only narrow it down. */
enum { ORD_LT = 1, ORD_EQ = 2, ORD_GT = 4 };

/* Whether an order set satisfies an ordering operator: yes when every possible order does, no
 * when none does, unknown otherwise. */
static vmatch order_satisfies(clause_op op, unsigned possible)
{
    unsigned accepted = op == OP_LT ? ORD_LT
                        : op == OP_LE ? ORD_LT | ORD_EQ
                        : op == OP_GT ? ORD_GT
                        : op == OP_GE ? ORD_GT | ORD_EQ
                        : op == OP_EQ ? ORD_EQ
                                      : ORD_LT | ORD_GT; /* OP_NE */
    if (!(possible & ~accepted))
        return VMATCH_YES;
    if (!(possible & accepted))
        return VMATCH_NO;
    return VMATCH_UNKNOWN;
}

static unsigned order_of(int c) { return c < 0 ? ORD_LT : c > 0 ? ORD_GT : ORD_EQ; }

/* ------------------------------------------------------------------ PEP 440 */

enum { PRE_A, PRE_B, PRE_RC, PRE_NONE };

typedef struct {
    span epoch;       /* digits; empty is epoch 0 */
    span release;     /* "1.2.3" as written */
    size_t n_release; /* how many numbers it has */
    int pre;          /* PRE_A, PRE_B, PRE_RC or PRE_NONE */
    span pre_n, post_n, dev_n; /* digits; empty is 0 (1.0a == 1.0a0) */
    bool post, dev;
    span local;    /* the label after '+'; empty when there is none */
    bool wildcard; /* a specifier's version ended in ".*" */
} pep_version;

static bool take_pep_sep(span s, size_t *i)
{
    if (*i < s.n && (s.p[*i] == '-' || s.p[*i] == '_' || s.p[*i] == '.')) {
        (*i)++;
        return true;
    }
    return false;
}

/* Longer spellings first, so that "preview" is not read as "pre" followed by "view". */
static int take_pre_label(span s, size_t *i)
{
    static const struct {
        const char *word;
        int kind;
    } labels[] = {{"preview", PRE_RC}, {"alpha", PRE_A}, {"beta", PRE_B}, {"pre", PRE_RC},
                  {"rc", PRE_RC},      {"a", PRE_A},     {"b", PRE_B},    {"c", PRE_RC}};
    for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++)
        if (take_word(s, i, labels[k].word))
            return labels[k].kind;
    return PRE_NONE;
}

/* The local label: alphanumeric segments joined by single '.', '-' or '_'. */
static bool take_local(span s, size_t *i, span *local)
{
    size_t start = *i;
    for (;;) {
        size_t seg = *i;
        while (*i < s.n && is_alnum(s.p[*i]))
            (*i)++;
        if (*i == seg)
            return false;
        if (take_pep_sep(s, i))
            continue;
        break;
    }
    *local = sub(s, start, *i);
    return true;
}

/* Each optional part is tried where it may stand and given back if it does not fit; a
 * separator after a label with no number stays taken, as in the spec's regular expression. */
static void take_pep_suffixes(span s, size_t *i, pep_version *v)
{
    size_t mark = *i;
    take_pep_sep(s, i);
    if ((v->pre = take_pre_label(s, i)) != PRE_NONE) {
        take_pep_sep(s, i);
        v->pre_n = take_digits(s, i);
    } else {
        *i = mark;
    }
    mark = *i;
    if (*i + 1 < s.n && s.p[*i] == '-' && is_digit(s.p[*i + 1])) { /* implicit post: 1.0-1 */
        (*i)++;
        v->post = true;
        v->post_n = take_digits(s, i);
    } else {
        take_pep_sep(s, i);
        if (take_word(s, i, "post") || take_word(s, i, "rev") || take_word(s, i, "r")) {
            v->post = true;
            take_pep_sep(s, i);
            v->post_n = take_digits(s, i);
        } else {
            *i = mark;
        }
    }
    mark = *i;
    take_pep_sep(s, i);
    if (take_word(s, i, "dev")) {
        v->dev = true;
        take_pep_sep(s, i);
        v->dev_n = take_digits(s, i);
    } else {
        *i = mark;
    }
}

static bool pep_parse(span text, bool wildcard_ok, pep_version *v, char *why, size_t why_size)
{
    span s = trim(text);
    *v = (pep_version){.epoch = EMPTY, .release = EMPTY, .pre = PRE_NONE, .pre_n = EMPTY,
                       .post_n = EMPTY, .dev_n = EMPTY, .local = EMPTY};
    size_t i = 0;
    if (s.n && lower(s.p[0]) == 'v')
        i++;
    size_t mark = i;
    span epoch = take_digits(s, &i);
    if (epoch.n && i < s.n && s.p[i] == '!')
        v->epoch = epoch, i++;
    else
        i = mark;
    if (!take_release(s, &i, &v->release, &v->n_release)) {
        say(why, why_size, "'%.*s' is not a PEP 440 version: it does not start with a number",
            shown(s), s.p);
        return false;
    }
    if (wildcard_ok && s.n - i == 2 && s.p[i] == '.' && s.p[i + 1] == '*') {
        v->wildcard = true;
        return true;
    }
    take_pep_suffixes(s, &i, v);
    if (i < s.n && s.p[i] == '+') {
        i++;
        if (!take_local(s, &i, &v->local)) {
            say(why, why_size, "'%.*s' is not a PEP 440 version: malformed local label",
                shown(s), s.p);
            return false;
        }
    }
    if (i != s.n) {
        span rest = sub(s, i, s.n);
        say(why, why_size, "'%.*s' is not a PEP 440 version: unexpected '%.*s'", shown(s), s.p,
            shown(rest), rest.p);
        return false;
    }
    return true;
}

/* Local labels, segment by segment ("ubuntu-1.2": "ubuntu", "1", "2"): numbers numerically and
 * after words, words ignoring case; no label, or fewer segments, first. */
static int local_cmp(span a, span b)
{
    span x = {0}, y = {0};
    for (;;) {
        bool hx = next_field(&a, "-_.", &x), hy = next_field(&b, "-_.", &y);
        if (!hx || !hy)
            return (int)hx - (int)hy;
        bool nx = all_digits(x), ny = all_digits(y);
        int c = nx && ny ? num_cmp(x, y) : nx != ny ? (nx ? 1 : -1) : ci_cmp(x, y);
        if (c)
            return c;
    }
}

/* The pre-release part of the sort key: a .devN of a final release comes before its a0, a
 * version without pre-release after all of its pre-releases. */
static int pep_pre_rank(const pep_version *v)
{
    if (v->pre != PRE_NONE)
        return v->pre;
    return v->dev && !v->post ? -1 : PRE_NONE;
}

static int pep_cmp(const pep_version *a, const pep_version *b, bool with_local)
{
    int c = num_cmp(a->epoch, b->epoch);
    if (!c)
        c = release_cmp(a->release, b->release);
    if (!c) {
        int ra = pep_pre_rank(a), rb = pep_pre_rank(b);
        c = (ra > rb) - (ra < rb);
        if (!c && a->pre != PRE_NONE)
            c = num_cmp(a->pre_n, b->pre_n);
    }
    if (!c)
        c = a->post != b->post ? (a->post ? 1 : -1) : num_cmp(a->post_n, b->post_n);
    if (!c)
        c = a->dev != b->dev ? (a->dev ? -1 : 1) : num_cmp(a->dev_n, b->dev_n);
    if (!c && with_local)
        c = local_cmp(a->local, b->local);
    return c;
}

static bool pep_is_pre(const pep_version *v) { return v->pre != PRE_NONE || v->dev; }

/* Whether v's epoch and the first count numbers of its release are those of s. */
static bool pep_prefix(const pep_version *v, const pep_version *s, size_t count)
{
    return num_cmp(v->epoch, s->epoch) == 0 && release_prefix_eq(v->release, s->release, count);
}

static bool pep_same_release(const pep_version *v, const pep_version *s)
{
    return num_cmp(v->epoch, s->epoch) == 0 && release_cmp(v->release, s->release) == 0;
}

static bool pep_eq(const pep_version *v, const pep_version *s)
{
    if (s->wildcard)
        return pep_prefix(v, s, s->n_release);
    return pep_cmp(v, s, s->local.n > 0) == 0;
}

static bool pep_holds(clause_op op, const pep_version *v, const pep_version *s)
{
    int c = pep_cmp(v, s, false);
    switch (op) {
    case OP_EQ:
        return pep_eq(v, s);
    case OP_NE:
        return !pep_eq(v, s);
    case OP_LE:
        return c <= 0;
    case OP_GE:
        return c >= 0;
    case OP_LT:
        return c < 0 && !(pep_is_pre(v) && !pep_is_pre(s) && pep_same_release(v, s));
    case OP_GT:
        return c > 0 && !(v->post && !s->post && pep_same_release(v, s)) &&
               !(v->local.n && pep_same_release(v, s));
    case OP_COMPAT:
        return c >= 0 && pep_prefix(v, s, s->n_release - 1);
    default:
        return false;
    }
}

static bool pep_check(clause_op op, const pep_version *s, char *why, size_t why_size)
{
    if (s->local.n && op != OP_EQ && op != OP_NE) {
        say(why, why_size, "a local version label is only allowed with == and !=");
        return false;
    }
    if (op == OP_COMPAT && s->n_release < 2) {
        say(why, why_size, "~= needs a release of two numbers at least (~=2.2, not ~=2)");
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------ generic */

typedef enum { SUFFIX_NONE, SUFFIX_PACKAGING, SUFFIX_PRE, SUFFIX_OTHER } suffix_kind;

typedef struct {
    span release;
    size_t n_release;
    suffix_kind kind;
    span suffix; /* what follows the numbers */
    bool wildcard;
} gen_version;

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

/* ------------------------------------------------------------------ comma-joined clauses */

typedef union {
    pep_version pep;
    gen_version gen;
} any_version;

/* What the clause driver needs from PEP 440 and from the generic scheme. */
typedef struct {
    const char *name;
    bool single_eq;
    bool (*parse)(span text, bool wildcard_ok, any_version *out, char *why, size_t why_size);
    bool (*check)(clause_op op, const any_version *spec, char *why, size_t why_size);
    vmatch (*holds)(clause_op op, const any_version *version, const any_version *spec);
} clause_rules;

static bool pep_parse_any(span t, bool w, any_version *o, char *why, size_t n)
{
    return pep_parse(t, w, &o->pep, why, n);
}
static bool pep_check_any(clause_op op, const any_version *s, char *why, size_t n)
{
    return pep_check(op, &s->pep, why, n);
}
static vmatch pep_holds_any(clause_op op, const any_version *v, const any_version *s)
{
    return pep_holds(op, &v->pep, &s->pep) ? VMATCH_YES : VMATCH_NO;
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

static const clause_rules PEP440_RULES = {"PEP 440", false, pep_parse_any, pep_check_any,
                                          pep_holds_any};
static const clause_rules GENERIC_RULES = {"generic", true, gen_parse_any, gen_check_any,
                                           gen_holds_any};

/* Reads one clause into its operator and its version; false (with why) when malformed. */
static bool parse_clause(const clause_rules *rules, span clause, clause_op *op, span *operand,
                         any_version *spec, char *why, size_t why_size)
{
    char detail[160] = "";
    bool ok = false;
    *operand = clause;
    *op = take_op(operand, rules->single_eq);
    *operand = trim(*operand);
    if (*op == OP_NONE)
        snprintf(detail, sizeof detail, "no comparison operator (==, !=, <, <=, >, >=, ~=)");
    else if (!operand->n || has_blank(*operand))
        snprintf(detail, sizeof detail, "one version must follow the operator");
    else /* === compares text, so its operand needs no parsing */
        ok = *op == OP_ARBITRARY ||
             (rules->parse(*operand, *op == OP_EQ || *op == OP_NE, spec, detail, sizeof detail) &&
              rules->check(*op, spec, detail, sizeof detail));
    if (!ok)
        say(why, why_size, "%s specifier clause '%.*s': %s", rules->name, shown(clause),
            clause.p, detail);
    return ok;
}

/* All clauses must hold. A malformed clause makes the whole specifier unknown, whatever the
 * others say; otherwise one clause that does not hold is a no, even beside unknown ones. */
static vmatch clauses_satisfied(const clause_rules *rules, span version, span spec, char *why,
                                size_t why_size)
{
    any_version v, s;
    char vwhy[200] = "", reason[300] = "";
    bool v_ok = rules->parse(version, false, &v, vwhy, sizeof vwhy);
    vmatch all = VMATCH_YES;
    span rest = spec, clause, operand;
    while (next_field(&rest, ",", &clause)) {
        clause = trim(clause);
        if (!clause.n)
            continue;
        clause_op op;
        if (!parse_clause(rules, clause, &op, &operand, &s, why, why_size))
            return VMATCH_UNKNOWN;
        vmatch r;
        if (op == OP_ARBITRARY)
            r = ci_cmp(version, operand) == 0 ? VMATCH_YES : VMATCH_NO;
        else
            r = v_ok ? rules->holds(op, &v, &s) : VMATCH_UNKNOWN;
        if (r == VMATCH_NO && all != VMATCH_NO) {
            all = VMATCH_NO;
            snprintf(reason, sizeof reason, "'%.*s' does not satisfy '%.*s'", shown(version),
                     version.p, shown(clause), clause.p);
        } else if (r == VMATCH_UNKNOWN && all == VMATCH_YES) {
            all = VMATCH_UNKNOWN;
            if (!v_ok)
                snprintf(reason, sizeof reason, "%s", vwhy);
            else
                snprintf(reason, sizeof reason,
                         "cannot tell whether '%.*s' satisfies '%.*s': the numbers are equal and "
                         "the %s scheme cannot order the suffixes",
                         shown(version), version.p, shown(clause), clause.p, rules->name);
        }
    }
    say(why, why_size, "%s", reason);
    return all;
}

/* ------------------------------------------------------------------ npm (node-semver) */

/* A SemVer number, possibly one more than its digits say: node-semver's ranges bump a part
 * (^1.2.3 is <2.0.0-0), and bumping digit by digit keeps numbers of any length exact. */
typedef struct {
    span d;     /* digits without leading zeros; empty is 0 */
    bool bump;  /* the value is d + 1 */
    bool grows; /* d is all nines, so d + 1 has one digit more */
    size_t k;   /* otherwise the last digit that is not a nine: the one that goes up */
} snum;

static snum snum_of(span digits) { return (snum){num_trim(digits), false, false, 0}; }

static snum snum_plus_one(snum x)
{
    snum r = {x.d, true, true, 0};
    for (size_t i = x.d.n; i-- > 0;)
        if (x.d.p[i] != '9') {
            r.grows = false, r.k = i;
            break;
        }
    return r;
}

static size_t snum_len(const snum *x) { return x->d.n + (x->bump && x->grows); }

static char snum_digit(const snum *x, size_t i)
{
    if (!x->bump)
        return x->d.p[i];
    if (x->grows)
        return i == 0 ? '1' : '0';
    return i < x->k ? x->d.p[i] : i == x->k ? (char)(x->d.p[i] + 1) : '0';
}

static int snum_cmp(const snum *a, const snum *b)
{
    size_t la = snum_len(a), lb = snum_len(b);
    if (la != lb)
        return la < lb ? -1 : 1;
    for (size_t i = 0; i < la; i++) {
        char x = snum_digit(a, i), y = snum_digit(b, i);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

static bool snum_is_zero(const snum *x) { return !x->bump && !x->d.n; }

typedef struct {
    snum n[3]; /* major, minor, patch */
    span pre;  /* dot-separated identifiers; empty when there is no pre-release */
} sv_version;

/* A version or partial version in a range: "1", "1.2", "1.x", "1.2.3-beta.1", "*". */
typedef struct {
    snum n[3];
    bool x[3]; /* the part is a wildcard or left out (then it and the parts after it are 0) */
    span pre;
} sv_partial;

static const span PRE_ZERO = {"0", 1}; /* the lowest pre-release: 2.0.0-0 */

/* A SemVer numeric identifier: 0, or digits that do not start with 0. */
static bool sv_take_number(span s, size_t *i, span *out)
{
    size_t start = *i;
    span d = take_digits(s, i);
    if (!d.n || (d.n > 1 && d.p[0] == '0')) {
        *i = start;
        return false;
    }
    *out = d;
    return true;
}

/* Dot-separated identifiers of [0-9A-Za-z-]; in a pre-release, numeric ones have no leading 0. */
static bool sv_take_idents(span s, size_t *i, bool pre, span *out)
{
    size_t start = *i;
    for (;;) {
        size_t id = *i;
        while (*i < s.n && (is_alnum(s.p[*i]) || s.p[*i] == '-'))
            (*i)++;
        span one = sub(s, id, *i);
        if (!one.n || (pre && all_digits(one) && one.n > 1 && one.p[0] == '0'))
            return false;
        if (*i + 1 < s.n && s.p[*i] == '.') {
            (*i)++;
            continue;
        }
        break;
    }
    *out = sub(s, start, *i);
    return true;
}

static bool sv_partial_parse(span w, sv_partial *p, char *why, size_t why_size)
{
    *p = (sv_partial){.pre = EMPTY};
    size_t i = 0, k = 0;
    bool ok = true;
    while (i < w.n && (w.p[i] == 'v' || w.p[i] == 'V' || w.p[i] == '='))
        i++;
    for (int j = 0; j < 3; j++)
        p->n[j] = snum_of(EMPTY), p->x[j] = true;
    for (;;) { /* each part present is a number or a wildcard: "1." is not a partial */
        span d;
        if (i < w.n && (w.p[i] == 'x' || w.p[i] == 'X' || w.p[i] == '*'))
            i++;
        else if (sv_take_number(w, &i, &d))
            p->n[k] = snum_of(d), p->x[k] = false;
        else
            ok = false;
        if (!ok || k == 2 || i >= w.n || w.p[i] != '.')
            break;
        i++, k++;
    }
    if (ok && k == 2 && i < w.n && w.p[i] == '-') {
        i++;
        ok = sv_take_idents(w, &i, true, &p->pre);
    }
    span build;
    if (ok && k == 2 && i < w.n && w.p[i] == '+') {
        i++;
        ok = sv_take_idents(w, &i, false, &build);
    }
    if (!ok || i != w.n) {
        say(why, why_size, "'%.*s' is not a SemVer version or range part", shown(w), w.p);
        return false;
    }
    for (int j = 0; j < 3; j++) {
        if (j > 0 && p->x[j - 1])
            p->x[j] = true; /* 1.x.3 is 1.x.x */
        if (p->x[j])
            p->n[j] = snum_of(EMPTY), p->pre = EMPTY;
    }
    return true;
}

static bool sv_version_parse(span text, sv_version *v, char *why, size_t why_size)
{
    span s = trim(text);
    sv_partial p;
    if (!sv_partial_parse(s, &p, why, why_size) || p.x[2]) {
        say(why, why_size, "'%.*s' is not a SemVer version (MAJOR.MINOR.PATCH[-pre][+build])",
            shown(s), s.p);
        return false;
    }
    *v = (sv_version){{p.n[0], p.n[1], p.n[2]}, p.pre};
    return true;
}

static int sv_pre_cmp(span a, span b)
{
    span x = {0}, y = {0};
    for (;;) {
        bool hx = next_field(&a, ".", &x), hy = next_field(&b, ".", &y);
        if (!hx || !hy)
            return (int)hx - (int)hy;
        bool nx = all_digits(x), ny = all_digits(y);
        int c = nx && ny ? num_cmp(x, y) : nx != ny ? (nx ? -1 : 1) : bytes_cmp(x, y);
        if (c)
            return c;
    }
}

/* SemVer precedence; build metadata never reaches here. */
static int sv_cmp(const sv_version *a, const sv_version *b)
{
    for (int k = 0; k < 3; k++) {
        int c = snum_cmp(&a->n[k], &b->n[k]);
        if (c)
            return c;
    }
    if (!a->pre.n || !b->pre.n)
        return (int)(a->pre.n == 0) - (int)(b->pre.n == 0);
    return sv_pre_cmp(a->pre, b->pre);
}

typedef enum { SV_LT, SV_LE, SV_GT, SV_GE, SV_EQ } sv_op;

typedef struct {
    sv_op op;
    sv_version v;
} sv_comparator;

static sv_comparator sv_make(sv_op op, snum major, snum minor, snum patch, span pre)
{
    return (sv_comparator){op, {{major, minor, patch}, pre}};
}

static bool sv_test(const sv_comparator *c, const sv_version *v)
{
    int r = sv_cmp(v, &c->v);
    switch (c->op) {
    case SV_LT:
        return r < 0;
    case SV_LE:
        return r <= 0;
    case SV_GT:
        return r > 0;
    case SV_GE:
        return r >= 0;
    case SV_EQ:
        return r == 0;
    }
    return false;
}

/* The operators a range comparator may start with. */
typedef enum { RG_EQ, RG_LT, RG_LE, RG_GT, RG_GE, RG_TILDE, RG_CARET } range_op;

static range_op take_range_op(span s, size_t *i)
{
    static const struct {
        const char *text;
        range_op op;
    } ops[] = {{"<=", RG_LE}, {">=", RG_GE}, {"~>", RG_TILDE}, {"<", RG_LT},
               {">", RG_GT},  {"=", RG_EQ},  {"~", RG_TILDE},  {"^", RG_CARET}};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (take_word(s, i, ops[k].text))
            return ops[k].op;
    return RG_EQ;
}

/* node-semver's replaceTilde: ~1.2.3 := >=1.2.3 <1.3.0-0, ~1 := >=1.0.0 <2.0.0-0. */
static size_t sv_tilde(const sv_partial *p, sv_comparator out[2])
{
    snum z = snum_of(EMPTY);
    if (p->x[0])
        return 0;
    out[0] = sv_make(SV_GE, p->n[0], p->n[1], p->n[2], p->pre);
    out[1] = p->x[1] ? sv_make(SV_LT, snum_plus_one(p->n[0]), z, z, PRE_ZERO)
                     : sv_make(SV_LT, p->n[0], snum_plus_one(p->n[1]), z, PRE_ZERO);
    return 2;
}

/* node-semver's replaceCaret: the first non-zero part may not change. */
static size_t sv_caret(const sv_partial *p, sv_comparator out[2])
{
    snum z = snum_of(EMPTY);
    if (p->x[0])
        return 0;
    out[0] = sv_make(SV_GE, p->n[0], p->n[1], p->n[2], p->pre);
    if (p->x[1] || !snum_is_zero(&p->n[0]))
        out[1] = sv_make(SV_LT, snum_plus_one(p->n[0]), z, z, PRE_ZERO);
    else if (p->x[2] || !snum_is_zero(&p->n[1]))
        out[1] = sv_make(SV_LT, p->n[0], snum_plus_one(p->n[1]), z, PRE_ZERO);
    else
        out[1] = sv_make(SV_LT, p->n[0], p->n[1], snum_plus_one(p->n[2]), PRE_ZERO);
    return 2;
}

/* The exclusive upper bound of an x-range: 1.x is below 2.0.0-0, 1.2.x below 1.3.0-0. */
static sv_comparator sv_x_upper(const sv_partial *p)
{
    snum z = snum_of(EMPTY);
    return p->x[1] ? sv_make(SV_LT, snum_plus_one(p->n[0]), z, z, PRE_ZERO)
                   : sv_make(SV_LT, p->n[0], snum_plus_one(p->n[1]), z, PRE_ZERO);
}

/* node-semver's replaceXRange, and plain comparators when nothing is a wildcard. */
static size_t sv_xrange(range_op op, const sv_partial *p, sv_comparator out[2])
{
    snum z = snum_of(EMPTY);
    if (p->x[0]) {
        if (op == RG_LT || op == RG_GT) {
            out[0] = sv_make(SV_LT, z, z, z, PRE_ZERO); /* <* and >* match nothing */
            return 1;
        }
        return 0;
    }
    if (!p->x[2]) {
        static const sv_op plain[] = {[RG_EQ] = SV_EQ, [RG_LT] = SV_LT, [RG_LE] = SV_LE,
                                      [RG_GT] = SV_GT, [RG_GE] = SV_GE};
        out[0] = sv_make(plain[op], p->n[0], p->n[1], p->n[2], p->pre);
        return 1;
    }
    switch (op) {
    case RG_GT: { /* >1 := >=2.0.0, >1.2 := >=1.3.0 */
        sv_comparator up = sv_x_upper(p);
        out[0] = sv_make(SV_GE, up.v.n[0], up.v.n[1], up.v.n[2], EMPTY);
        return 1;
    }
    case RG_LE: /* <=1.2 := <1.3.0-0 */
        out[0] = sv_x_upper(p);
        return 1;
    case RG_LT: /* <1.2 := <1.2.0-0 */
        out[0] = sv_make(SV_LT, p->n[0], p->n[1], z, PRE_ZERO);
        return 1;
    case RG_GE:
        out[0] = sv_make(SV_GE, p->n[0], p->n[1], z, EMPTY);
        return 1;
    default: /* 1.x := >=1.0.0 <2.0.0-0 */
        out[0] = sv_make(SV_GE, p->n[0], p->n[1], z, EMPTY);
        out[1] = sv_x_upper(p);
        return 2;
    }
}

/* node-semver's hyphenReplace: 1.2 - 2.3 := >=1.2.0 <2.4.0-0. */
static size_t sv_hyphen(const sv_partial *from, const sv_partial *to, sv_comparator out[2])
{
    size_t n = 0;
    if (!from->x[0])
        out[n++] = sv_make(SV_GE, from->n[0], from->n[1], from->n[2], from->pre);
    if (!to->x[0])
        out[n++] = to->x[2] ? sv_x_upper(to)
                            : sv_make(SV_LE, to->n[0], to->n[1], to->n[2], to->pre);
    return n;
}

/* What a set has shown so far about the version. */
typedef struct {
    bool all;    /* every comparator holds */
    bool pre_ok; /* a comparator has a pre-release on the version's own MAJOR.MINOR.PATCH */
} sv_tally;

static void sv_apply(const sv_comparator *c, size_t n, const sv_version *v, sv_tally *t)
{
    for (size_t k = 0; k < n; k++) {
        if (!sv_test(&c[k], v))
            t->all = false;
        if (c[k].v.pre.n && snum_cmp(&c[k].v.n[0], &v->n[0]) == 0 &&
            snum_cmp(&c[k].v.n[1], &v->n[1]) == 0 && snum_cmp(&c[k].v.n[2], &v->n[2]) == 0)
            t->pre_ok = true;
    }
}

/* The next blank-separated word of *rest. */
static span take_token(span *rest)
{
    *rest = trim(*rest);
    size_t k = 0;
    while (k < rest->n && !is_blank(rest->p[k]))
        k++;
    span w = sub(*rest, 0, k);
    *rest = sub(*rest, k, rest->n);
    return w;
}

/* Whether the set is a hyphen range "A - B" (exactly three words, the middle one "-"). */
static bool sv_is_hyphen(span set, span *from, span *to)
{
    span rest = set, w[3];
    for (int k = 0; k < 3; k++)
        w[k] = take_token(&rest);
    *from = w[0], *to = w[2];
    return !trim(rest).n && w[2].n && w[1].n == 1 && w[1].p[0] == '-';
}

static bool sv_set_holds(span set, const sv_version *v, bool *holds, char *why, size_t why_size)
{
    sv_comparator c[2];
    sv_tally t = {true, false};
    span from, to;
    if (sv_is_hyphen(set, &from, &to)) {
        sv_partial a, b;
        if (!sv_partial_parse(from, &a, why, why_size) || !sv_partial_parse(to, &b, why, why_size))
            return false;
        sv_apply(c, sv_hyphen(&a, &b, c), v, &t);
    } else {
        span rest = trim(set);
        while (rest.n) {
            size_t i = 0;
            range_op op = take_range_op(rest, &i);
            rest = sub(rest, i, rest.n);
            span word = take_token(&rest);
            sv_partial p;
            if (!word.n) {
                say(why, why_size, "an operator in '%.*s' has no version after it", shown(set),
                    set.p);
                return false;
            }
            if (!sv_partial_parse(word, &p, why, why_size))
                return false;
            size_t n = op == RG_TILDE ? sv_tilde(&p, c)
                       : op == RG_CARET ? sv_caret(&p, c)
                                        : sv_xrange(op, &p, c);
            sv_apply(c, n, v, &t);
            rest = trim(rest);
        }
    }
    *holds = t.all && (!v->pre.n || t.pre_ok);
    return true;
}

static vmatch sv_satisfies(span version, span range, char *why, size_t why_size)
{
    sv_version v;
    if (!sv_version_parse(version, &v, why, why_size))
        return VMATCH_UNKNOWN;
    bool any = false;
    span rest = range;
    for (;;) {
        size_t bar = find(rest, "||");
        bool holds;
        if (!sv_set_holds(sub(rest, 0, bar), &v, &holds, why, why_size))
            return VMATCH_UNKNOWN;
        any = any || holds;
        if (bar == rest.n)
            break;
        rest = sub(rest, bar + 2, rest.n);
    }
    if (any)
        say(why, why_size, "%s", "");
    else
        say(why, why_size, "'%.*s' is outside '%.*s'", shown(version), version.p, shown(range),
            range.p);
    return any ? VMATCH_YES : VMATCH_NO;
}

/* ------------------------------------------------------------------ Maven */

/* Qualifier ranks in ComparableVersion's order; MQ_OTHER ones are then ordered by their text. */
enum { MQ_ALPHA, MQ_BETA, MQ_MILESTONE, MQ_RC, MQ_SNAPSHOT, MQ_RELEASE, MQ_SP, MQ_OTHER };

typedef struct {
    bool is_number;
    span text; /* a number's digits without leading zeros, or a qualifier as written */
    int rank;  /* a qualifier's MQ_* */
} mv_item;

/* ComparableVersion's nested lists form a chain: a sub-list is always the last element of its
 * list. So a version is a run of lists, each a run of items followed by the next list. */
typedef struct {
    size_t first, count; /* items[first .. first + count) */
} mv_list;

typedef struct {
    mv_item *items;
    size_t n_items;
    mv_list *lists;
    size_t n_lists; /* list k + 1 is the last element of list k */
} mv_version;

static mv_item mv_qualifier(span q, bool before_digit)
{
    static const struct {
        const char *word;
        int rank;
    } known[] = {{"alpha", MQ_ALPHA},       {"beta", MQ_BETA},   {"milestone", MQ_MILESTONE},
                 {"rc", MQ_RC},             {"cr", MQ_RC},       {"snapshot", MQ_SNAPSHOT},
                 {"ga", MQ_RELEASE},        {"final", MQ_RELEASE}, {"release", MQ_RELEASE},
                 {"sp", MQ_SP}};
    mv_item it = {false, q, MQ_OTHER};
    if (before_digit && q.n == 1) { /* 1a1 is 1-alpha-1, but 1a is 1-a */
        char c = lower(q.p[0]);
        if (c == 'a' || c == 'b' || c == 'm')
            it.rank = c == 'a' ? MQ_ALPHA : c == 'b' ? MQ_BETA : MQ_MILESTONE;
        if (it.rank != MQ_OTHER)
            return it;
    }
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (ci_eq(q, known[k].word))
            it.rank = known[k].rank;
    return it;
}

static mv_item mv_token(span s, bool digits)
{
    return digits ? (mv_item){true, num_trim(s), 0} : mv_qualifier(s, false);
}

static void mv_add(mv_version *v, mv_item it)
{
    v->items[v->n_items++] = it;
    v->lists[v->n_lists - 1].count++;
}

static void mv_open_list(mv_version *v) { v->lists[v->n_lists++] = (mv_list){v->n_items, 0}; }

static bool mv_item_is_null(const mv_item *it)
{
    return it->is_number ? it->text.n == 0 : it->rank == MQ_RELEASE;
}

/* ListItem.normalize, innermost list first: an empty last sub-list goes, then trailing null
 * items go until a non-null item (a non-empty sub-list is stepped over). */
static void mv_normalize(mv_version *v)
{
    for (size_t k = v->n_lists; k-- > 0;) {
        if (k + 2 == v->n_lists && v->lists[k + 1].count == 0)
            v->n_lists = k + 1;
        mv_list *l = &v->lists[k];
        while (l->count && mv_item_is_null(&v->items[l->first + l->count - 1]))
            l->count--;
    }
}

static void mv_free(mv_version *v)
{
    free(v->items);
    free(v->lists);
    *v = (mv_version){0};
}

/* ComparableVersion.parseVersion. Every character adds at most one item and one list, so
 * both arrays are sized once from the length. */
static bool mv_parse(span text, mv_version *v, char *why, size_t why_size)
{
    span s = trim(text);
    *v = (mv_version){0};
    for (size_t i = 0; i < s.n; i++)
        if (is_blank(s.p[i]) || is_control(s.p[i]) || strchr("[](),", s.p[i])) {
            say(why, why_size, "'%.*s' is not a Maven version: it holds '%c'", shown(s), s.p,
                is_control(s.p[i]) ? '?' : s.p[i]);
            return false;
        }
    if (!s.n) {
        say(why, why_size, "an empty Maven version");
        return false;
    }
    v->items = calloc(s.n + 1, sizeof *v->items);
    v->lists = calloc(s.n + 1, sizeof *v->lists);
    if (!v->items || !v->lists) {
        mv_free(v);
        say(why, why_size, "out of memory");
        return false;
    }
    mv_open_list(v);
    bool digit = false;
    size_t start = 0;
    for (size_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        if (c == '.' || c == '-') {
            mv_add(v, i == start ? mv_token(EMPTY, true) : mv_token(sub(s, start, i), digit));
            start = i + 1;
            if (c == '-')
                mv_open_list(v);
        } else if (is_digit(c)) {
            if (!digit && i > start) { /* qualifier then number: "alpha1" */
                mv_add(v, mv_qualifier(sub(s, start, i), true));
                start = i;
                mv_open_list(v);
            }
            digit = true;
        } else {
            if (digit && i > start) { /* number then qualifier: "1alpha" */
                mv_add(v, mv_token(sub(s, start, i), true));
                start = i;
                mv_open_list(v);
            }
            digit = false;
        }
    }
    if (s.n > start)
        mv_add(v, mv_token(sub(s, start, s.n), digit));
    mv_normalize(v);
    return true;
}

/* The element at position i of list k: an item, the next list, or nothing. */
typedef enum { MV_NOTHING, MV_ITEM, MV_LIST } mv_elem_kind;

static mv_elem_kind mv_elem(const mv_version *v, size_t k, size_t i, const mv_item **item)
{
    const mv_list *l = &v->lists[k];
    if (i < l->count) {
        *item = &v->items[l->first + i];
        return MV_ITEM;
    }
    return i == l->count && k + 1 < v->n_lists ? MV_LIST : MV_NOTHING;
}

/* An item against padding: 1.0 == 1, 1-rc < 1, 1-sp > 1. */
static int mv_item_vs_nothing(const mv_item *it)
{
    if (it->is_number)
        return it->text.n ? 1 : 0;
    return it->rank < MQ_RELEASE ? -1 : it->rank > MQ_RELEASE ? 1 : 0;
}

/* List k against padding: its first element that is not null decides, the sub-list included
 * (MNG-6964: 1-0.alpha < 1); looping down the chain instead of recursing. */
static int mv_list_vs_nothing(const mv_version *v, size_t k)
{
    for (; k < v->n_lists; k++) {
        const mv_list *l = &v->lists[k];
        for (size_t i = 0; i < l->count; i++) {
            int r = mv_item_vs_nothing(&v->items[l->first + i]);
            if (r)
                return r;
        }
    }
    return 0;
}

static int mv_item_cmp(const mv_item *a, const mv_item *b)
{
    if (a->is_number || b->is_number) /* a number is after a qualifier: 1.1 > 1-sp */
        return a->is_number && b->is_number ? num_cmp(a->text, b->text) : a->is_number ? 1 : -1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->rank == MQ_OTHER ? ci_cmp(a->text, b->text) : 0;
}

/* ListItem.compareTo. Two sub-lists only meet as the last elements of both lists, so comparing
 * them is the rest of the comparison: a loop instead of ComparableVersion's recursion. */
static int mv_cmp(const mv_version *a, const mv_version *b)
{
    size_t ka = 0, kb = 0, i = 0;
    for (;;) {
        const mv_item *x = NULL, *y = NULL;
        mv_elem_kind ea = mv_elem(a, ka, i, &x), eb = mv_elem(b, kb, i, &y);
        int r;
        if (ea == MV_NOTHING && eb == MV_NOTHING)
            return 0;
        if (ea == MV_LIST && eb == MV_LIST) {
            ka++, kb++, i = 0;
            continue;
        }
        if (ea == MV_NOTHING)
            r = -(eb == MV_ITEM ? mv_item_vs_nothing(y) : mv_list_vs_nothing(b, kb + 1));
        else if (eb == MV_NOTHING)
            r = ea == MV_ITEM ? mv_item_vs_nothing(x) : mv_list_vs_nothing(a, ka + 1);
        else if (ea == MV_ITEM && eb == MV_ITEM)
            r = mv_item_cmp(x, y);
        else if (ea == MV_LIST) /* 1-1 < 1.1, 1-1 > 1-sp */
            r = y->is_number ? -1 : 1;
        else
            r = x->is_number ? 1 : -1;
        if (r)
            return r;
        i++;
    }
}

/* One bound of a range; has is false for a side left open. */
typedef struct {
    bool has, inclusive;
    mv_version v;
} mv_bound;

/* VersionRange.parseRestriction on "[a,b)" and the like. */
static bool mv_restriction(span r, mv_bound *lo, mv_bound *hi, char *why, size_t why_size)
{
    *lo = (mv_bound){.inclusive = r.p[0] == '['};
    *hi = (mv_bound){.inclusive = r.p[r.n - 1] == ']'};
    span inner = trim(sub(r, 1, r.n - 1));
    const char *comma = memchr(inner.p, ',', inner.n);
    if (!comma) {
        if (!lo->inclusive || !hi->inclusive) {
            say(why, why_size, "Maven range '%.*s': a single version must be in [ ]", shown(r),
                r.p);
            return false;
        }
        lo->has = hi->has = true;
        return mv_parse(inner, &lo->v, why, why_size) && mv_parse(inner, &hi->v, why, why_size);
    }
    span low = trim(sub(inner, 0, (size_t)(comma - inner.p)));
    span high = trim(sub(inner, (size_t)(comma - inner.p) + 1, inner.n));
    if (bytes_cmp(low, high) == 0) {
        say(why, why_size, "Maven range '%.*s' has identical bounds", shown(r), r.p);
        return false;
    }
    if ((low.n && !(lo->has = mv_parse(low, &lo->v, why, why_size))) ||
        (high.n && !(hi->has = mv_parse(high, &hi->v, why, why_size))))
        return false;
    if (lo->has && hi->has && mv_cmp(&hi->v, &lo->v) < 0) {
        say(why, why_size, "Maven range '%.*s' has its bounds out of order", shown(r), r.p);
        return false;
    }
    return true;
}

static bool mv_contains(const mv_bound *lo, const mv_bound *hi, const mv_version *v)
{
    if (lo->has) {
        int c = mv_cmp(&lo->v, v);
        if (c > 0 || (c == 0 && !lo->inclusive))
            return false;
    }
    if (hi->has) {
        int c = mv_cmp(&hi->v, v);
        if (c < 0 || (c == 0 && !hi->inclusive))
            return false;
    }
    return true;
}

/* VersionRange.createFromVersionSpec's loop over "[1,2),[3,)": each range starts where the
 * previous one ended (no overlap), and nothing but ranges may follow. */
static vmatch mv_in_ranges(span spec, const mv_version *v, char *why, size_t why_size)
{
    mv_version prev_upper = {0}; /* the previous range's upper bound, if it had one */
    bool have_prev = false, inside = false, ok = true;
    span rest = spec;
    while (ok && rest.n && (rest.p[0] == '[' || rest.p[0] == '(')) {
        size_t close = 0;
        while (close < rest.n && rest.p[close] != ']' && rest.p[close] != ')')
            close++;
        if (close == rest.n) {
            say(why, why_size, "Maven range '%.*s' is not closed", shown(rest), rest.p);
            ok = false;
            break;
        }
        mv_bound lo, hi;
        ok = mv_restriction(sub(rest, 0, close + 1), &lo, &hi, why, why_size);
        if (ok && have_prev && (!lo.has || mv_cmp(&lo.v, &prev_upper) < 0)) {
            say(why, why_size, "Maven ranges '%.*s' overlap", shown(spec), spec.p);
            ok = false;
        }
        if (ok && mv_contains(&lo, &hi, v))
            inside = true;
        mv_free(&prev_upper);
        prev_upper = hi.v, have_prev = hi.has;
        hi.v = (mv_version){0};
        mv_free(&lo.v);
        rest = trim(sub(rest, close + 1, rest.n));
        if (rest.n && rest.p[0] == ',')
            rest = trim(sub(rest, 1, rest.n));
    }
    mv_free(&prev_upper);
    if (ok && rest.n) {
        say(why, why_size, "Maven specifier '%.*s': only ranges may follow a range", shown(spec),
            spec.p);
        ok = false;
    }
    if (!ok)
        return VMATCH_UNKNOWN;
    return inside ? VMATCH_YES : VMATCH_NO;
}

static vmatch mv_satisfies(span version, span spec, char *why, size_t why_size)
{
    mv_version v, exact;
    if (!mv_parse(version, &v, why, why_size))
        return VMATCH_UNKNOWN;
    vmatch r;
    if (spec.p[0] == '[' || spec.p[0] == '(') {
        r = mv_in_ranges(spec, &v, why, why_size);
    } else if (mv_parse(spec, &exact, why, why_size)) {
        r = mv_cmp(&v, &exact) == 0 ? VMATCH_YES : VMATCH_NO; /* the choice at the top */
        mv_free(&exact);
    } else {
        r = VMATCH_UNKNOWN;
    }
    mv_free(&v);
    if (r == VMATCH_YES)
        say(why, why_size, "%s", "");
    else if (r == VMATCH_NO)
        say(why, why_size, "'%.*s' is outside '%.*s'", shown(version), version.p, shown(spec),
            spec.p);
    return r;
}

/* ------------------------------------------------------------------ requirements */

static bool is_name_char(char c)
{
    return is_alnum(c) || c == '.' || c == '_' || c == '-' || c == '+' || c == ':' || c == '/';
}

/* A package name: "torch", "g++", "org.slf4j:slf4j-api", "@types/node". */
static bool name_ok(span name, char *why, size_t why_size)
{
    size_t i = name.n && name.p[0] == '@' ? 1 : 0;
    if (i == name.n || !is_alnum(name.p[i])) {
        say(why, why_size, "'%.*s' is not a package name", shown(name), name.p);
        return false;
    }
    for (; i < name.n; i++)
        if (!is_name_char(name.p[i])) {
            say(why, why_size, "'%.*s' is not a package name ('%c')", shown(name), name.p,
                name.p[i]);
            return false;
        }
    if (name.p[0] == '@') {
        const char *slash = memchr(name.p, '/', name.n);
        if (!slash || slash == name.p + 1 || slash == name.p + name.n - 1) {
            say(why, why_size, "'%.*s' is not a scoped npm package (@scope/name)", shown(name),
                name.p);
            return false;
        }
    }
    return true;
}

/* "group:artifact:version" (Gradle's and Maven's short coordinates): the last part, when it
 * starts with a digit, is an exact version. */
static void split_coordinates(span *name, span *spec)
{
    size_t colons = 0, last = 0;
    for (size_t i = 0; i < name->n; i++)
        if (name->p[i] == ':')
            colons++, last = i;
    if (!spec->n && colons >= 2 && last + 1 < name->n && is_digit(name->p[last + 1])) {
        *spec = sub(*name, last + 1, name->n);
        *name = sub(*name, 0, last);
    }
}

/* What follows a name that took no '@': PEP 508 extras or parentheses, or the specifier. */
static bool after_name(span rest, span *spec, char *why, size_t why_size)
{
    span bracketed = rest.n ? trim(sub(rest, 1, rest.n)) : EMPTY;
    if (rest.n && rest.p[0] == '[' && bracketed.n && is_alpha(bracketed.p[0])) {
        size_t close = find(rest, "]"); /* extras: requests[socks]>=2.31 */
        if (close == rest.n) {
            say(why, why_size, "unclosed extras '%.*s'", shown(rest), rest.p);
            return false;
        }
        rest = sub(rest, close + 1, rest.n);
    }
    if (rest.n && !is_blank(rest.p[0]) && !strchr("<>=!~^[(", rest.p[0])) {
        say(why, why_size, "unexpected '%c' after the package name", rest.p[0]);
        return false;
    }
    rest = trim(rest);
    span inner = rest.n ? trim(sub(rest, 1, rest.n)) : EMPTY;
    if (rest.n && rest.p[0] == '(' && inner.n && strchr("<>=!~", inner.p[0])) {
        if (rest.p[rest.n - 1] != ')') { /* requests (>=2.31): PEP 508's parentheses */
            say(why, why_size, "unclosed '(' in '%.*s'", shown(rest), rest.p);
            return false;
        }
        rest = trim(sub(rest, 1, rest.n - 1));
    }
    *spec = rest;
    return true;
}

static bool requirement_parts(span t, span *name, span *spec, char *why, size_t why_size)
{
    size_t i = t.p[0] == '@' ? 1 : 0;
    const char *at = memchr(t.p + i, '@', t.n - i);
    if (at) { /* npm's name@range */
        *name = trim(sub(t, 0, (size_t)(at - t.p)));
        *spec = trim(sub(t, (size_t)(at - t.p) + 1, t.n));
        if (find(*spec, "://") < spec->n) {
            say(why, why_size, "a URL requirement names no version");
            return false;
        }
        return name_ok(*name, why, why_size);
    }
    while (i < t.n && is_name_char(t.p[i]))
        i++;
    *name = sub(t, 0, i);
    if (!name_ok(*name, why, why_size) || !after_name(sub(t, i, t.n), spec, why, why_size))
        return false;
    split_coordinates(name, spec);
    return true;
}

static char *dup_span(span s)
{
    char *p = malloc(s.n + 1);
    if (p) {
        memcpy(p, s.p, s.n);
        p[s.n] = '\0';
    }
    return p;
}

bool version_requirement_split(const char *text, char **package, char **specifier, char *why,
                               size_t why_size)
{
    if (package)
        *package = NULL;
    if (specifier)
        *specifier = NULL;
    span t = trim(span_of(text)), name, spec;
    if (!package || !specifier || !t.n) {
        say(why, why_size, "an empty requirement");
        return false;
    }
    for (size_t i = 0; i < t.n; i++)
        if (is_control(t.p[i]) || t.p[i] == ';') {
            say(why, why_size, t.p[i] == ';' ? "environment markers (';') are not supported"
                                             : "a control character in the requirement");
            return false;
        }
    if (!requirement_parts(t, &name, &spec, why, why_size))
        return false;
    *package = dup_span(name);
    *specifier = dup_span(spec);
    if (!*package || !*specifier) {
        free(*package), free(*specifier);
        *package = *specifier = NULL;
        say(why, why_size, "out of memory");
        return false;
    }
    say(why, why_size, "%s", "");
    return true;
}

/* ------------------------------------------------------------------ public */

const char *version_scheme_name(version_scheme s)
{
    switch (s) {
    case VSCHEME_PEP440:
        return "pep440";
    case VSCHEME_SEMVER:
        return "semver";
    case VSCHEME_MAVEN:
        return "maven";
    case VSCHEME_GENERIC:
        return "generic";
    }
    return "unknown";
}

vmatch version_satisfies(version_scheme scheme, const char *version, const char *specifier,
                         char *why, size_t why_size)
{
    span spec = trim(span_of(specifier)), v = trim(span_of(version));
    if (!spec.n) {
        say(why, why_size, "%s", "");
        return VMATCH_YES;
    }
    switch (scheme) {
    case VSCHEME_PEP440:
        return clauses_satisfied(&PEP440_RULES, v, spec, why, why_size);
    case VSCHEME_GENERIC:
        return clauses_satisfied(&GENERIC_RULES, v, spec, why, why_size);
    case VSCHEME_SEMVER:
        return sv_satisfies(v, spec, why, why_size);
    case VSCHEME_MAVEN:
        return mv_satisfies(v, spec, why, why_size);
    }
    say(why, why_size, "unknown version scheme %d", (int)scheme);
    return VMATCH_UNKNOWN;
}

int version_compare(version_scheme scheme, const char *a, const char *b, bool *ok)
{
    span sa = trim(span_of(a)), sb = trim(span_of(b));
    bool parsed = false;
    int c = 0;
    switch (scheme) {
    case VSCHEME_PEP440: {
        pep_version x, y;
        if ((parsed = pep_parse(sa, false, &x, NULL, 0) && pep_parse(sb, false, &y, NULL, 0)))
            c = pep_cmp(&x, &y, true);
        break;
    }
    case VSCHEME_GENERIC: {
        gen_version x, y;
        if ((parsed = gen_parse(sa, false, &x, NULL, 0) && gen_parse(sb, false, &y, NULL, 0)))
            c = gen_total_cmp(&x, &y);
        break;
    }
    case VSCHEME_SEMVER: {
        sv_version x, y;
        if ((parsed = sv_version_parse(sa, &x, NULL, 0) && sv_version_parse(sb, &y, NULL, 0)))
            c = sv_cmp(&x, &y);
        break;
    }
    case VSCHEME_MAVEN: {
        mv_version x, y;
        bool px = mv_parse(sa, &x, NULL, 0), py = mv_parse(sb, &y, NULL, 0);
        if ((parsed = px && py))
            c = mv_cmp(&x, &y);
        mv_free(&x), mv_free(&y);
        break;
    }
    }
    if (ok)
        *ok = parsed;
    return parsed ? sign(c) : 0;
}
