/*
 * pattern.c — compiling record regexes and measuring how specific they are.
 *
 * Specificity is measured by counting literal characters: characters the pattern can only
 * match as written. It is a cheap, explainable proxy for "how unlikely is a false positive on
 * an unrelated log", used both to refuse catch-all patterns at validation time and to rank
 * matches (a pattern that pins down more text is the more specific explanation).
 */
#include "pattern.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pcre2_code *pattern_compile(const char *regex, char *why, size_t why_size)
{
    int errcode;
    PCRE2_SIZE erroffset;
    /* No PCRE2_UCP: classes stay ASCII, exactly as in the Hyperscan database (multiscan.c),
     * so that Hyperscan's first pass never misses what PCRE2 would match. */
    uint32_t opts = PCRE2_CASELESS | PCRE2_MULTILINE | PCRE2_UTF;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED, opts, &errcode,
                                   &erroffset, NULL);
    if (!re && why) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(errcode, msg, sizeof msg);
        snprintf(why, why_size, "%s at offset %zu", (const char *)msg, (size_t)erroffset);
    }
    return re;
}

/* ------------------------------------------------------------------ literal counting */

typedef struct {
    const char *s;
    size_t i, n;
} scanner;

static size_t count_sequence(scanner *sc);

static size_t utf8_len(unsigned char c)
{
    return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
}

/* Skips a {…} or <…> or '…' argument after an escape such as \p{L}, \x{41}, \k<name>. */
static void skip_bracketed(scanner *sc)
{
    if (sc->i >= sc->n)
        return;
    char open = sc->s[sc->i], close = open == '{' ? '}' : open == '<' ? '>' : open == '\'' ? '\'' : 0;
    if (!close)
        return;
    const char *end = memchr(sc->s + sc->i + 1, close, sc->n - sc->i - 1);
    sc->i = end ? (size_t)(end - sc->s) + 1 : sc->n;
}

/* An escape after the backslash; returns its literal count (0 or 1). */
static size_t count_escape(scanner *sc)
{
    if (sc->i >= sc->n)
        return 0;
    char c = sc->s[sc->i++];
    if (!isalnum((unsigned char)c))
        return 1; /* \. \( \\ … */
    switch (c) {
    case 'n': case 't': case 'r': case 'f': case 'e': case 'a':
        return 1;
    case 'x':
        if (sc->i < sc->n && sc->s[sc->i] == '{')
            skip_bracketed(sc);
        else
            for (int k = 0; k < 2 && sc->i < sc->n && isxdigit((unsigned char)sc->s[sc->i]); k++)
                sc->i++;
        return 1;
    case 'p': case 'P':
        if (sc->i < sc->n && sc->s[sc->i] == '{')
            skip_bracketed(sc);
        else if (sc->i < sc->n)
            sc->i++;
        return 0;
    case 'k': case 'g':
        skip_bracketed(sc);
        while (sc->i < sc->n && isdigit((unsigned char)sc->s[sc->i]))
            sc->i++;
        return 0;
    default:
        while (isdigit((unsigned char)c) && sc->i < sc->n && isdigit((unsigned char)sc->s[sc->i]))
            sc->i++;
        return 0; /* \d \w \s \b, back-references, … */
    }
}

static void skip_class(scanner *sc)
{
    if (sc->i < sc->n && sc->s[sc->i] == '^')
        sc->i++;
    if (sc->i < sc->n && sc->s[sc->i] == ']')
        sc->i++;
    while (sc->i < sc->n && sc->s[sc->i] != ']') {
        if (sc->s[sc->i] == '\\')
            sc->i += 2;
        else if (sc->s[sc->i] == '[' && sc->i + 1 < sc->n && sc->s[sc->i + 1] == ':') {
            const char *end = strstr(sc->s + sc->i + 2, ":]");
            sc->i = end ? (size_t)(end - sc->s) + 2 : sc->i + 1;
        } else
            sc->i++;
    }
    if (sc->i < sc->n)
        sc->i++;
}

