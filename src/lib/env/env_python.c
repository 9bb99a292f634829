/*
 * env_python.c — Python environments: `pip freeze` output and requirements files (one grammar:
 * pip writes the first in the syntax of the second) and `pip list --format=json`.
 *
 * Only exact pins say which version is installed: `name==1.2.3`, `name===1.2.3`, and a direct
 * reference to a wheel or sdist whose file name carries the version. A line that only
 * constrains (`name>=1.0`, `name`, `-r other.txt`, `-e git+…`, a URL to a source tree) is valid
 * and adds nothing; a line that is not valid requirement syntax is an error naming its line.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "error.h"
#include "strbuf.h"

/* Options a requirements file may hold on a line of their own. They say where packages come
 * from, not which versions are installed, so they are accepted and ignored. */
static const char *const line_options[] = {
    "-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url",
    "--extra-index-url", "--no-index", "-f", "--find-links", "--no-binary", "--only-binary",
    "--prefer-binary", "--require-hashes", "--pre", "--trusted-host", "--use-feature", NULL};

/* Options that may follow a requirement on its line. */
static const char *const req_options[] = {
    "--hash", "--global-option", "--install-option", "--config-settings", "-C", NULL};

static bool known(const char *const *list, const char *s, size_t n)
{
    for (; *list; list++)
        if (strlen(*list) == n && !memcmp(*list, s, n))
            return true;
    return false;
}

/* The option at the start of s: "--name" up to '=' or a space, or a two-letter "-x" (pip also
 * accepts "-rfile.txt"). */
static size_t option_len(const char *s, size_t n)
{
    if (n >= 2 && s[1] != '-')
        return 2;
    size_t k = 0;
    while (k < n && s[k] != '=' && s[k] != ' ' && s[k] != '\t')
        k++;
    return k;
}

static bool is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

static void skip_space(const char *s, size_t n, size_t *i)
{
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
        (*i)++;
}

