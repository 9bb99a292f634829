/*
 * env_toml.c — poetry.lock, uv.lock and Cargo.lock: TOML files whose [[package]] tables name
 * the locked packages.
 *
 * A small TOML reader, enough for what these files hold: comments, [table] and [[array]]
 * headers, dotted and quoted keys, the four kinds of string (with escapes), bare scalars
 * (numbers, booleans, dates), arrays over many lines and inline tables. It checks the syntax it
 * reads, so that a broken lock file is an error naming its line rather than a wrong answer;
 * values other than a package's name and version are read and dropped.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "error.h"
#include "strbuf.h"

/* Arrays and inline tables nested deeper than this are refused rather than recursed into. */
#define MAX_DEPTH 64

typedef struct {
    env_batch *b;
    const char *s;
    size_t n, i;
    int line; /* of s[i] */
    errata_error *err;
    env_ecosystem eco;
    bool uv;
    /* The [[package]] being read. */
    bool pkg_open; /* a [[package]] started and its sub-tables ([package.extras]) follow */
    bool in_pkg;   /* key/values go to the package itself */
    int pkg_line, name_line;
    char *name, *version;
    bool local; /* uv: the project itself or a path (their version may be dynamic) */
} toml;

static errata_code fail(toml *t, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static errata_code fail(toml *t, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return env_syntax(t->err, t->b->file, line, "%s", msg);
}

static int peek(const toml *t, size_t k)
{
    return t->i + k < t->n ? (unsigned char)t->s[t->i + k] : -1;
}

static void skip_ws(toml *t)
{
    while (t->i < t->n && (t->s[t->i] == ' ' || t->s[t->i] == '\t' || t->s[t->i] == '\r'))
        t->i++;
}

static void skip_comment(toml *t)
{
    if (peek(t, 0) == '#')
        while (t->i < t->n && t->s[t->i] != '\n')
            t->i++;
}

/* Spaces, comments and newlines, as allowed between an array's items. */
static void skip_ws_nl(toml *t)
{
    for (;;) {
        skip_ws(t);
        skip_comment(t);
        if (peek(t, 0) != '\n')
            return;
        t->i++;
        t->line++;
    }
}

/* After a value or header only a comment may follow on its line. Consumes the newline. */
static bool line_end(toml *t)
{
    skip_ws(t);
    skip_comment(t);
    if (t->i == t->n)
        return true;
    if (t->s[t->i] != '\n')
        return false;
    t->i++;
    t->line++;
    return true;
}

static void put_utf8(strbuf *sb, unsigned long c)
{
    if (c < 0x80) {
        sb_putc(sb, (char)c);
    } else if (c < 0x800) {
        sb_putc(sb, (char)(0xC0 | (c >> 6)));
        sb_putc(sb, (char)(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        sb_putc(sb, (char)(0xE0 | (c >> 12)));
        sb_putc(sb, (char)(0x80 | ((c >> 6) & 0x3F)));
        sb_putc(sb, (char)(0x80 | (c & 0x3F)));
    } else {
        sb_putc(sb, (char)(0xF0 | (c >> 18)));
        sb_putc(sb, (char)(0x80 | ((c >> 12) & 0x3F)));
        sb_putc(sb, (char)(0x80 | ((c >> 6) & 0x3F)));
        sb_putc(sb, (char)(0x80 | (c & 0x3F)));
    }
}

/* The escape after a backslash in a basic string (t->i at the character after '\'). */
static errata_code escape(toml *t, strbuf *out)
{
    int c = peek(t, 0);
    const char *simple = "b\bt\tn\nf\fr\r\"\"\\\\e\033";
    for (const char *p = simple; *p; p += 2) {
        if (c == *p) {
            sb_putc(out, p[1]);
            t->i++;
            return ERRATA_OK;
        }
    }
    int digits = c == 'u' ? 4 : c == 'U' ? 8 : c == 'x' ? 2 : 0;
    if (!digits)
        return fail(t, t->line, "invalid escape \"\\%c\" in a string", c > ' ' ? c : '?');
    unsigned long cp = 0;
    for (int k = 1; k <= digits; k++) {
        int h = peek(t, (size_t)k);
        if (h < 0 || !isxdigit(h))
            return fail(t, t->line, "\"\\%c\" needs %d hex digits", c, digits);
        cp = cp * 16 + (unsigned long)(isdigit(h) ? h - '0' : tolower(h) - 'a' + 10);
    }
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return fail(t, t->line, "\"\\%c\" escape is not a Unicode scalar value", c);
    put_utf8(out, cp);
    t->i += (size_t)digits + 1;
    return ERRATA_OK;
}

/* Any of the four string forms, decoded into out; t->i at the opening quote. */
static errata_code parse_string(toml *t, strbuf *out)
{
    char q = t->s[t->i];
    int open_line = t->line;
    bool multi = peek(t, 1) == q && peek(t, 2) == q;
    t->i += multi ? 3 : 1;
    if (multi && peek(t, 0) == '\n') /* a newline right after the opening is trimmed */
        t->i++, t->line++;
    else if (multi && peek(t, 0) == '\r' && peek(t, 1) == '\n')
        t->i += 2, t->line++;
    for (;;) {
        int c = peek(t, 0);
        if (c < 0 || (!multi && c == '\n'))
            return fail(t, open_line, "string not closed");
        if (c == q) {
            if (!multi) {
                t->i++;
                return ERRATA_OK;
            }
            if (peek(t, 1) == q && peek(t, 2) == q) {
                /* Up to two quotes may end the content: """a"""" is a" */
                size_t extra = 0;
                while (extra < 2 && peek(t, 3 + extra) == q)
                    extra++;
                sb_append(out, t->s + t->i, extra);
                t->i += 3 + extra;
                return ERRATA_OK;
            }
        }
        if (c == '\\' && q == '"') {
            t->i++;
            if (multi && (peek(t, 0) == '\n' || peek(t, 0) == ' ' || peek(t, 0) == '\t' ||
                          peek(t, 0) == '\r')) {
                /* A line-ending backslash drops the newline and the blanks after it. */
                size_t save = t->i;
                int lines = 0;
                while (peek(t, 0) == ' ' || peek(t, 0) == '\t' || peek(t, 0) == '\r')
                    t->i++;
                if (peek(t, 0) != '\n') {
                    t->i = save;
                    return fail(t, t->line, "invalid escape \"\\ \" in a string");
                }
                while (peek(t, 0) == '\n' || peek(t, 0) == ' ' || peek(t, 0) == '\t' ||
                       peek(t, 0) == '\r')
                    lines += t->s[t->i++] == '\n';
                t->line += lines;
                continue;
            }
            errata_code rc = escape(t, out);
            if (rc != ERRATA_OK)
                return rc;
            continue;
        }
        if (c == '\n')
            t->line++;
        sb_putc(out, (char)c);
        t->i++;
    }
}

static bool is_bare_key_char(int c) { return c >= 0 && (isalnum(c) || c == '_' || c == '-'); }

/* A key, dotted parts joined with '.', into key; t->i at its start. */
static errata_code parse_key(toml *t, strbuf *key)
{
    key->len = 0;
    if (key->buf)
        key->buf[0] = '\0';
    for (;;) {
        skip_ws(t);
        int c = peek(t, 0);
        if (c == '"' || c == '\'') {
            strbuf part;
            sb_init(&part);
            errata_code rc = parse_string(t, &part);
            if (rc == ERRATA_OK && part.failed)
                rc = env_nomem(t->err, t->b->file);
            if (rc == ERRATA_OK)
                sb_append(key, part.buf ? part.buf : "", part.len);
            sb_free(&part);
            if (rc != ERRATA_OK)
                return rc;
        } else if (is_bare_key_char(c)) {
            size_t k = t->i;
            while (is_bare_key_char(peek(t, 0)))
                t->i++;
            sb_append(key, t->s + k, t->i - k);
        } else {
            return fail(t, t->line, "expected a key at \"%.*s\"",
                        (int)(t->n - t->i > 30 ? 30 : t->n - t->i), t->s + t->i);
        }
        skip_ws(t);
        if (peek(t, 0) != '.')
            return ERRATA_OK;
        t->i++;
        sb_putc(key, '.');
    }
}

static errata_code on_value(toml *t, const char *path, const strbuf *str, int line);

/* Any value; t->i at its start. path names it for on_value (NULL: nobody wants it). */
static errata_code parse_value(toml *t, int depth, const char *path)
{
    if (depth > MAX_DEPTH)
        return fail(t, t->line, "values nested more than %d deep", MAX_DEPTH);
    int c = peek(t, 0), line = t->line;
    errata_code rc = ERRATA_OK;
    if (c == '"' || c == '\'') {
        strbuf str;
        sb_init(&str);
        rc = parse_string(t, &str);
        if (rc == ERRATA_OK && str.failed)
            rc = env_nomem(t->err, t->b->file);
        if (rc == ERRATA_OK && path)
            rc = on_value(t, path, &str, line);
        sb_free(&str);
        return rc;
    }
    if (c == '[') {
        t->i++;
        for (;;) {
            skip_ws_nl(t);
            if (peek(t, 0) == ']')
                break;
            if (peek(t, 0) < 0)
                return fail(t, line, "array not closed");
            if ((rc = parse_value(t, depth + 1, NULL)) != ERRATA_OK)
                return rc;
            skip_ws_nl(t);
            if (peek(t, 0) == ',') {
                t->i++;
                continue;
            }
            if (peek(t, 0) == ']')
                break;
            if (peek(t, 0) < 0)
                return fail(t, line, "array not closed");
            return fail(t, t->line, "expected ',' or ']' in the array begun on line %d", line);
        }
        t->i++;
        return path ? on_value(t, path, NULL, line) : ERRATA_OK;
    }
    if (c == '{') {
        t->i++;
        strbuf key, sub;
        sb_init(&key);
        sb_init(&sub);
        skip_ws_nl(t);
        while (rc == ERRATA_OK && peek(t, 0) != '}') {
            if (peek(t, 0) < 0) {
                rc = fail(t, line, "inline table not closed");
                break;
            }
            if ((rc = parse_key(t, &key)) != ERRATA_OK)
                break;
            if (key.failed) {
                rc = env_nomem(t->err, t->b->file);
                break;
            }
            if (peek(t, 0) != '=') {
                rc = fail(t, t->line, "expected '=' after \"%s\"", key.buf);
                break;
            }
            t->i++;
            skip_ws(t);
            sub.len = 0;
            if (path)
                sb_printf(&sub, "%s.%s", path, key.buf);
            if (sub.failed || key.failed) {
                rc = env_nomem(t->err, t->b->file);
                break;
            }
            if ((rc = parse_value(t, depth + 1, path ? sub.buf : NULL)) != ERRATA_OK)
                break;
            skip_ws_nl(t);
            if (peek(t, 0) == ',') {
                t->i++;
                skip_ws_nl(t);
            } else if (peek(t, 0) != '}' && peek(t, 0) >= 0) {
                rc = fail(t, t->line, "expected ',' or '}' in the inline table begun on line %d",
                          line);
            }
        }
        if (rc == ERRATA_OK)
            t->i++;
        sb_free(&key);
        sb_free(&sub);
        return rc == ERRATA_OK && path ? on_value(t, path, NULL, line) : rc;
    }
    /* A number, boolean or date: read up to where a value ends. */
    size_t k = t->i;
    while (t->i < t->n && !strchr(" \t\r\n,]}#", t->s[t->i]))
        t->i++;
    /* A date and a time may be separated by a space: 1979-05-27 07:32:00Z */
    if (t->i - k == 10 && t->s[k + 4] == '-' && peek(t, 0) == ' ' && peek(t, 1) >= 0 &&
        isdigit(peek(t, 1))) {
        t->i++;
        while (t->i < t->n && !strchr(" \t\r\n,]}#", t->s[t->i]))
            t->i++;
    }
    if (t->i == k)
        return fail(t, line, "expected a value");
    for (size_t j = k; j < t->i; j++) {
        char ch = t->s[j];
        if (!isalnum((unsigned char)ch) && !strchr("+-_.: ", ch))
            return fail(t, line, "\"%.*s\" is not a TOML value",
                        (int)(t->i - k > 30 ? 30 : t->i - k), t->s + k);
    }
    return path ? on_value(t, path, NULL, line) : ERRATA_OK;
}

/* A value of the package being read (str NULL: not a string). */
static errata_code on_value(toml *t, const char *path, const strbuf *str, int line)
{
    if (!t->in_pkg)
        return ERRATA_OK;
    bool is_name = !strcmp(path, "name"), is_version = !strcmp(path, "version");
    if (is_name || is_version) {
        if (!str || !str->len)
            return fail(t, line, "the package's %s is not a non-empty string", path);
        char **dst = is_name ? &t->name : &t->version;
        free(*dst);
        if (!(*dst = env_strndup(str->buf, str->len)))
            return env_nomem(t->err, t->b->file);
        if (is_name)
            t->name_line = line;
        return ERRATA_OK;
    }
    if (!strcmp(path, "source.editable") || !strcmp(path, "source.virtual") ||
        !strcmp(path, "source.path") || !strcmp(path, "source.directory"))
        t->local = true;
    return ERRATA_OK;
}

/* Ends the [[package]] being read: it must have a name and, but for a uv project whose version
 * is dynamic, a version. */
static errata_code finish_package(toml *t)
{
    errata_code rc = ERRATA_OK;
    if (!t->pkg_open)
        return rc;
    if (!t->name)
        rc = fail(t, t->pkg_line, "[[package]] without a name");
    else if (t->version)
        rc = env_batch_add(t->b, t->name, strlen(t->name), t->version, strlen(t->version), t->eco,
                           t->name_line, 0, t->err);
    else if (!(t->uv && t->local))
        rc = fail(t, t->pkg_line, "[[package]] \"%s\" has no version", t->name);
    free(t->name);
    free(t->version);
    t->name = t->version = NULL;
    t->pkg_open = t->in_pkg = t->local = false;
    return rc;
}

/* "[table]" or "[[array]]"; t->i at '['. */
static errata_code header(toml *t, strbuf *key)
{
    int line = t->line;
    bool array = peek(t, 1) == '[';
    t->i += array ? 2 : 1;
    errata_code rc = parse_key(t, key);
    if (rc != ERRATA_OK)
        return rc;
    skip_ws(t);
    if (peek(t, 0) != ']' || (array && peek(t, 1) != ']'))
        return fail(t, line, "table header without closing '%s'", array ? "]]" : "]");
    t->i += array ? 2 : 1;
    if (!line_end(t))
        return fail(t, line, "unexpected text after the table header");
    if (key->failed)
        return env_nomem(t->err, t->b->file);
    bool pkg_sub = !strncmp(key->buf, "package.", 8);
    if (array && !strcmp(key->buf, "package")) {
        if ((rc = finish_package(t)) != ERRATA_OK)
            return rc;
        t->pkg_open = t->in_pkg = true;
        t->pkg_line = line;
    } else if (pkg_sub && t->pkg_open) {
        t->in_pkg = false; /* [package.dependencies] and the like */
    } else {
        rc = finish_package(t);
    }
    return rc;
}

errata_code env_parse_toml_lock(env_batch *b, const char *text, size_t len, env_ecosystem eco,
                                bool uv, errata_error *err)
{
    toml t = {.b = b, .s = text, .n = len, .line = 1, .err = err, .eco = eco, .uv = uv};
    strbuf key;
    sb_init(&key);
    errata_code rc = ERRATA_OK;
    while (rc == ERRATA_OK && t.i < t.n) {
        skip_ws(&t);
        skip_comment(&t);
        int c = peek(&t, 0);
        if (c < 0)
            break;
        if (c == '\n') {
            t.i++, t.line++;
            continue;
        }
        if (c == '[') {
            rc = header(&t, &key);
            continue;
        }
        int line = t.line;
        if ((rc = parse_key(&t, &key)) != ERRATA_OK)
            break;
        if (key.failed) {
            rc = env_nomem(err, b->file);
            break;
        }
        if (peek(&t, 0) != '=') {
            rc = fail(&t, line, "expected '=' after the key \"%s\"", key.buf);
            break;
        }
        t.i++;
        skip_ws(&t);
        if ((rc = parse_value(&t, 0, key.buf)) != ERRATA_OK)
            break;
        if (!line_end(&t))
            rc = fail(&t, t.line, "unexpected text after the value of \"%s\"", key.buf);
    }
    if (rc == ERRATA_OK)
        rc = finish_package(&t);
    free(t.name);
    free(t.version);
    sb_free(&key);
    return rc;
}
