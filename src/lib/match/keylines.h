/*
 * keylines.h — what each line of pasted output is: the error itself, framing around it, or
 * neither; and which output formats (a Python traceback, a Java stack trace, …) the text holds.
 *
 * People paste whole logs. The whole text is scanned, but a match on "make: *** [all] Error 1"
 * only reports that something earlier failed, while "foo.c:3:10: fatal error: bar.h: No such file
 * or directory" is the failure. Ranking uses these roles so that the error wins over its framing,
 * and the root of a chain (the last "Caused by:", the exception a Python "direct cause" chain
 * starts from) wins over the wrappers around it.
 */
#ifndef ERRATA_KEYLINES_H
#define ERRATA_KEYLINES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    LINE_PLAIN = 0,   /* ordinary output */
    LINE_KEY = 1,     /* an error line: an exception, a compiler error, a panic, `fatal:` … */
    LINE_ROOT = 2,    /* the root of an exception chain */
    LINE_FRAMING = 3  /* a line that only reports that something else failed */
} line_role;

/* Output formats found in a text, as bits. */
enum {
    FMT_PYTHON = 1u << 0, /* "Traceback (most recent call last):" */
    FMT_JAVA = 1u << 1,   /* "Exception in thread", "\tat pkg.Class.method(File.java:N)" */
    FMT_NODE = 1u << 2,   /* "    at fn (/path/file.js:N:N)", "node:internal" */
    FMT_GO = 1u << 3,     /* "panic:" with "goroutine N [running]:" */
    FMT_RUST = 1u << 4,   /* "error[E0308]:", "thread 'main' panicked at" */
    FMT_CC = 1u << 5      /* "file.c:N:N: error:", "undefined reference to" */
};

/* The formats present in text. */
unsigned detect_formats(const char *text, size_t len);

/* Whether a record of this domain is the kind of failure a text of these formats reports. */
bool format_fits_domain(unsigned formats, const char *domain);

/* The role of the line that starts at text + line_start; text is the whole (normalised) input,
 * so that the role can depend on the lines around it. */
line_role classify_line(const char *text, size_t len, size_t line_start);

const char *line_role_name(line_role role);

#endif
