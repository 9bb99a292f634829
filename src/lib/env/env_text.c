/*
 * env_text.c — the text helpers every environment reader shares (env.h): iterating lines,
 * trimming, finding a quoted key, line numbers of offsets, and the "file:line: message" errors
 * they all report.
 */
#include "env.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"

/* ---------------------------------------------------------------- text helpers */

void env_lines_init(env_lines *it, const char *text, size_t len)
{
    it->p = text;
    it->end = text + len;
    it->line = 0;
}

bool env_lines_next(env_lines *it, const char **s, size_t *n, int *line)
{
    if (it->p >= it->end)
        return false;
    const char *nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
    const char *e = nl ? nl : it->end;
    *s = it->p;
    *n = (size_t)(e - it->p);
    if (*n && (*s)[*n - 1] == '\r')
        (*n)--;
    it->p = nl ? nl + 1 : it->end;
    *line = ++it->line;
    return true;
}

void env_trim(const char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t'))
        (*s)++, (*n)--;
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
        (*n)--;
}

char *env_strndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

const char *env_memstr(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (const char *p = s; m <= n && p <= s + n - m; p++) {
        p = memchr(p, needle[0], (size_t)(s + n - m + 1 - p));
        if (!p)
            return NULL;
        if (!memcmp(p, needle, m))
            return p;
    }
    return NULL;
}

int env_cursor_find(env_cursor *c, const char *str, const char *after)
{
    size_t m = strlen(str);
    for (size_t from = c->off; from < c->len;) {
        const char *q = env_memstr(c->text + from, c->len - from, "\"");
        if (!q)
            return 0;
        size_t at = (size_t)(q - c->text);
        from = at + 1;
        if (c->len - from < m + 1 || memcmp(c->text + from, str, m) || c->text[from + m] != '"')
            continue;
        size_t end = from + m + 1;
        const char *a = after;
        for (; *a; a++) {
            while (end < c->len && isspace((unsigned char)c->text[end]))
                end++;
            if (end >= c->len || c->text[end] != *a)
                break;
            end++;
        }
        if (*a)
            continue;
        for (const char *p = c->text + c->off; (p = memchr(p, '\n', at - (size_t)(p - c->text)));
             p++)
            c->line++;
        c->off = end;
        return c->line;
    }
    return 0;
}

int env_line_at(const char *text, size_t off)
{
    int line = 1;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + off - p))); p++)
        line++;
    return line;
}

errata_code env_syntax(errata_error *err, const char *file, int line, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        return set_error(err, ERRATA_ERR_ARG, "%s:%d: %s", file, line, msg);
    return set_error(err, ERRATA_ERR_ARG, "%s: %s", file, msg);
}

errata_code env_nomem(errata_error *err, const char *file)
{
    return set_error(err, ERRATA_ERR_NOMEM, "%s: out of memory", file);
}