/* A group after its '('; returns the literal count of its least specific alternative. */
static size_t count_group(scanner *sc)
{
    bool counts = true;
    if (sc->i < sc->n && sc->s[sc->i] == '?') {
        sc->i++;
        char c = sc->i < sc->n ? sc->s[sc->i] : 0;
        if (c == '#') { /* comment */
            const char *end = memchr(sc->s + sc->i, ')', sc->n - sc->i);
            sc->i = end ? (size_t)(end - sc->s) + 1 : sc->n;
            return 0;
        }
        if (c == '=' || c == '!') {
            counts = false, sc->i++;
        } else if (c == '<' && sc->i + 1 < sc->n && (sc->s[sc->i + 1] == '=' || sc->s[sc->i + 1] == '!')) {
            counts = false, sc->i += 2;
        } else if (c == 'P' && sc->i + 1 < sc->n && sc->s[sc->i + 1] == '<') {
            sc->i++;
            skip_bracketed(sc);
        } else if (c == '<' || c == '\'') {
            skip_bracketed(sc);
        } else if (c == 'P' || c == 'R' || c == '&' || isdigit((unsigned char)c) || c == '+') {
            /* back-reference or recursion: (?P=name) (?P>name) (?R) (?1) */
            const char *end = memchr(sc->s + sc->i, ')', sc->n - sc->i);
            sc->i = end ? (size_t)(end - sc->s) + 1 : sc->n;
            return 0;
        } else if (c == ':' || c == '>' || c == '|') {
            sc->i++;
        } else {
            /* inline flags: (?i) applies to the rest, (?i:…) is a group */
            while (sc->i < sc->n && (isalpha((unsigned char)sc->s[sc->i]) || sc->s[sc->i] == '-'))
                sc->i++;
            if (sc->i < sc->n && sc->s[sc->i] == ')') {
                sc->i++;
                return 0;
            }
            if (sc->i < sc->n && sc->s[sc->i] == ':')
                sc->i++;
        }
    }
    size_t best = count_sequence(sc);
    while (sc->i < sc->n && sc->s[sc->i] == '|') {
        sc->i++;
        size_t alt = count_sequence(sc);
        if (alt < best)
            best = alt;
    }
    if (sc->i < sc->n && sc->s[sc->i] == ')')
        sc->i++;
    return counts ? best : 0;
}

/* Reads a quantifier if one follows; returns whether it allows zero repetitions. */
static bool quantifier_allows_zero(scanner *sc, bool *present)
{
    *present = false;
    if (sc->i >= sc->n)
        return false;
    char c = sc->s[sc->i];
    bool zero = false;
    if (c == '?' || c == '*' || c == '+') {
        zero = c != '+';
        sc->i++;
    } else if (c == '{') {
        size_t j = sc->i + 1;
        size_t digits = 0;
        unsigned min = 0;
        while (j < sc->n && isdigit((unsigned char)sc->s[j]))
            min = min * 10 + (unsigned)(sc->s[j++] - '0'), digits++;
        if (j < sc->n && sc->s[j] == ',') {
            j++;
            while (j < sc->n && isdigit((unsigned char)sc->s[j]))
                j++;
        }
        if (!digits || j >= sc->n || sc->s[j] != '}')
            return false; /* not a quantifier: a literal '{' */
        zero = min == 0;
        sc->i = j + 1;
    } else {
        return false;
    }
    *present = true;
    if (sc->i < sc->n && (sc->s[sc->i] == '?' || sc->s[sc->i] == '+'))
        sc->i++; /* lazy or possessive */
    return zero;
}

