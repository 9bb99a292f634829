/*
 * normalize.c — see normalize.h.
 */
#define _GNU_SOURCE
#include "normalize.h"

#include "errata.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0 if it is not valid. Rejects
 * overlong forms, surrogates and code points above U+10FFFF, as RFC 3629 requires. */
static size_t utf8_valid_len(const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t len;
    uint32_t min, cp;
    if ((c & 0xE0) == 0xC0)
        len = 2, min = 0x80, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0)
        len = 3, min = 0x800, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0)
        len = 4, min = 0x10000, cp = c & 0x07;
    else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

int errata_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t l = utf8_valid_len(p + i, n - i);
        if (!l)
            return 0;
        i += l;
    }
    return 1;
}

/* Length of the escape sequence starting with ESC at p. */
static size_t escape_len(const unsigned char *p, size_t n)
{
    if (n < 2)
        return 1;
    if (p[1] == '[') { /* CSI: parameters, then one final byte 0x40–0x7E */
        size_t i = 2;
        while (i < n && p[i] >= 0x20 && p[i] <= 0x3F)
            i++;
        while (i < n && p[i] >= 0x20 && p[i] <= 0x2F)
            i++;
        return i < n && p[i] >= 0x40 && p[i] <= 0x7E ? i + 1 : i;
    }
    if (p[1] == ']') { /* OSC: ends with BEL or ESC \ */
        for (size_t i = 2; i < n; i++) {
            if (p[i] == 0x07)
                return i + 1;
            if (p[i] == 0x1B && i + 1 < n && p[i + 1] == '\\')
                return i + 2;
            if (p[i] == '\n')
                return i;
        }
        return n;
    }
    return 2; /* ESC plus one byte: charset selection and the like */
}

/* Whether the 8 bytes at p are all printable ASCII, TAB or LF: the common case, checked a word
 * at a time. */
static bool plain_word(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    if (w & high)
        return false; /* a byte >= 0x80 */
    uint64_t below_space = (w - 0x2020202020202020ull) & ~w & high;
    uint64_t del = ((w ^ 0x7F7F7F7F7F7F7F7Full) - ones) & ~(w ^ 0x7F7F7F7F7F7F7F7Full) & high;
    if (del)
        return false;
    if (!below_space)
        return true;
    for (int i = 0; i < 8; i++)
        if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\t')
            return false;
    return true;
}

void normalize_text(const char *in, size_t len, strbuf *out)
{
    const unsigned char *p = (const unsigned char *)in;
    sb_reserve(out, len + 16);
    size_t i = 0;
    while (i < len) {
        size_t run = i; /* copy plain printable ASCII and valid UTF-8 in one go */
        while (run + 8 <= len && plain_word(p + run))
            run += 8;
        while (run < len) {
            unsigned char c = p[run];
            if (c >= 0x20 && c < 0x7F)
                run++;
            else if (c == '\n' || c == '\t')
                run++;
            else if (c >= 0x80) {
                size_t l = utf8_valid_len(p + run, len - run);
                if (!l)
                    break;
                run += l;
            } else
                break;
        }
        sb_append(out, in + i, run - i);
        i = run;
        if (i >= len)
            break;
        unsigned char c = p[i];
        if (c == 0x1B) {
            i += escape_len(p + i, len - i);
        } else if (c == '\r') {
            sb_putc(out, '\n');
            i += (i + 1 < len && p[i + 1] == '\n') ? 2 : 1;
        } else if (c >= 0x80) {
            sb_append(out, "\xEF\xBF\xBD", 3); /* U+FFFD */
            i++;
        } else {
            i++; /* NUL, DEL and other controls */
        }
    }
}

/* ------------------------------------------------------------------ line prefixes */

static size_t digits(const char *s, size_t n, size_t at, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (at + i >= n || s[at + i] < '0' || s[at + i] > '9')
            return 0;
    return count;
}

