/*
 * strbuf.c — growable text buffer; see strbuf.h.
 */
#include "strbuf.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(strbuf *sb) { memset(sb, 0, sizeof *sb); }

bool sb_reserve(strbuf *sb, size_t extra)
{
    if (sb->failed)
        return false;
    if (extra > (size_t)-1 / 2 - sb->len) {
        sb->failed = true;
        return false;
    }
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap *= 2;
    char *p = realloc(sb->buf, cap);
    if (!p) {
        sb->failed = true;
        return false;
    }
    sb->buf = p;
    sb->cap = cap;
    sb->buf[sb->len] = '\0';
    return true;
}

void sb_append(strbuf *sb, const char *s, size_t n)
{
    if (!sb_reserve(sb, n))
        return;
    if (n)
        memcpy(sb->buf + sb->len, s, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
    assert(sb->len < sb->cap); /* strbuf.h: always room for the terminating NUL */
}

void sb_puts(strbuf *sb, const char *s) { sb_append(sb, s, strlen(s)); }

void sb_putc(strbuf *sb, char c) { sb_append(sb, &c, 1); }

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0) {
        sb->failed = true;
        return;
    }
    if (!sb_reserve(sb, (size_t)n))
        return;
    vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

char *sb_finish(strbuf *sb)
{
    if (sb->failed) {
        sb_free(sb);
        return NULL;
    }
    if (!sb->buf && !sb_reserve(sb, 0))
        return NULL;
    char *out = sb->buf;
    sb_init(sb);
    return out;
}

void sb_free(strbuf *sb)
{
    free(sb->buf);
    sb_init(sb);
}