/* A sequence up to '|' or ')' at this level. */
static size_t count_sequence(scanner *sc)
{
    size_t total = 0;
    while (sc->i < sc->n) {
        char c = sc->s[sc->i];
        if (c == '|' || c == ')')
            break;
        size_t atom = 0;
        sc->i++;
        if (c == '\\') {
            if (sc->i < sc->n && sc->s[sc->i] == 'Q') {
                const char *end = strstr(sc->s + sc->i + 1, "\\E");
                size_t stop = end ? (size_t)(end - sc->s) : sc->n;
                for (size_t j = sc->i + 1; j < stop; j += utf8_len((unsigned char)sc->s[j]))
                    total++;
                sc->i = end ? stop + 2 : sc->n;
                continue;
            }
            atom = count_escape(sc);
        } else if (c == '[') {
            skip_class(sc);
        } else if (c == '(') {
            atom = count_group(sc);
        } else if (c == '.' || c == '^' || c == '$') {
            atom = 0;
        } else {
            sc->i += utf8_len((unsigned char)c) - 1;
            atom = 1;
        }
        bool present;
        if (quantifier_allows_zero(sc, &present))
            atom = 0;
        total += atom;
    }
    return total;
}

/* The [start, end) byte ranges of the top-level alternatives, at most max; returns their count. */
static size_t split_alternatives(const char *regex, size_t *starts, size_t *ends, size_t max)
{
    scanner sc = {regex, 0, strlen(regex)};
    size_t n = 0;
    for (;;) {
        size_t start = sc.i;
        count_sequence(&sc);
        if (n < max)
            starts[n] = start, ends[n] = sc.i;
        n++;
        if (sc.i >= sc.n)
            break;
        sc.i++; /* '|' at the top level, or a stray ')' */
    }
    return n;
}

size_t pattern_alternative_literals(const char *regex, size_t *literals, size_t max)
{
    size_t starts[64], ends[64];
    size_t n = split_alternatives(regex, starts, ends, 64);
    for (size_t k = 0; k < n && k < max && k < 64; k++) {
        char buf[4096];
        size_t len = ends[k] - starts[k];
        if (len >= sizeof buf) {
            literals[k] = pattern_min_literals(regex);
            continue;
        }
        memcpy(buf, regex + starts[k], len);
        buf[len] = '\0';
        scanner sc = {buf, 0, len};
        literals[k] = count_sequence(&sc);
    }
    return n;
}

/* ------------------------------------------------------------------ required literals */

/* Appends the literal character of the escape at sc (after its backslash) to run, or returns
 * false when the escape is not one printable ASCII character (\d, \n, \b, \x41 …). */
static bool escape_literal(scanner *sc, char *c)
{
    if (sc->i >= sc->n)
        return false;
    char e = sc->s[sc->i];
    if (isalnum((unsigned char)e) || (unsigned char)e < 0x20 || (unsigned char)e > 0x7e) {
        count_escape(sc);
        return false;
    }
    sc->i++;
    *c = e;
    return true;
}

/* Skips a group after its '(' without counting: nesting, classes and escapes respected. */
static void skip_group(scanner *sc)
{
    int depth = 1;
    while (sc->i < sc->n && depth > 0) {
        char c = sc->s[sc->i++];
        if (c == '\\')
            sc->i += sc->i < sc->n;
        else if (c == '[')
            skip_class(sc);
        else if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
    }
}

static bool printable_ascii(unsigned char c) { return c >= 0x20 && c <= 0x7e; }

typedef char literal[PATTERN_MAX_LITERAL + 1];

static size_t alternation_literals(const char *regex, size_t from, size_t to, literal *lits,
                                   size_t max, int depth);

/* The shortest of n literals: how well a set of them filters (every one must be looked for). */
static size_t shortest(const literal *lits, size_t n)
{
    size_t m = n ? PATTERN_MAX_LITERAL + 1 : 0;
    for (size_t i = 0; i < n; i++)
        if (strlen(lits[i]) < m)
            m = strlen(lits[i]);
    return m;
}

/* Where the body of the group whose '(' is at regex[open] starts, or 0 when the group is one
 * whose text a match need not contain (lookaround, comment, flags, back-reference, recursion). */
