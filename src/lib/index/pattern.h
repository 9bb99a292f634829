/*
 * pattern.h — the rules every record regex obeys: how it is compiled (PCRE2 flags that give the
 * semantics of Python's re with IGNORECASE and MULTILINE) and what makes it specific enough to
 * be trusted on a whole log (docs/format.md, "Patterns").
 */
#ifndef ERRATA_PATTERN_H
#define ERRATA_PATTERN_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdbool.h>
#include <stddef.h>

/* Every top-level alternative must match at least this many characters literally. */
#define PATTERN_MIN_LITERALS 12

/* Compiles a record regex with the record semantics. On failure returns NULL and writes the
 * PCRE2 message and the offset of the problem into why. */
pcre2_code *pattern_compile(const char *regex, char *why, size_t why_size);

/* The number of literal characters in the least specific top-level alternative. */
size_t pattern_min_literals(const char *regex);

/* The literal characters of each top-level alternative, in order, at most max of them.
 * Returns the number of alternatives (which may exceed max). */
size_t pattern_alternative_literals(const char *regex, size_t *literals, size_t max);

/* Compiles regex like pattern_compile(), with each top-level alternative k marked (*:k), so
 * that pcre2_get_mark() tells which alternative matched: the measure of how specific a match
 * was. Marks add no capturing group, so group numbers and back-references are unchanged. A
 * pattern of one alternative is compiled as it is. */
pcre2_code *pattern_compile_marked(const char *regex, char *why, size_t why_size);

/* A prefilter literal is at most this long (longer runs are cut), and at least this long to be
 * worth a prefilter: a shorter one would fire on most lines of a log. */
#define PATTERN_MAX_LITERAL 64
#define PATTERN_MIN_REQUIRED_LITERAL 4

/* The strings any match of regex must contain, ASCII-lowercased (matching is caseless): one
 * for each top-level alternative, its longest run of mandatory literal characters (never
 * inside a group, never across a newline). Writes them into lits and returns how many; returns
 * 0 when some alternative has no run of PATTERN_MIN_REQUIRED_LITERAL characters, or there are
 * more than max alternatives: then the pattern cannot be prefiltered by literals. */
size_t pattern_required_literals(const char *regex, char (*lits)[PATTERN_MAX_LITERAL + 1],
                                 size_t max);

/* Checks the specificity rules; on failure writes the reason into why. */
bool pattern_is_specific(const char *regex, char *why, size_t why_size);

/* The largest upper bound a counted repeat ({m,n}, {n}, {,n}) may have. Hyperscan unrolls a
 * counted repeat into automaton states, so one "[\s\S]{0,400}?" cost 34 s of the bundled
 * knowledge base's multi-pattern compile, where all 2,600 other patterns together cost 5 s. */
#define PATTERN_MAX_COUNTED_REPEAT 64

/* Checks the cost rule: no counted repeat bounded above PATTERN_MAX_COUNTED_REPEAT. On failure
 * writes the repeat and what to write instead into why. */
bool pattern_is_cheap_to_compile(const char *regex, char *why, size_t why_size);


/* Searches s for re. Returns 1 on a match, 0 on none, a negative PCRE2 code on an error (a match
 * limit reached, for instance). md may be NULL (then one is made for the call); mctx may be
 * NULL (PCRE2's default limits). */
int pattern_search(const pcre2_code *re, const char *s, size_t n, pcre2_match_data *md,
                   pcre2_match_context *mctx);
#endif