static bool pep503_same(const char *a, size_t an, const char *b, size_t bn)
{
    char *x = env_normal_name(a, an, ECO_PYPI), *y = env_normal_name(b, bn, ECO_PYPI);
    bool same = x && y && !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

/* The version in a distribution's file name at the end of url: a wheel
 * (name-1.2.3[-build]-py3-none-any.whl) or an sdist (name-1.2.3.tar.gz). name (may be NULL for a
 * bare URL, then only a wheel tells it) must match the file's. Sets *name_out for a bare URL. */
static bool version_from_url(const char *url, size_t n, const char *name, size_t name_len,
                             const char **name_out, size_t *name_out_len, const char **ver,
                             size_t *ver_len)
{
    for (size_t i = 0; i < n; i++)
        if (url[i] == '#' || url[i] == '?')
            n = i;
    const char *file = url;
    for (size_t i = 0; i < n; i++)
        if (url[i] == '/' || url[i] == '\\')
            file = url + i + 1;
    size_t fn = (size_t)(url + n - file);
    static const char *const sdist[] = {".tar.gz", ".tar.bz2", ".tar.xz", ".tgz", ".zip", NULL};
    if (fn > 4 && !memcmp(file + fn - 4, ".whl", 4)) {
        const char *d1 = memchr(file, '-', fn);
        const char *d2 = d1 ? memchr(d1 + 1, '-', (size_t)(file + fn - d1 - 1)) : NULL;
        if (!d1 || !d2 || d1 == file || d2 == d1 + 1 || !isdigit((unsigned char)d1[1]))
            return false;
        if (name && !pep503_same(name, name_len, file, (size_t)(d1 - file)))
            return false;
        *name_out = file, *name_out_len = (size_t)(d1 - file);
        *ver = d1 + 1, *ver_len = (size_t)(d2 - d1 - 1);
        return true;
    }
    if (!name)
        return false;
    for (const char *const *x = sdist; *x; x++) {
        size_t xn = strlen(*x);
        if (fn <= xn || memcmp(file + fn - xn, *x, xn))
            continue;
        size_t stem = fn - xn;
        /* Old sdists keep '-' in the name, so try each '-' as the name's end. */
        for (size_t i = 1; i + 1 < stem; i++) {
            if (file[i] == '-' && isdigit((unsigned char)file[i + 1]) &&
                pep503_same(name, name_len, file, i)) {
                *name_out = name, *name_out_len = name_len;
                *ver = file + i + 1, *ver_len = stem - i - 1;
                return true;
            }
        }
    }
    return false;
}

static const char *const spec_ops[] = {"===", "==", "!=", "~=", "<=", ">=", "<", ">", NULL};

/* Parses "op version[, op version…]" in s; sets *pin to the version when it is exactly one
 * `==`/`===` without a wildcard. */
static errata_code parse_specs(env_batch *b, const char *s, size_t n, int line, const char **pin,
                               size_t *pin_len, errata_error *err)
{
    size_t i = 0, clauses = 0;
    const char *op = NULL;
    *pin = NULL;
    for (;;) {
        skip_space(s, n, &i);
        op = NULL;
        for (const char *const *o = spec_ops; *o; o++) {
            size_t on = strlen(*o);
            if (n - i >= on && !memcmp(s + i, *o, on)) {
                op = *o;
                break;
            }
        }
        if (!op)
            return env_syntax(err, b->file, line,
                              "expected a version specifier (==, >=, …) at \"%.*s\"",
                              (int)(n - i > 40 ? 40 : n - i), s + i);
        i += strlen(op);
        skip_space(s, n, &i);
        size_t v = i;
        bool arbitrary = !strcmp(op, "===");
        while (i < n && (arbitrary ? s[i] != ',' && s[i] != ' ' && s[i] != '\t'
                                   : isalnum((unsigned char)s[i]) || strchr(".*+!_-", s[i])))
            i++;
        if (i == v)
            return env_syntax(err, b->file, line, "missing version after '%s'", op);
        clauses++;
        if (clauses == 1 && (arbitrary || !strcmp(op, "==")) && !memchr(s + v, '*', i - v))
            *pin = s + v, *pin_len = i - v;
        skip_space(s, n, &i);
        if (i == n)
            break;
        if (s[i] != ',')
            return env_syntax(err, b->file, line, "unexpected \"%.*s\" in a version specifier",
                              (int)(n - i > 40 ? 40 : n - i), s + i);
        i++;
    }
    if (clauses != 1)
        *pin = NULL;
    return ERRATA_OK;
}

/* Checks the options after a requirement (" --hash=sha256:…"): each must be one pip knows. */
static errata_code check_req_options(env_batch *b, const char *s, size_t n, int line,
                                     errata_error *err)
{
    for (size_t i = 0; i < n;) {
        skip_space(s, n, &i);
        size_t t = i;
        while (i < n && s[i] != ' ' && s[i] != '\t')
            i++;
        if (t < i && s[t] == '-') {
            size_t on = option_len(s + t, i - t);
            if (!known(req_options, s + t, on))
                return env_syntax(err, b->file, line, "unknown option \"%.*s\" after a requirement",
                                  (int)on, s + t);
        }
    }
    return ERRATA_OK;
}

/* Where the requirement's own options start: the first " -" (pip requires a space before). */
static size_t options_start(const char *s, size_t n)
{
    for (size_t i = 1; i + 1 < n; i++)
        if ((s[i - 1] == ' ' || s[i - 1] == '\t') && s[i] == '-' &&
            (s[i + 1] == '-' || s[i + 1] == 'C'))
            return i;
    return n;
}

/* One requirement line without its comment, trimmed and non-empty. */
static errata_code parse_requirement(env_batch *b, const char *s, size_t n, int line,
                                     errata_error *err)
{
    size_t o = options_start(s, n);
    errata_code rc = check_req_options(b, s + o, n - o, line, err);
    if (rc != ERRATA_OK)
        return rc;
    n = o;
    /* An environment marker follows ';' (after a space when the requirement is a URL, which
     * may itself contain ';'). */
    bool url = env_memstr(s, n, "://") != NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ';' && (!url || (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t')))) {
            n = i;
            break;
        }
    }
    env_trim(&s, &n);
    const char *name_out, *ver;
    size_t name_out_len, ver_len;
    size_t i = 0;
    while (i < n && is_name_char(s[i]))
        i++;
    /* A URL or path with no name: only a wheel's file name says what it is. */
    if (i < n && (s[i] == ':' || s[i] == '/' || s[i] == '\\' || s[i] == '+')) {
        if (version_from_url(s, n, NULL, 0, &name_out, &name_out_len, &ver, &ver_len))
            return env_batch_add(b, name_out, name_out_len, ver, ver_len, ECO_PYPI, line, 0, err);
        return ERRATA_OK;
    }
    if (i == 0 || !isalnum((unsigned char)s[0]))
        return env_syntax(err, b->file, line, "expected a package name at \"%.*s\"",
                          (int)(n > 40 ? 40 : n), s);
    const char *name = s;
    size_t name_len = i;
    skip_space(s, n, &i);
    if (i < n && s[i] == '[') {
        const char *close = memchr(s + i, ']', n - i);
        if (!close)
            return env_syntax(err, b->file, line, "'[' of the extras is not closed");
        i = (size_t)(close - s) + 1;
        skip_space(s, n, &i);
    }
    if (i == n)
        return ERRATA_OK; /* a bare name: any version */
    if (s[i] == '@') {
        const char *u = s + i + 1;
        size_t un = n - i - 1;
        env_trim(&u, &un);
        if (!un)
            return env_syntax(err, b->file, line, "expected a URL after '@'");
        if (version_from_url(u, un, name, name_len, &name_out, &name_out_len, &ver, &ver_len))
            return env_batch_add(b, name, name_len, ver, ver_len, ECO_PYPI, line, 0, err);
        return ERRATA_OK; /* a source tree or VCS checkout: its version is not written here */
    }
    const char *spec = s + i;
    size_t spec_len = n - i;
    if (*spec == '(') {
        const char *close = memchr(spec, ')', spec_len);
        if (!close)
            return env_syntax(err, b->file, line, "'(' of the version specifier is not closed");
        size_t rest = spec_len - (size_t)(close - spec) - 1;
        const char *after = close + 1;
        env_trim(&after, &rest);
        if (rest)
            return env_syntax(err, b->file, line, "unexpected \"%.*s\" after ')'", (int)rest,
                              after);
        spec_len = (size_t)(close - spec) - 1;
        spec++;
    }
    const char *pin;
    size_t pin_len;
    rc = parse_specs(b, spec, spec_len, line, &pin, &pin_len, err);
    if (rc == ERRATA_OK && pin)
        rc = env_batch_add(b, name, name_len, pin, pin_len, ECO_PYPI, line, 0, err);
    return rc;
}

/* pip freeze writes an editable install it cannot name by VCS as a comment:
 * "# Editable install with no version control (name==1.0)". */
static errata_code editable_comment(env_batch *b, const char *s, size_t n, int line,
                                    errata_error *err)
{
    if (n < 12 || memcmp(s, "# Editable", 10) || s[n - 1] != ')')
        return ERRATA_OK;
    const char *open = NULL;
    for (size_t i = n - 1; i-- > 0;)
        if (s[i] == '(') {
            open = s + i;
            break;
        }
    if (!open)
        return ERRATA_OK;
    const char *in = open + 1;
    size_t in_len = (size_t)(s + n - 1 - in);
    const char *eq = env_memstr(in, in_len, "==");
    if (!eq || eq == in || eq + 2 == in + in_len)
        return ERRATA_OK;
    return env_batch_add(b, in, (size_t)(eq - in), eq + 2, (size_t)(in + in_len - eq - 2), ECO_PYPI,
                         line, 0, err);
}

/* A '#' at the start or after a space starts a comment (pip's rule: "a#b" is not one). */
static size_t comment_start(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t'))
            return i;
    return n;
}

static errata_code logical_line(env_batch *b, const char *s, size_t n, int line, errata_error *err)
{
    env_trim(&s, &n);
    if (n && *s == '#')
        return editable_comment(b, s, n, line, err);
    n = comment_start(s, n);
    env_trim(&s, &n);
    if (!n)
        return ERRATA_OK;
    if (*s == '-') {
        size_t on = option_len(s, n);
        if (!known(line_options, s, on))
            return env_syntax(err, b->file, line, "unknown option \"%.*s\"", (int)on, s);
        return ERRATA_OK;
    }
    return parse_requirement(b, s, n, line, err);
}

errata_code env_parse_requirements(env_batch *b, const char *text, size_t len, errata_error *err)
{
    env_lines it;
    const char *s;
    size_t n;
    int line, first = 0;
    strbuf joined; /* a line continued with '\' and its continuations */
    sb_init(&joined);
    errata_code rc = ERRATA_OK;
    env_lines_init(&it, text, len);
    while (rc == ERRATA_OK && env_lines_next(&it, &s, &n, &line)) {
        bool continued = n && s[n - 1] == '\\';
        if (continued || joined.len) {
            if (!joined.len)
                first = line;
            sb_append(&joined, s, continued ? n - 1 : n);
            if (continued)
                continue;
            if (joined.failed) {
                rc = env_nomem(err, b->file);
                break;
            }
            rc = logical_line(b, joined.buf, joined.len, first, err);
            joined.len = 0;
            continue;
        }
        rc = logical_line(b, s, n, line, err);
    }
    if (rc == ERRATA_OK && joined.len) /* a '\' on the last line continues nothing */
        rc = joined.failed ? env_nomem(err, b->file)
                           : logical_line(b, joined.buf, joined.len, first, err);
    sb_free(&joined);
    return rc;
}

/* ---------------------------------------------------------------- pip list --format=json */

errata_code env_parse_pip_list(env_batch *b, const char *text, size_t len, errata_error *err)
{
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    if (!root)
        return env_syntax(err, b->file, jerr.line, "invalid JSON: %s", jerr.text);
    errata_code rc = ERRATA_OK;
    if (!json_is_array(root)) {
        rc =
            env_syntax(err, b->file, 1, "expected a JSON array of {\"name\", \"version\"} objects");
        json_decref(root);
        return rc;
    }
    env_cursor cur = {text, len, 0, 1};
    size_t i;
    json_t *item;
    json_array_foreach(root, i, item)
    {
        json_t *name = json_object_get(item, "name"), *ver = json_object_get(item, "version");
        int line = json_is_string(name) ? env_cursor_find(&cur, json_string_value(name), "") : 0;
        if (!json_is_string(name) || !json_is_string(ver) || !json_string_length(name) ||
            !json_string_length(ver)) {
            rc = env_syntax(err, b->file, line,
                            "item %zu: expected {\"name\": \"…\", \"version\": \"…\"}", i + 1);
            break;
        }
        rc = env_batch_add(b, json_string_value(name), json_string_length(name),
                           json_string_value(ver), json_string_length(ver), ECO_PYPI, line, 0, err);
        if (rc != ERRATA_OK)
            break;
    }
    json_decref(root);
    return rc;
}
