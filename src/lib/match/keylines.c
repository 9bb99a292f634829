/*
 * keylines.c — line roles and output formats; see keylines.h.
 *
 * Everything here is plain prefix and substring tests, no regex: it runs on the lines where a
 * pattern matched, a handful per lookup, and must cost next to nothing. The lists are the
 * framing and error shapes of the tools Errata covers; a line none of them describes is plain.
 */
#define _GNU_SOURCE
#include "keylines.h"

#include <ctype.h>
#include <string.h>

typedef struct {
    const char *s; /* trimmed line */
    size_t n;
} span;

static bool starts(span l, const char *prefix)
{
    size_t p = strlen(prefix);
    return l.n >= p && memcmp(l.s, prefix, p) == 0;
}

static bool contains(span l, const char *needle)
{
    return memmem(l.s, l.n, needle, strlen(needle)) != NULL;
}

/* Lines that only say that an earlier step failed. */
static bool is_framing(span l)
{
    static const char *const prefixes[] = {
        "Traceback (most recent call last)", "During handling of the above exception",
        "The above exception was the direct cause", "ninja: build stopped", "FAILED: ",
        "collect2: error: ld returned", "cc1: all warnings being treated as errors",
        "cc1plus: all warnings being treated as errors", "error: could not compile `",
        "npm ERR! A complete log", "npm error A complete log", "npm ERR! Log files were not",
        "npm error Log files were not", "BUILD FAILURE", "FAILURE: Build failed with an exception",
        "* What went wrong:", "Error: Process completed with exit code", NULL};
    for (const char *const *p = prefixes; *p; p++)
        if (starts(l, *p))
            return true;
    /* make: *** [Makefile:12: all] Error 1, make[2]: *** … */
    if ((starts(l, "make") || starts(l, "gmake")) && contains(l, ": *** "))
        return true;
    return contains(l, "Process completed with exit code");
}

/* A Python or Java exception line: a dotted name ending in Error, Exception, … then ':' or end. */
static bool is_exception_line(span l)
{
    size_t i = 0;
    while (i < l.n && (isalnum((unsigned char)l.s[i]) || l.s[i] == '_' || l.s[i] == '.' ||
                       l.s[i] == '$'))
        i++;
    if (i == 0 || (i < l.n && l.s[i] != ':'))
        return false;
    static const char *const tails[] = {"Error", "Exception", "Warning", "Interrupt", "Exit",
                                        "Fault", "Failure", "ErrorGroup", NULL};
    for (const char *const *t = tails; *t; t++) {
        size_t tl = strlen(*t);
        if (i >= tl && memcmp(l.s + i - tl, *t, tl) == 0)
            return true;
    }
    return false;
}

static bool is_key(span l)
{
    static const char *const prefixes[] = {
        "error:", "error[", "Error:", "ERROR:", "ERROR ", "fatal:", "fatal error:", "FATAL:",
        "E: ", "panic: ", "thread '", "Caused by:", "Exception in thread", "Uncaught ",
        "npm ERR! code", "npm error code", "Segmentation fault", "CMake Error", "error TS",
        NULL};
    for (const char *const *p = prefixes; *p; p++)
        if (starts(l, *p))
            return true;
    static const char *const inner[] = {": error:", ": fatal error:", ": error TS", "error[E",
                                        "undefined reference to", ": Error:", NULL};
    for (const char *const *p = inner; *p; p++)
        if (contains(l, *p))
            return true;
    return is_exception_line(l);
}

static span line_at(const char *text, size_t len, size_t start)
{
    const char *end = memchr(text + start, '\n', len - start);
    span l = {text + start, (end ? (size_t)(end - text) : len) - start};
    while (l.n && (*l.s == ' ' || *l.s == '\t'))
        l.s++, l.n--;
    return l;
}

/* The next non-blank line after the one at start, or an empty span. */
static span next_line(const char *text, size_t len, size_t start)
{
    const char *end = memchr(text + start, '\n', len - start);
    while (end) {
        size_t s = (size_t)(end - text) + 1;
        span l = line_at(text, len, s);
        if (l.n)
            return l;
        end = memchr(text + s, '\n', len - s);
    }
    return (span){"", 0};
}

static bool later_line_starts(const char *text, size_t len, size_t start, const char *prefix)
{
    size_t p = strlen(prefix);
    for (const char *s = memchr(text + start, '\n', len - start); s;
         s = memchr(s + 1, '\n', len - (size_t)(s + 1 - text))) {
        const char *t = s + 1;
        while (t < text + len && (*t == ' ' || *t == '\t'))
            t++;
        if ((size_t)(text + len - t) >= p && memcmp(t, prefix, p) == 0)
            return true;
    }
    return false;
}

line_role classify_line(const char *text, size_t len, size_t line_start)
{
    span l = line_at(text, len, line_start);
    if (is_framing(l))
        return LINE_FRAMING;
    if (!is_key(l))
        return LINE_PLAIN;
    /* Java: the last "Caused by:" is where the failure started. */
    if (starts(l, "Caused by:"))
        return later_line_starts(text, len, line_start, "Caused by:") ? LINE_KEY : LINE_ROOT;
    /* Python: `raise B from A` prints A, then "The above exception was the direct cause…". */
    if (is_exception_line(l) &&
        starts(next_line(text, len, line_start), "The above exception was the direct cause"))
        return LINE_ROOT;
    return LINE_KEY;
}

