/*
 * strbuf.h — a growable, always NUL-terminated byte buffer.
 *
 * Used wherever the library assembles text of unknown length (rendered answers, normalised
 * input, SQL). An allocation failure is sticky: once set, further appends do nothing and
 * sb_finish() returns NULL, so callers check once at the end instead of after every append.
 */
#ifndef ERRATA_STRBUF_H
#define ERRATA_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *buf;   /* NUL-terminated when cap > 0 */
    size_t len;  /* bytes used, not counting the NUL */
    size_t cap;  /* bytes allocated */
    bool failed; /* an allocation failed; the content is incomplete */
} strbuf;

void sb_init(strbuf *sb);
bool sb_reserve(strbuf *sb, size_t extra);
void sb_append(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
void sb_putc(strbuf *sb, char c);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
/* Hands the buffer to the caller (never NULL unless an allocation failed). */
char *sb_finish(strbuf *sb);
void sb_free(strbuf *sb);

#endif