static size_t spaces(const char *s, size_t n, size_t at)
{
    size_t i = at;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i - at;
}

/* "HH:MM:SS" with optional fraction; returns its length or 0. */
static size_t clock_time(const char *s, size_t n, size_t at)
{
    if (!digits(s, n, at, 2) || at + 2 >= n || s[at + 2] != ':' || !digits(s, n, at + 3, 2) ||
        at + 5 >= n || s[at + 5] != ':' || !digits(s, n, at + 6, 2))
        return 0;
    size_t i = at + 8;
    if (i < n && (s[i] == '.' || s[i] == ',')) {
        size_t j = i + 1;
        while (j < n && isdigit((unsigned char)s[j]))
            j++;
        if (j > i + 1)
            i = j;
    }
    return i - at;
}

/* "YYYY-MM-DD[T ]HH:MM:SS[.fff][Z|±HH:MM]"; returns its length or 0. */
static size_t iso_timestamp(const char *s, size_t n, size_t at)
{
    if (!digits(s, n, at, 4) || at + 4 >= n || s[at + 4] != '-' || !digits(s, n, at + 5, 2) ||
        at + 7 >= n || s[at + 7] != '-' || !digits(s, n, at + 8, 2) || at + 10 >= n ||
        (s[at + 10] != 'T' && s[at + 10] != ' '))
        return 0;
    size_t t = clock_time(s, n, at + 11);
    if (!t)
        return 0;
    size_t i = at + 11 + t;
    if (i < n && s[i] == 'Z')
        i++;
    else if (i < n && (s[i] == '+' || s[i] == '-') && digits(s, n, i + 1, 2)) {
        i += 3;
        if (i < n && s[i] == ':')
            i++;
        i += digits(s, n, i, 2);
    }
    return i - at;
}

static size_t log_level(const char *s, size_t n, size_t at)
{
    static const struct {
        const char *name;
        size_t len;
    } levels[] = {{"TRACE", 5}, {"DEBUG", 5},   {"INFO", 4},  {"NOTICE", 6},   {"WARNING", 7},
                  {"WARN", 4},  {"ERROR", 5},   {"FATAL", 5}, {"CRITICAL", 8}};
    size_t i = at;
    bool bracket = i < n && s[i] == '[';
    if (bracket)
        i++;
    if (i + 4 > n)
        return 0;
    for (size_t k = 0; k < sizeof levels / sizeof *levels; k++) {
        size_t ll = levels[k].len;
        /* Bare levels are upper case ("ERROR "); "Error: …" is a message, not a level. */
        if (i + ll > n || (s[i] & ~0x20) != levels[k].name[0])
            continue;
        bool same = bracket ? strncasecmp(s + i, levels[k].name, ll) == 0
                            : memcmp(s + i, levels[k].name, ll) == 0;
        if (!same)
            continue;
        size_t j = i + ll;
        if (bracket) {
            if (j >= n || s[j] != ']')
                return 0;
            j++;
        }
        /* "ERROR:" with a colon is the tool's own word (psql's "ERROR:  relation … does not
         * exist"), which patterns match on; only a bare or bracketed level is framing. */
        return j < n && (s[j] == ' ' || s[j] == '\t') ? j - at : 0;
    }
    return 0;
}

/* GitHub Actions workflow commands: "##[error]", "##[group]", "::error file=x,line=1::". */
static size_t ci_marker(const char *s, size_t n, size_t at)
{
    if (at + 3 < n && s[at] == '#' && s[at + 1] == '#' && s[at + 2] == '[') {
        const char *end = memchr(s + at, ']', n - at);
        return end && end - (s + at) < 20 ? (size_t)(end - s) + 1 - at : 0;
    }
    if (at + 2 < n && s[at] == ':' && s[at + 1] == ':' && isalpha((unsigned char)s[at + 2])) {
        const char *end = memmem(s + at + 2, n - at - 2, "::", 2);
        return end && end - (s + at) < 200 ? (size_t)(end - s) + 2 - at : 0;
    }
    return 0;
}