static size_t group_body(const char *regex, size_t open, size_t end)
{
    size_t i = open + 1;
    if (i >= end || regex[i] != '?')
        return i;
    i++;
    char c = i < end ? regex[i] : 0;
    if (c == ':' || c == '>' || c == '|')
        return i + 1;
    if ((c == 'P' || c == '<' || c == '\'') && i + 1 < end) {
        if (c == 'P')
            i++;
        if (regex[i] == '=' || regex[i] == '!' || regex[i] == '>')
            return 0; /* (?<= (?<! (?P= (?P> */
        char close = regex[i] == '\'' ? '\'' : '>';
        const char *q = memchr(regex + i + 1, close, end - i - 1);
        return q ? (size_t)(q - regex) + 1 : 0;
    }
    while (i < end && (isalpha((unsigned char)regex[i]) || regex[i] == '-'))
        i++; /* (?i:…) (?-i:…) */
    return i < end && regex[i] == ':' && i > open + 2 ? i + 1 : 0;
}

/* A set of strings one of which the text must contain at this point of a sequence: a run of
 * literal characters is one string; a group of literal alternatives ("(?:passes|copies) lock")
 * multiplies the set, so that "passes lock" and "copies lock" are looked for rather than the
 * shorter "passes" and "copies". */
#define SET_MAX 16
typedef struct {
    literal s[SET_MAX];
    size_t n; /* 0: no set is being read */
} strset;

static void set_add_char(strset *set, char c)
{
    if (set->n == 0)
        set->n = 1, set->s[0][0] = '\0';
    for (size_t i = 0; i < set->n; i++) {
        size_t len = strlen(set->s[i]);
        if (len < PATTERN_MAX_LITERAL)
            set->s[i][len] = (char)tolower((unsigned char)c), set->s[i][len + 1] = '\0';
    }
}

/* The best candidate so far: the set whose shortest string is longest, the smaller on a tie. */
typedef struct {
    literal *lits;
    size_t max, n, shortest;
} best_set;

static void offer(best_set *b, const literal *lits, size_t n)
{
    /* A string that holds another of the set adds nothing: where it is, the other is too. */
    literal kept[SET_MAX];
    size_t k = 0;
    if (n <= SET_MAX) {
        for (size_t i = 0; i < n; i++) {
            bool implied = false;
            for (size_t j = 0; j < n && !implied; j++)
                implied = j != i && strstr(lits[i], lits[j]) &&
                          (strlen(lits[j]) < strlen(lits[i]) || j < i);
            if (!implied)
                memcpy(kept[k++], lits[i], sizeof kept[0]);
        }
        lits = kept, n = k;
    }
    size_t m = shortest(lits, n);
    if (n && n <= b->max && (m > b->shortest || (m == b->shortest && n < b->n))) {
        memmove(b->lits, lits, n * sizeof *lits);
        b->n = n, b->shortest = m;
    }
}

static void set_end(strset *set, best_set *b)
{
    offer(b, set->s, set->n);
    set->n = 0;
}

/* The alternatives of the group body regex[from, to) when each is nothing but literal
 * characters, into alts; false otherwise. */
static bool literal_alternatives(const char *regex, size_t from, size_t to, strset *alts)
{
    alts->n = 1, alts->s[0][0] = '\0';
    for (size_t i = from; i < to;) {
        char c = regex[i++], lit = c;
        if (c == '|') {
            if (alts->n == SET_MAX)
                return false;
            alts->s[alts->n++][0] = '\0';
            continue;
        }
        if (c == '\\') {
            if (i >= to || isalnum((unsigned char)regex[i]) || !printable_ascii((unsigned char)regex[i]))
                return false;
            lit = regex[i++];
        } else if (!printable_ascii((unsigned char)c) || strchr(".^$*+?{}[]()", c)) {
            return false;
        }
        size_t len = strlen(alts->s[alts->n - 1]);
        if (len < PATTERN_MAX_LITERAL)
            alts->s[alts->n - 1][len] = (char)tolower((unsigned char)lit),
                          alts->s[alts->n - 1][len + 1] = '\0';
    }
    return true;
}