const char *line_role_name(line_role role)
{
    switch (role) {
    case LINE_KEY: return "error line";
    case LINE_ROOT: return "root of the chain";
    case LINE_FRAMING: return "framing";
    case LINE_PLAIN: break;
    }
    return "plain";
}

/* ------------------------------------------------------------------ formats */

static bool has(const char *text, size_t len, const char *needle)
{
    return memmem(text, len, needle, strlen(needle)) != NULL;
}

unsigned detect_formats(const char *text, size_t len)
{
    unsigned f = 0;
    if (has(text, len, "Traceback (most recent call last):"))
        f |= FMT_PYTHON;
    if (has(text, len, "Exception in thread \"") || has(text, len, "\tat ") ||
        (has(text, len, "    at ") && has(text, len, ".java:")))
        f |= FMT_JAVA;
    if (has(text, len, "node:internal") || (has(text, len, "    at ") && has(text, len, ".js:")) ||
        has(text, len, ".mjs:") || has(text, len, ".ts:"))
        f |= FMT_NODE;
    if (has(text, len, "goroutine ") && has(text, len, "panic: "))
        f |= FMT_GO;
    if (has(text, len, "error[E") || has(text, len, "panicked at"))
        f |= FMT_RUST;
    if (has(text, len, ": error: ") || has(text, len, ": fatal error: ") ||
        has(text, len, "undefined reference to"))
        f |= FMT_CC;
    return f;
}

/* Which output format each domain's tools print: a Python traceback fits the records of every
 * Python library, a compiler report those of every native tool. One line a domain, so a new
 * domain is one line here. */
static const struct {
    const char *domain;
    unsigned fmt;
} DOMAIN_FORMATS[] = {
    {"python", FMT_PYTHON},      {"pip", FMT_PYTHON},          {"pytorch", FMT_PYTHON},
    {"huggingface", FMT_PYTHON}, {"tensorflow", FMT_PYTHON},   {"llm-apis", FMT_PYTHON},
    {"cuda", FMT_PYTHON | FMT_CC}, {"aws", FMT_PYTHON},        {"django", FMT_PYTHON},
    {"flask", FMT_PYTHON},       {"fastapi", FMT_PYTHON},      {"sqlalchemy", FMT_PYTHON},
    {"jinja2", FMT_PYTHON},      {"python-http", FMT_PYTHON},  {"pydantic", FMT_PYTHON},
    {"celery", FMT_PYTHON},      {"pyyaml", FMT_PYTHON},       {"pandas", FMT_PYTHON},
    {"numpy", FMT_PYTHON},       {"scikit-learn", FMT_PYTHON}, {"opencv", FMT_PYTHON},
    {"pytest", FMT_PYTHON},      {"mypy", FMT_PYTHON},         {"python-lint", FMT_PYTHON},
    {"python-env", FMT_PYTHON},  {"jax", FMT_PYTHON},          {"onnx", FMT_PYTHON},
    {"bitsandbytes", FMT_PYTHON},
    {"java", FMT_JAVA},          {"maven-gradle", FMT_JAVA},   {"gradle", FMT_JAVA},
    {"kotlin", FMT_JAVA},        {"spring-boot", FMT_JAVA},
    {"node", FMT_NODE},          {"npm", FMT_NODE},            {"typescript", FMT_NODE},
    {"react", FMT_NODE},         {"nextjs", FMT_NODE},         {"jest", FMT_NODE},
    {"vitest", FMT_NODE},        {"mocha", FMT_NODE},          {"eslint", FMT_NODE},
    {"prettier", FMT_NODE},      {"webpack", FMT_NODE},        {"esbuild", FMT_NODE},
    {"vite", FMT_NODE},          {"rollup", FMT_NODE},         {"babel", FMT_NODE},
    {"yarn", FMT_NODE},          {"pnpm", FMT_NODE},           {"express", FMT_NODE},
    {"go", FMT_GO},              {"rust", FMT_RUST},
    {"c-cpp", FMT_CC},           {"make", FMT_CC},             {"cmake", FMT_CC},
    {"fortran", FMT_CC},         {"sanitizers", FMT_CC},       {"valgrind", FMT_CC},
    {"meson", FMT_CC},           {"ninja", FMT_CC},            {"autotools", FMT_CC},
    {"pkg-config", FMT_CC},      {"linker", FMT_CC},           {"clang", FMT_CC},
};

bool format_fits_domain(unsigned formats, const char *domain)
{
    for (size_t i = 0; i < sizeof DOMAIN_FORMATS / sizeof *DOMAIN_FORMATS; i++)
        if ((formats & DOMAIN_FORMATS[i].fmt) && strcmp(DOMAIN_FORMATS[i].domain, domain) == 0)
            return true;
    return false;
}