/* docker compose "web-1  | " (or "web_1  | "), kubectl --prefix "[pod/web-5d8/app] ". */
static size_t container_prefix(const char *s, size_t n, size_t at)
{
    if (at + 5 < n && memcmp(s + at, "[pod/", 5) == 0) {
        const char *end = memchr(s + at, ']', n - at);
        if (end && end + 1 < s + n && end[1] == ' ')
            return (size_t)(end - s) + 2 - at;
        return 0;
    }
    if (!memchr(s + at, '|', n - at < 72 ? n - at : 72))
        return 0;
    size_t i = at;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_' || s[i] == '.'))
        i++;
    if (i == at || i - at > 64 || !isdigit((unsigned char)s[i - 1]))
        return 0;
    size_t j = i + spaces(s, n, i);
    if (j == i || j >= n || s[j] != '|')
        return 0;
    j++;
    return (j < n && s[j] == ' ') ? j + 1 - at : (j == n || s[j] == '\n' ? j - at : 0);
}

/* Whether the line at s can start with a prefix at all: most lines cannot, and are rejected on
 * their first byte. */
static bool may_have_prefix(const char *s, size_t n)
{
    if (n == 0)
        return false;
    unsigned char c = (unsigned char)s[0];
    if (isdigit(c) || c == '[' || c == '#' || c == ':')
        return true;
    /* A compose prefix: "name-1  | " within the first few dozen bytes. */
    return isalnum(c) && memchr(s, '|', n < 72 ? n : 72) != NULL;
}

/* The length of the framing prefix of the line at s (n bytes, no newline). */
static size_t line_prefix(const char *s, size_t n)
{
    if (!may_have_prefix(s, n))
        return 0;
    size_t at = 0;
    for (int round = 0; round < 6; round++) {
        size_t len;
        if ((len = iso_timestamp(s, n, at))) {
            at += len;
            at += spaces(s, n, at);
            /* A level right after a timestamp is part of the framing too. */
            size_t lvl = log_level(s, n, at);
            if (lvl)
                at += lvl + spaces(s, n, at + lvl);
            continue;
        }
        if ((len = container_prefix(s, n, at)) || (len = ci_marker(s, n, at))) {
            at += len;
            at += spaces(s, n, at);
            continue;
        }
        if (at < n && s[at] == '[' && (len = clock_time(s, n, at + 1)) && at + 1 + len < n &&
            s[at + 1 + len] == ']') {
            at += len + 2;
            at += spaces(s, n, at);
            continue;
        }
        if (at + 1 < n && s[at] == '[' && (len = iso_timestamp(s, n, at + 1)) &&
            at + 1 + len < n && s[at + 1 + len] == ']') {
            at += len + 2;
            at += spaces(s, n, at);
            continue;
        }
        break;
    }
    return at;
}

void strip_line_prefixes(strbuf *text)
{
    char *s = text->buf;
    size_t len = text->len;
    if (!s)
        return;
    /* In place: the text only shrinks, so what is kept moves left over what was cut. */
    size_t i = 0, kept = 0, from = 0; /* s[from, i) is still to be kept, at s[kept] */
    while (i < len) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - s) : len;
        size_t skip = line_prefix(s + i, end - i);
        if (skip) {
            memmove(s + kept, s + from, i - from);
            kept += i - from;
            from = i + skip;
        }
        i = end + 1;
    }
    if (from < len) {
        memmove(s + kept, s + from, len - from);
        kept += len - from;
    }
    s[kept] = '\0';
    text->len = kept;
}

size_t normalized_lines(const char *s, size_t n)
{
    size_t lines = 1;
    for (const char *p = s; (p = memchr(p, '\n', (size_t)(s + n - p))); p++)
        lines++;
    return lines;
}

bool normalized_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\n' && s[i] != '\t')
            return false;
    return true;
}