/* Appends each of alts to each string of set (set becomes their product). */
static void set_multiply(strset *set, const strset *alts, best_set *b)
{
    if (set->n == 0) {
        *set = *alts;
        return;
    }
    if (set->n * alts->n > SET_MAX) {
        set_end(set, b);
        *set = *alts;
        return;
    }
    strset out = {.n = 0};
    for (size_t i = 0; i < set->n; i++)
        for (size_t j = 0; j < alts->n; j++) {
            size_t a = strlen(set->s[i]), c = strlen(alts->s[j]);
            if (c > PATTERN_MAX_LITERAL - a)
                c = PATTERN_MAX_LITERAL - a;
            memcpy(out.s[out.n], set->s[i], a);
            memcpy(out.s[out.n] + a, alts->s[j], c);
            out.s[out.n++][a + c] = '\0';
        }
    *set = out;
}

/* The best set of strings one of which every match of the sequence regex[from, to) (no
 * top-level '|') contains: a run of mandatory literal characters (multiplied by literal
 * groups within it, strset), or the literals of one of its mandatory groups, whichever has the
 * longest shortest member. Returns how many were written into lits (at most max), 0 when the
 * sequence has none worth filtering on. */
static size_t sequence_literals(const char *regex, size_t from, size_t to, literal *lits,
                                size_t max, int depth)
{
    scanner sc = {regex, from, to};
    best_set b = {lits, max, 0, 0};
    strset *cur = malloc(sizeof *cur), *alts = malloc(sizeof *alts);
    literal *group = depth < 8 ? malloc(max * sizeof *group) : NULL;
    if (!cur || !alts) {
        free(cur), free(alts), free(group);
        return 0;
    }
    cur->n = 0;
    while (sc.i < sc.n) {
        size_t at = sc.i;
        char c = sc.s[sc.i++], lit = 0;
        bool is_lit = false;
        size_t body = 0, close = 0;
        if (c == '\\' && sc.i < sc.n && sc.s[sc.i] == 'Q') {
            const char *end = strstr(sc.s + sc.i + 1, "\\E");
            size_t stop = end && (size_t)(end - sc.s) < sc.n ? (size_t)(end - sc.s) : sc.n;
            bool cut = false;
            for (size_t j = sc.i + 1; j < stop; j++) {
                if (printable_ascii((unsigned char)sc.s[j]))
                    set_add_char(cur, sc.s[j]);
                else
                    set_end(cur, &b), cut = true;
            }
            sc.i = stop < sc.n ? stop + 2 : sc.n;
            bool quantified;
            if (quantifier_allows_zero(&sc, &quantified) && cur->n && !cut)
                for (size_t i = 0; i < cur->n; i++) /* the last quoted character is optional */
                    cur->s[i][strlen(cur->s[i]) - (strlen(cur->s[i]) > 0)] = '\0';
            if (quantified)
                set_end(cur, &b);
            continue;
        }
        bool space = false, ahead = false;
        if (c == '\\' && sc.i < sc.n && sc.s[sc.i] == 's') {
            sc.i++;
            space = true; /* one white space character: a set of three literals */
        } else if (c == '\\') {
            is_lit = escape_literal(&sc, &lit);
        } else if (c == '[') {
            skip_class(&sc);
        } else if (c == '(') {
            body = group_body(regex, at, to);
            /* (?=…) and (?<=…) consume nothing, but their text must be there: their literals
             * are candidates, and the run goes on across them. */
            ahead = !body && at + 2 < to && regex[at + 1] == '?' &&
                    (regex[at + 2] == '=' || (regex[at + 2] == '<' && at + 3 < to && regex[at + 3] == '='));
            skip_group(&sc);
            close = sc.i - 1;
            if (ahead)
                body = at + (regex[at + 2] == '=' ? 3 : 4);
        } else if (printable_ascii((unsigned char)c) && !strchr(".^$*+?{|)", c)) {
            is_lit = true, lit = c;
        } else {
            sc.i += utf8_len((unsigned char)c) - 1; /* non-ASCII: caseless matching of it is
                                                      * Unicode's, not a literal table's */
        }
        /* a plain "?", not "??" or "?+" */
        bool maybe = sc.i < sc.n && sc.s[sc.i] == '?' &&
                     !(sc.i + 1 < sc.n && (sc.s[sc.i + 1] == '?' || sc.s[sc.i + 1] == '+'));
        bool quantified;
        bool optional = quantifier_allows_zero(&sc, &quantified);
        bool group_ok = body && close > body && regex[close] == ')';
        if (ahead) {
            if (group && group_ok && !optional) {
                size_t k = alternation_literals(regex, body, close, group, max, depth + 1);
                if (k)
                    offer(&b, group, k);
            }
            continue; /* zero-width: the text around it is adjacent */
        }
        /* An optional literal or group of literal alternatives ("(?:PEER )?", "s?") is one more
         * alternative, the empty one: "UNMET (?:PEER )?DEPENDENCY" looks for "unmet
         * dependency" and "unmet peer dependency", not for "dependency" alone. Only for a
         * plain "?": a repeat ("*", "{0,3}") has too many forms. */
        if (maybe && (is_lit || (group_ok && literal_alternatives(regex, body, close, alts)))) {
            if (is_lit)
                alts->n = 1, alts->s[0][0] = (char)tolower((unsigned char)lit), alts->s[0][1] = '\0';
            if (alts->n < SET_MAX) {
                alts->s[alts->n++][0] = '\0';
                set_multiply(cur, alts, &b);
                continue;
            }
        }
        if (space && !optional) {
            /* \s as " ", "\t" or "\n" (what the normalised text can hold there: CR and the
             * other controls are removed before the patterns run) */
            strset *ws = alts;
            ws->n = 3;
            strcpy(ws->s[0], " "), strcpy(ws->s[1], "\t"), strcpy(ws->s[2], "\n");
            set_multiply(cur, ws, &b);
        } else if (is_lit && !optional) {
            set_add_char(cur, lit);
        } else if (group_ok && !optional && literal_alternatives(regex, body, close, alts)) {
            set_multiply(cur, alts, &b);
        } else {
            set_end(cur, &b);
            if (group && group_ok && !optional) {
                size_t k = alternation_literals(regex, body, close, group, max, depth + 1);
                if (k)
                    offer(&b, group, k);
            }
        }
        if (quantified)
            set_end(cur, &b);
    }
    set_end(cur, &b);
    free(cur), free(alts), free(group);
    return b.shortest >= PATTERN_MIN_REQUIRED_LITERAL ? b.n : 0;
}

