/*
 * env_other.c — go.mod (the modules a Go module requires and the Go version it declares) and
 * os-release (which OS and release the machine runs).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "error.h"

/* ---------------------------------------------------------------- go.mod */

/* The directives go.mod may hold (https://go.dev/ref/mod#go-mod-file-grammar); only go and
 * require say versions, the others are read past. */
static const char *const go_directives[] = {
    "module", "go", "toolchain", "godebug", "require", "replace", "exclude", "retract", "tool",
    "ignore", NULL};

/* Splits s into up to max whitespace-separated words (quotes around a word removed). Returns
 * the number of words, max + 1 if there are more. */
static size_t words(const char *s, size_t n, const char **w, size_t *wn, size_t max)
{
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i == n)
            break;
        size_t k = i;
        if (s[i] == '"' || s[i] == '`') {
            const char *close = memchr(s + i + 1, s[i], n - i - 1);
            i = close ? (size_t)(close - s) + 1 : n;
        } else {
            while (i < n && s[i] != ' ' && s[i] != '\t')
                i++;
        }
        if (count == max)
            return max + 1;
        w[count] = s + k;
        wn[count] = i - k;
        if (wn[count] >= 2 && (*w[count] == '"' || *w[count] == '`'))
            w[count]++, wn[count] -= 2;
        count++;
    }
    return count;
}

/* "example.com/m v1.2.3" of a require line or block. */
static errata_code go_require(env_batch *b, const char *s, size_t n, int line, errata_error *err)
{
    const char *w[2];
    size_t wn[2];
    if (words(s, n, w, wn, 2) != 2)
        return env_syntax(err, b->file, line, "expected \"module/path v1.2.3\", got \"%.*s\"",
                          (int)(n > 60 ? 60 : n), s);
    if (wn[1] < 2 || w[1][0] != 'v' || !isdigit((unsigned char)w[1][1]))
        return env_syntax(err, b->file, line, "\"%.*s\" is not a module version", (int)wn[1], w[1]);
    return env_batch_add(b, w[0], wn[0], w[1], wn[1], ECO_GO, line, 0, err);
}

static size_t comment_start(const char *s, size_t n)
{
    const char *c = env_memstr(s, n, "//");
    return c ? (size_t)(c - s) : n;
}

errata_code env_parse_go_mod(env_batch *b, const char *text, size_t len, errata_error *err)
{
    env_lines it;
    const char *s;
    size_t n;
    int line, block_line = 0;
    bool in_block = false, block_require = false;
    errata_code rc = ERRATA_OK;
    env_lines_init(&it, text, len);
    while (rc == ERRATA_OK && env_lines_next(&it, &s, &n, &line)) {
        n = comment_start(s, n);
        env_trim(&s, &n);
        if (!n)
            continue;
        if (in_block) {
            if (n == 1 && *s == ')')
                in_block = false;
            else if (block_require)
                rc = go_require(b, s, n, line, err);
            continue;
        }
        size_t k = 0;
        while (k < n && s[k] != ' ' && s[k] != '\t' && s[k] != '(')
            k++;
        bool known = false;
        for (const char *const *d = go_directives; *d; d++)
            known |= strlen(*d) == k && !memcmp(*d, s, k);
        if (!known)
            return env_syntax(err, b->file, line, "unknown directive \"%.*s\"", (int)k, s);
        const char *rest = s + k;
        size_t rn = n - k;
        env_trim(&rest, &rn);
        if (rn == 1 && *rest == '(') {
            in_block = true;
            block_require = k == 7 && !memcmp(s, "require", 7);
            block_line = line;
        } else if (k == 7 && !memcmp(s, "require", 7)) {
            rc = go_require(b, rest, rn, line, err);
        } else if (k == 2 && !memcmp(s, "go", 2)) {
            if (!rn || !isdigit((unsigned char)*rest) || memchr(rest, ' ', rn))
                rc =
                    env_syntax(err, b->file, line, "expected \"go 1.22\", got \"%.*s\"", (int)n, s);
            else
                rc = env_batch_add(b, "go", 2, rest, rn, ECO_GO, line, 0, err);
        } else if (!rn) {
            rc = env_syntax(err, b->file, line, "\"%.*s\" without an argument", (int)k, s);
        }
    }
    if (rc == ERRATA_OK && in_block)
        rc = env_syntax(err, b->file, block_line, "block not closed with ')'");
    return rc;
}

/* ---------------------------------------------------------------- os-release */

/* A value as os-release(5) writes it: bare, or in single or double quotes with shell escapes. */
static errata_code os_value(env_batch *b, const char *v, size_t n, int line, char **out,
                            errata_error *err)
{
    char q = n ? *v : 0;
    if (q == '"' || q == '\'') {
        if (n < 2 || v[n - 1] != q)
            return env_syntax(err, b->file, line, "quote not closed");
        v++, n -= 2;
    }
    char *o = *out = malloc(n + 1);
    if (!o)
        return env_nomem(err, b->file);
    for (size_t i = 0; i < n; i++) {
        if (q == '"' && v[i] == '\\' && i + 1 < n && strchr("\"\\$`", v[i + 1]))
            i++;
        *o++ = v[i];
    }
    *o = '\0';
    return ERRATA_OK;
}

errata_code env_parse_os_release(env_batch *b, const char *text, size_t len, errata_error *err)
{
    env_lines it;
    const char *s;
    size_t n;
    int line, version_line = 0;
    errata_code rc = ERRATA_OK;
    env_lines_init(&it, text, len);
    while (rc == ERRATA_OK && env_lines_next(&it, &s, &n, &line)) {
        env_trim(&s, &n);
        if (!n || *s == '#')
            continue;
        size_t k = 0;
        while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_'))
            k++;
        if (!k || k == n || s[k] != '=')
            return env_syntax(err, b->file, line, "expected KEY=value, got \"%.*s\"",
                              (int)(n > 60 ? 60 : n), s);
        char **dst = k == 2 && !memcmp(s, "ID", 2)              ? &b->os_id
                     : k == 10 && !memcmp(s, "VERSION_ID", 10)  ? &b->os_version_id
                     : k == 11 && !memcmp(s, "PRETTY_NAME", 11) ? &b->os_pretty
                                                                : NULL;
        char *value;
        if ((rc = os_value(b, s + k + 1, n - k - 1, line, &value, err)) != ERRATA_OK)
            return rc;
        if (dst) {
            free(*dst);
            *dst = value;
            if (dst == &b->os_version_id)
                version_line = line;
        } else {
            free(value);
        }
    }
    /* os-release(5): without ID, "linux". */
    if (!b->os_id && !(b->os_id = env_strndup("linux", 5)))
        return env_nomem(err, b->file);
    if (*b->os_id && b->os_version_id && *b->os_version_id)
        rc = env_batch_add(b, b->os_id, strlen(b->os_id), b->os_version_id,
                           strlen(b->os_version_id), ECO_OS, version_line, 0, err);
    return rc;
}
