/*
 * version_common.h — what every version scheme's file shares (version.c, pep440.c, generic.c,
 * semver.c, maven.c, clauses.c): text spans and ASCII classes, digit-string numbers, and
 * the clause operators of PEP 440 that the generic scheme reuses. All static inline: they are
 * small, and the schemes stay separate files without exporting helpers.
 *
 * Common rules
 *   An empty specifier applies to every version: the record named the package and no versions.
 *   Numbers are compared as digit strings (leading zeros dropped, then by length, then digit by
 *   digit), so a number of any length compares exactly and nothing overflows. Nothing is
 *   guessed: a version or specifier that does not parse under the scheme gives VMATCH_UNKNOWN.
 *   Parsing is iterative throughout, so no input, however long or deeply nested, grows the stack.
 */
#ifndef ERRATA_VERSION_COMMON_H
#define ERRATA_VERSION_COMMON_H

#include <assert.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"

/* ------------------------------------------------------------------ text */

/* A piece of a caller's string: nothing is copied, nothing is NUL-terminated. p is never NULL,
 * so the mem* functions can be given it even when n is 0. */
typedef struct {
    const char *p;
    size_t n;
} span;

static const span EMPTY = {"", 0};

/* ASCII classes of our own: <ctype.h> would make version syntax depend on the locale. */
static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
static inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static inline bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
static inline bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static inline bool is_control(char c) { return (unsigned char)c < 0x20 || c == 0x7f; }
static inline char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

static inline span span_of(const char *s) { return s ? (span){s, strlen(s)} : EMPTY; }

static inline span sub(span s, size_t from, size_t to) { return (span){s.p + from, to - from}; }

static inline span trim(span s)
{
    while (s.n && is_blank(s.p[0]))
        s.p++, s.n--;
    while (s.n && is_blank(s.p[s.n - 1]))
        s.n--;
    return s;
}

static inline bool has_blank(span s)
{
    for (size_t i = 0; i < s.n; i++)
        if (is_blank(s.p[i]))
            return true;
    return false;
}

static inline bool all_digits(span s)
{
    for (size_t i = 0; i < s.n; i++)
        if (!is_digit(s.p[i]))
            return false;
    return s.n > 0;
}

static inline int sign(int x) { return (x > 0) - (x < 0); }

/* Byte order, a shorter text before the longer one it starts. */
static inline int bytes_cmp(span a, span b)
{
    size_t n = a.n < b.n ? a.n : b.n;
    int c = n ? memcmp(a.p, b.p, n) : 0;
    return c ? sign(c) : (a.n > b.n) - (a.n < b.n);
}

/* The same, ignoring ASCII case. */
static inline int ci_cmp(span a, span b)
{
    size_t n = a.n < b.n ? a.n : b.n;
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)lower(a.p[i]), y = (unsigned char)lower(b.p[i]);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return (a.n > b.n) - (a.n < b.n);
}

static inline bool ci_eq(span a, const char *word) { return ci_cmp(a, span_of(word)) == 0; }

/* Where needle first occurs in s, or s.n. */
static inline size_t find(span s, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= s.n; i++)
        if (memcmp(s.p + i, needle, k) == 0)
            return i;
    return s.n;
}

/* Whether s continues at *i with word, ignoring case; if so, moves *i past it. */
static inline bool take_word(span s, size_t *i, const char *word)
{
    size_t k = strlen(word);
    if (s.n - *i < k || ci_cmp(sub(s, *i, *i + k), (span){word, k}) != 0)
        return false;
    *i += k;
    return true;
}

static inline span take_digits(span s, size_t *i)
{
    size_t start = *i;
    while (*i < s.n && is_digit(s.p[*i]))
        (*i)++;
    return sub(s, start, *i);
}

/* Takes the next field of *rest up to one of the separator characters seps; false once rest is
 * used up. A text ending in a separator ends with that separator: no empty last field. */
static inline bool next_field(span *rest, const char *seps, span *field)
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
__attribute__((format(printf, 3, 4))) static inline void say(char *why, size_t size, const char *fmt, ...)
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
static inline int shown(span s) { return s.n > QUOTE_MAX ? QUOTE_MAX : (int)s.n; }

/* ------------------------------------------------------------------ numbers */

/* A decimal number as its digits without leading zeros; no digits at all is zero. */
static inline span num_trim(span d)
{
    while (d.n && d.p[0] == '0')
        d.p++, d.n--;
    return d;
}

/* Compares two digit strings by value; both must be digits only (the parsers take them so). */
static inline int num_cmp(span a, span b)
{
    assert(all_digits(a) || !a.n);
    assert(all_digits(b) || !b.n);
    a = num_trim(a), b = num_trim(b);
    if (a.n != b.n)
        return a.n < b.n ? -1 : 1;
    return a.n ? sign(memcmp(a.p, b.p, a.n)) : 0;
}

/* Dotted releases ("1.2.3"), padded with zeros: 1.0 == 1.0.0. */
static inline int release_cmp(span a, span b)
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
static inline bool release_prefix_eq(span r, span prefix, size_t count)
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
static inline bool take_release(span s, size_t *i, span *release, size_t *count)
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
static inline clause_op take_op(span *s, bool single_eq)
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
static inline vmatch order_satisfies(clause_op op, unsigned possible)
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

static inline unsigned order_of(int c) { return c < 0 ? ORD_LT : c > 0 ? ORD_GT : ORD_EQ; }

#endif