/* The literals of every alternative of regex[from, to), together; 0 when one has none. */
static size_t alternation_literals(const char *regex, size_t from, size_t to, literal *lits,
                                   size_t max, int depth)
{
    size_t n = 0;
    scanner sc = {regex, from, to};
    for (;;) {
        size_t start = sc.i;
        count_sequence(&sc);
        size_t k = sequence_literals(regex, start, sc.i, lits + n, max - n, depth);
        if (k == 0)
            return 0;
        n += k;
        if (sc.i >= sc.n)
            return n;
        if (sc.s[sc.i] != '|')
            return 0; /* a stray ')': not a pattern this can reason about */
        sc.i++;
    }
}

size_t pattern_required_literals(const char *regex, literal *lits, size_t max)
{
    return alternation_literals(regex, 0, strlen(regex), lits, max, 0);
}

pcre2_code *pattern_compile_marked(const char *regex, char *why, size_t why_size)
{
    size_t starts[64], ends[64];
    size_t n = split_alternatives(regex, starts, ends, 64);
    if (n < 2 || n > 64)
        return pattern_compile(regex, why, why_size);
    size_t len = strlen(regex);
    char *marked = malloc(len + n * 16 + 8);
    if (!marked)
        return NULL;
    size_t o = 0;
    o += (size_t)sprintf(marked + o, "(?:");
    for (size_t k = 0; k < n; k++) {
        o += (size_t)sprintf(marked + o, "%s(*:%zu)", k ? "|" : "", k);
        memcpy(marked + o, regex + starts[k], ends[k] - starts[k]);
        o += ends[k] - starts[k];
    }
    o += (size_t)sprintf(marked + o, ")");
    marked[o] = '\0';
    pcre2_code *re = pattern_compile(marked, why, why_size);
    free(marked);
    return re;
}

size_t pattern_min_literals(const char *regex)
{
    scanner sc = {regex, 0, strlen(regex)};
    size_t best = count_sequence(&sc);
    while (sc.i < sc.n) {
        sc.i++; /* '|' at the top level, or a stray ')' */
        size_t alt = count_sequence(&sc);
        if (alt < best)
            best = alt;
    }
    return best;
}

bool pattern_is_specific(const char *regex, char *why, size_t why_size)
{
    const char *p = regex;
    if (*p == '^')
        p++;
    if (p[0] == '.' && (p[1] == '*' || p[1] == '+')) {
        snprintf(why, why_size, "begins with '%.2s', which matches anything", p);
        return false;
    }
    size_t lit = pattern_min_literals(regex);
    if (lit < PATTERN_MIN_LITERALS) {
        snprintf(why, why_size,
                 "is not specific: an alternative matches only %zu literal characters "
                 "(at least %d are needed)",
                 lit, PATTERN_MIN_LITERALS);
        return false;
    }
    return true;
}

/* The upper bound of the counted repeat at p ("{m,n}", "{n}", "{,n}"), or 0 when p does not
 * start one; "{m,}" is unbounded and costs nothing to unroll. *len is the repeat's length. */
static unsigned long counted_repeat_bound(const char *p, size_t *len)
{
    const char *q = p + 1;
    unsigned long lo = 0, hi = 0;
    bool has_lo = false, has_hi = false;
    for (; *q >= '0' && *q <= '9'; q++, has_lo = true)
        lo = lo < 100000 ? lo * 10 + (unsigned long)(*q - '0') : lo;
    if (*q == '}') {
        *len = (size_t)(q - p) + 1;
        return has_lo ? lo : 0;
    }
    if (*q++ != ',')
        return 0;
    for (; *q >= '0' && *q <= '9'; q++, has_hi = true)
        hi = hi < 100000 ? hi * 10 + (unsigned long)(*q - '0') : hi;
    if (*q != '}' || (!has_lo && !has_hi))
        return 0;
    *len = (size_t)(q - p) + 1;
    return hi;
}

bool pattern_is_cheap_to_compile(const char *regex, char *why, size_t why_size)
{
    bool in_class = false;
    for (const char *p = regex; *p; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            continue;
        }
        if (in_class) {
            in_class = *p != ']';
            continue;
        }
        if (*p == '[') {
            in_class = true;
            if (p[1] == '^')
                p++;
            if (p[1] == ']')
                p++; /* a literal ] first in the class */
            continue;
        }
        size_t len = 0;
        unsigned long bound = *p == '{' ? counted_repeat_bound(p, &len) : 0;
        if (bound > PATTERN_MAX_COUNTED_REPEAT) {
            snprintf(why, why_size,
                     "the counted repeat '%.*s' at offset %zu allows more than %d repetitions, "
                     "which makes the knowledge base slow to compile (Hyperscan unrolls it): "
                     "repeat without a bound within a line ('[^\\n]*?') or count lines "
                     "('(?:[^\\n]*\\n){0,8}?')",
                     (int)len, p, (size_t)(p - regex), PATTERN_MAX_COUNTED_REPEAT);
            return false;
        }
    }
    return true;
}

int pattern_search(const pcre2_code *re, const char *s, size_t n, pcre2_match_data *md,
                   pcre2_match_context *mctx)
{
    pcre2_match_data *own = NULL;
    if (!md && !(md = own = pcre2_match_data_create_from_pattern(re, NULL)))
        return PCRE2_ERROR_NOMEMORY;
    int rc = pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, md, mctx);
    pcre2_match_data_free(own);
    if (rc == PCRE2_ERROR_NOMATCH)
        return 0;
    return rc < 0 ? rc : 1;
}
