/*
 * env_node.c — Node environments: package-lock.json (and npm-shrinkwrap.json) of every
 * lockfileVersion, yarn.lock of yarn 1 and of yarn 2+ ("berry"), and pnpm-lock.yaml.
 *
 * A project often holds several versions of one package. What its own code gets is the one at
 * the top of node_modules, so that one wins: npm says which (the shortest node_modules path),
 * pnpm says which through the project's direct dependencies ("importers"); yarn.lock does not
 * say, so there the highest version wins. The project itself (npm's "" entry, yarn's
 * "@workspace:" entries, pnpm's links) is not a dependency and is left out.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "error.h"

/* ---------------------------------------------------------------- package-lock.json */

static int count_node_modules(const char *path, const char **last)
{
    int n = 0;
    *last = NULL;
    for (const char *p = path; (p = strstr(p, "node_modules/")); p += 13) {
        if (p == path || p[-1] == '/') {
            n++;
            *last = p + 13;
        }
    }
    return n;
}

/* lockfileVersion 2 and 3: "packages", keyed by install path. */
static errata_code npm_packages(env_batch *b, json_t *packages, env_cursor *cur, errata_error *err)
{
    const char *key;
    json_t *val;
    json_object_foreach(packages, key, val)
    {
        if (!*key)
            continue; /* the project itself */
        const char *name;
        int depth = count_node_modules(key, &name);
        int line = env_cursor_find(cur, key, ":{");
        if (!json_is_object(val))
            return env_syntax(err, b->file, line, "packages[\"%s\"]: expected an object", key);
        if (!depth || !*name)
            continue; /* a workspace folder: the project's own package */
        json_t *ver = json_object_get(val, "version"), *real = json_object_get(val, "name");
        if (!ver) {
            if (json_is_true(json_object_get(val, "link")))
                continue; /* a symlink to a workspace folder, listed under its own key */
            return env_syntax(err, b->file, line, "packages[\"%s\"] has no version", key);
        }
        if (!json_is_string(ver) || !json_string_length(ver))
            return env_syntax(err, b->file, line, "packages[\"%s\"].version is not a version", key);
        /* An alias (npm install foo@npm:bar) names the real package in "name". */
        if (json_is_string(real) && json_string_length(real))
            name = json_string_value(real);
        errata_code rc = env_batch_add(b, name, strlen(name), json_string_value(ver),
                                       json_string_length(ver), ECO_NPM, line, -depth, err);
        if (rc != ERRATA_OK)
            return rc;
    }
    return ERRATA_OK;
}

/* lockfileVersion 1: "dependencies", a tree of nested "dependencies". */
static errata_code npm_tree(env_batch *b, json_t *deps, int depth, env_cursor *cur,
                            errata_error *err)
{
    const char *key;
    json_t *val;
    json_object_foreach(deps, key, val)
    {
        int line = env_cursor_find(cur, key, ":{");
        if (!json_is_object(val))
            return env_syntax(err, b->file, line, "dependencies[\"%s\"]: expected an object", key);
        json_t *ver = json_object_get(val, "version");
        if (!json_is_string(ver) || !json_string_length(ver))
            return env_syntax(err, b->file, line, "dependencies[\"%s\"] has no version", key);
        const char *v = json_string_value(ver), *name = key;
        size_t name_len = strlen(key);
        /* "npm:real-name@1.2.3" for an alias; git, file and URL sources have no registry
         * version and are left out. */
        if (!strncmp(v, "npm:", 4)) {
            const char *at = strchr(v + 5, '@');
            if (at) {
                name = v + 4;
                name_len = (size_t)(at - name);
                v = at + 1;
            }
        }
        errata_code rc = ERRATA_OK;
        if (isdigit((unsigned char)*v))
            rc = env_batch_add(b, name, name_len, v, strlen(v), ECO_NPM, line, -depth, err);
        json_t *sub = json_object_get(val, "dependencies");
        if (rc == ERRATA_OK && sub) {
            if (!json_is_object(sub))
                return env_syntax(err, b->file, line,
                                  "dependencies[\"%s\"].dependencies: expected an object", key);
            rc = npm_tree(b, sub, depth + 1, cur, err);
        }
        if (rc != ERRATA_OK)
            return rc;
    }
    return ERRATA_OK;
}

errata_code env_parse_npm_lock(env_batch *b, const char *text, size_t len, errata_error *err)
{
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    if (!root)
        return env_syntax(err, b->file, jerr.line, "invalid JSON: %s", jerr.text);
    errata_code rc = ERRATA_OK;
    env_cursor at = {text, len, 0, 1};
    json_t *v = json_is_object(root) ? json_object_get(root, "lockfileVersion") : NULL;
    int vline = env_cursor_find(&at, "lockfileVersion", ":");
    json_t *packages = json_object_get(root, "packages");
    json_t *deps = json_object_get(root, "dependencies");
    env_cursor cur = {text, len, 0, 1};
    if (!json_is_object(root)) {
        rc = env_syntax(err, b->file, 1, "expected a JSON object (a package-lock.json)");
    } else if (!json_is_integer(v)) {
        rc = env_syntax(err, b->file, vline, "no integer lockfileVersion: not a package-lock.json");
    } else if (json_integer_value(v) == 2 || json_integer_value(v) == 3) {
        if (!json_is_object(packages))
            rc = env_syntax(err, b->file, vline, "lockfileVersion %d without a \"packages\" object",
                            (int)json_integer_value(v));
        else
            rc = npm_packages(b, packages, &cur, err);
    } else if (json_integer_value(v) == 1) {
        if (deps && !json_is_object(deps))
            rc = env_syntax(err, b->file, vline, "\"dependencies\" is not an object");
        else if (deps)
            rc = npm_tree(b, deps, 0, &cur, err);
    } else {
        rc = env_syntax(err, b->file, vline,
                        "lockfileVersion %lld is not supported (1, 2 and 3 are)",
                        (long long)json_integer_value(v));
    }
    json_decref(root);
    return rc;
}

/* ---------------------------------------------------------------- yarn.lock */

/* The package name of a spec: "@scope/pkg@^1.0.0" -> "@scope/pkg", "pkg@npm:^1" -> "pkg". */
static bool spec_name(const char *s, size_t n, size_t *name_len)
{
    const char *at = n > 1 ? memchr(s + 1, '@', n - 1) : NULL;
    if (!at)
        return false;
    *name_len = (size_t)(at - s);
    return true;
}

typedef struct {
    bool open, skip;
    int line;
    const char *name; /* into the text */
    size_t name_len;
    const char *version;
    size_t version_len;
} yarn_entry;

static errata_code yarn_finish(env_batch *b, yarn_entry *e, errata_error *err)
{
    errata_code rc = ERRATA_OK;
    if (e->open && !e->skip) {
        if (!e->version)
            rc = env_syntax(err, b->file, e->line, "entry \"%.*s\" has no version",
                            (int)e->name_len, e->name);
        else if (!(e->version_len == 15 && !memcmp(e->version, "0.0.0-use.local", 15)))
            rc = env_batch_add(b, e->name, e->name_len, e->version, e->version_len, ECO_NPM,
                               e->line, 0, err);
    }
    memset(e, 0, sizeof *e);
    return rc;
}

/* The header of an entry: `pkg@^1.0.0, pkg@~1.1:` (v1: each spec may be quoted) or
 * `"pkg@npm:^1.0.0, pkg@npm:~1.1":` (berry: the whole list quoted). */
static errata_code yarn_header(env_batch *b, const char *s, size_t n, int line, yarn_entry *e,
                               errata_error *err)
{
    if (n < 2 || s[n - 1] != ':')
        return env_syntax(err, b->file, line,
                          "expected an entry header \"package@range:\", got \"%.*s\"",
                          (int)(n > 40 ? 40 : n), s);
    n--;
    const char *comma = memchr(s, ',', n);
    if (comma)
        n = (size_t)(comma - s);
    env_trim(&s, &n);
    while (n && (*s == '"' || *s == '\''))
        s++, n--;
    while (n && (s[n - 1] == '"' || s[n - 1] == '\''))
        n--;
    e->open = true;
    e->line = line;
    if (n == 10 && !memcmp(s, "__metadata", 10)) {
        e->skip = true;
        return ERRATA_OK;
    }
    if (!spec_name(s, n, &e->name_len))
        return env_syntax(err, b->file, line, "\"%.*s\" is not package@range", (int)n, s);
    e->name = s;
    e->skip = env_memstr(s, n, "@workspace:") != NULL;
    /* An alias ("my-ms@npm:ms@^2.1.1") names its real package after "npm:", as npm and pnpm
     * do: a record about ms is about it. */
    const char *real = s + e->name_len + 5;
    size_t real_len, rest = n - e->name_len;
    if (rest > 5 && !memcmp(s + e->name_len, "@npm:", 5) && spec_name(real, rest - 5, &real_len)) {
        e->name = real;
        e->name_len = real_len;
    }
    return ERRATA_OK;
}

errata_code env_parse_yarn_lock(env_batch *b, const char *text, size_t len, errata_error *err)
{
    env_lines it;
    const char *s;
    size_t n;
    int line;
    yarn_entry e = {0};
    errata_code rc = ERRATA_OK;
    env_lines_init(&it, text, len);
    while (rc == ERRATA_OK && env_lines_next(&it, &s, &n, &line)) {
        const char *t = s;
        size_t tn = n;
        env_trim(&t, &tn);
        if (!tn || *t == '#')
            continue;
        if (*s != ' ' && *s != '\t') {
            if ((rc = yarn_finish(b, &e, err)) == ERRATA_OK)
                rc = yarn_header(b, t, tn, line, &e, err);
            continue;
        }
        if (!e.open) {
            rc = env_syntax(err, b->file, line, "indented line before any entry");
            break;
        }
        /* The entry's own fields are indented by two; deeper lines are its dependencies. */
        if (n < 3 || s[0] != ' ' || s[1] != ' ' || s[2] == ' ' || tn < 8 ||
            memcmp(t, "version", 7) || (t[7] != ' ' && t[7] != ':' && t[7] != '\t'))
            continue;
        const char *v = t + 7;
        size_t vn = tn - 7;
        if (*v == ':')
            v++, vn--;
        env_trim(&v, &vn);
        if (vn >= 2 && (*v == '"' || *v == '\'') && v[vn - 1] == *v)
            v++, vn -= 2;
        if (!vn)
            rc = env_syntax(err, b->file, line, "empty version");
        e.version = v;
        e.version_len = vn;
    }
    if (rc == ERRATA_OK)
        rc = yarn_finish(b, &e, err);
    return rc;
}

/* ---------------------------------------------------------------- pnpm-lock.yaml */

typedef enum { SEC_OTHER, SEC_IMPORTERS, SEC_DEPS, SEC_PACKAGES } pnpm_section;

typedef struct {
    env_batch *b;
    errata_error *err;
    int major; /* lockfileVersion's, 0 before it is read */
    pnpm_section sec;
    int importer_rank; /* 2 for the root project ".", 1 for other workspace projects */
    bool in_group;     /* under an importer's dependencies/devDependencies/optional… */
    const char *dep;   /* the dependency whose "version:" comes next (v6, v9) */
    size_t dep_len;
    int dep_line;
    /* The packages: entry being read; "version:" inside it overrides its key. */
    bool pkg_open;
    int pkg_line;
    const char *pkg_name, *pkg_ver;
    size_t pkg_name_len, pkg_ver_len;
} pnpm;

/* A YAML scalar without its quotes. */
static void unquote(const char **s, size_t *n)
{
    env_trim(s, n);
    if (*n >= 2 && (**s == '\'' || **s == '"') && (*s)[*n - 1] == **s)
        (*s)++, *n -= 2;
}

/* Splits a "key: value" line (already without its indentation). False if it is not one. */
static bool yaml_pair(const char *s, size_t n, const char **k, size_t *kn, const char **v,
                      size_t *vn)
{
    size_t i = 0;
    if (*s == '\'' || *s == '"') {
        const char *close = n > 1 ? memchr(s + 1, *s, n - 1) : NULL;
        if (!close)
            return false;
        i = (size_t)(close - s) + 1;
        if (i >= n || s[i] != ':')
            return false;
    } else {
        while (i < n && !(s[i] == ':' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t')))
            i++;
        if (i == n || i == 0)
            return false;
    }
    *k = s, *kn = i;
    unquote(k, kn);
    *v = s + i + 1, *vn = n - i - 1;
    unquote(v, vn);
    return true;
}

/* A version as pnpm writes it, without its peer suffix: "18.2.0(react@18.2.0)" (v6+) or
 * "1.0.0_react@18.2.0" (v5). False for links, files and URLs, which have none. */
static bool clean_version(const char **v, size_t *vn)
{
    if (!*vn || !isdigit((unsigned char)**v))
        return false;
    for (size_t i = 0; i < *vn; i++)
        if ((*v)[i] == '(' || (*v)[i] == '_') {
            *vn = i;
            break;
        }
    return *vn > 0;
}

static errata_code pnpm_add(pnpm *p, const char *name, size_t name_len, const char *v, size_t vn,
                            int line, int rank)
{
    /* An alias names its real package: "npm:bar@1.0.0" (v5), "/bar@1.0.0" (v6), "bar@1.0.0". */
    if (vn && !isdigit((unsigned char)*v)) {
        const char *a = v;
        size_t an = vn;
        if (an > 4 && !memcmp(a, "npm:", 4))
            a += 4, an -= 4;
        if (an && *a == '/')
            a++, an--;
        const char *at = an > 1 ? memchr(a + 1, '@', an - 1) : NULL;
        if (at && isdigit((unsigned char)at[1]) && !memchr(a, ':', (size_t)(at - a))) {
            name = a, name_len = (size_t)(at - a);
            vn = an - (size_t)(at - a) - 1, v = at + 1;
        }
    }
    if (!clean_version(&v, &vn))
        return ERRATA_OK;
    return env_batch_add(p->b, name, name_len, v, vn, ECO_NPM, line, rank, p->err);
}

/* Ends the packages: entry being read. */
static errata_code pnpm_flush(pnpm *p)
{
    errata_code rc = ERRATA_OK;
    if (p->pkg_open && p->pkg_name && p->pkg_ver)
        rc = pnpm_add(p, p->pkg_name, p->pkg_name_len, p->pkg_ver, p->pkg_ver_len, p->pkg_line, 0);
    p->pkg_open = false;
    p->pkg_name = p->pkg_ver = NULL;
    return rc;
}

/* A packages: key: "/pkg/1.2.3" (v5), "/@scope/pkg@1.2.3(peer@1)" (v6), "pkg@1.2.3" (v9). */
static void pnpm_key(pnpm *p, const char *k, size_t kn)
{
    if (kn && *k == '/')
        k++, kn--;
    const char *sep = NULL;
    if (p->major == 5) {
        /* the version follows the last '/' of the path before any peer suffix */
        size_t end = kn;
        for (size_t i = 0; i < kn; i++)
            if (k[i] == '_' || k[i] == '(') {
                end = i;
                break;
            }
        for (size_t i = end; i-- > 1;)
            if (k[i] == '/') {
                sep = k + i;
                break;
            }
    } else {
        for (size_t i = 1; i < kn && k[i] != '('; i++)
            if (k[i] == '@') {
                sep = k + i;
                break;
            }
    }
    p->pkg_open = true;
    if (sep) {
        p->pkg_name = k, p->pkg_name_len = (size_t)(sep - k);
        p->pkg_ver = sep + 1, p->pkg_ver_len = kn - (size_t)(sep - k) - 1;
    }
}

static errata_code pnpm_version_field(pnpm *p, const char *v, size_t vn, int line)
{
    if (!vn)
        return env_syntax(p->err, p->b->file, line, "empty version");
    if (!sscanf(v, "%d", &p->major) || p->major < 5 || p->major > 9)
        return env_syntax(p->err, p->b->file, line,
                          "lockfileVersion %.*s is not supported (5.x to 9.x are)", (int)vn,
                          v);
    return ERRATA_OK;
}

static errata_code pnpm_line(pnpm *p, int indent, const char *s, size_t n, int line)
{
    const char *k, *v;
    size_t kn, vn;
    bool pair = yaml_pair(s, n, &k, &kn, &v, &vn);
    if (indent == 0) {
        errata_code rc = pnpm_flush(p);
        if (rc != ERRATA_OK)
            return rc;
        if (!pair)
            return env_syntax(p->err, p->b->file, line, "expected \"key: value\", got \"%.*s\"",
                              (int)(n > 40 ? 40 : n), s);
        if (kn == 15 && !memcmp(k, "lockfileVersion", 15))
            return pnpm_version_field(p, v, vn, line);
        if (!p->major)
            return env_syntax(p->err, p->b->file, line,
                              "no lockfileVersion before \"%.*s\": not a pnpm-lock.yaml", (int)kn,
                              k);
        p->in_group = false;
        p->dep = NULL;
        if (kn == 9 && !memcmp(k, "importers", 9))
            p->sec = SEC_IMPORTERS;
        else if (kn == 8 && !memcmp(k, "packages", 8))
            p->sec = SEC_PACKAGES;
        else if ((kn == 12 && !memcmp(k, "dependencies", 12)) ||
                 (kn == 15 && !memcmp(k, "devDependencies", 15)) ||
                 (kn == 20 && !memcmp(k, "optionalDependencies", 20)))
            p->sec = SEC_DEPS;
        else
            p->sec = SEC_OTHER;
        return ERRATA_OK;
    }
    if (p->sec == SEC_OTHER || *s == '-')
        return ERRATA_OK;
    /* Levels this reader interprets must be "key: value"; deeper ones are not its business. */
    int depth_used = p->sec == SEC_IMPORTERS ? 8 : 4;
    if (!pair) {
        if (indent <= depth_used)
            return env_syntax(p->err, p->b->file, line, "expected \"key: value\", got \"%.*s\"",
                              (int)(n > 40 ? 40 : n), s);
        return ERRATA_OK;
    }
    if (p->sec == SEC_DEPS) {
        /* v5: "  name: 1.2.3"; v6: "  name:" then "    version: 1.2.3". */
        if (indent == 2) {
            p->dep = k, p->dep_len = kn, p->dep_line = line;
            return vn ? pnpm_add(p, k, kn, v, vn, line, 2) : ERRATA_OK;
        }
        if (indent == 4 && p->dep && kn == 7 && !memcmp(k, "version", 7))
            return pnpm_add(p, p->dep, p->dep_len, v, vn, p->dep_line, 2);
        return ERRATA_OK;
    }
    if (p->sec == SEC_IMPORTERS) {
        if (indent == 2) {
            p->importer_rank = kn == 1 && *k == '.' ? 2 : 1;
            p->in_group = false;
        } else if (indent == 4) {
            p->in_group = (kn == 12 && !memcmp(k, "dependencies", 12)) ||
                          (kn == 15 && !memcmp(k, "devDependencies", 15)) ||
                          (kn == 20 && !memcmp(k, "optionalDependencies", 20));
            p->dep = NULL;
        } else if (indent == 6 && p->in_group) {
            p->dep = k, p->dep_len = kn, p->dep_line = line;
            if (vn)
                return pnpm_add(p, k, kn, v, vn, line, p->importer_rank);
        } else if (indent == 8 && p->in_group && p->dep && kn == 7 && !memcmp(k, "version", 7)) {
            return pnpm_add(p, p->dep, p->dep_len, v, vn, p->dep_line, p->importer_rank);
        }
        return ERRATA_OK;
    }
    /* SEC_PACKAGES */
    if (indent == 2) {
        errata_code rc = pnpm_flush(p);
        if (rc == ERRATA_OK) {
            p->pkg_line = line;
            pnpm_key(p, k, kn);
        }
        return rc;
    }
    if (indent == 4 && p->pkg_open) {
        /* git and tarball dependencies say their name and version inside */
        if (kn == 7 && !memcmp(k, "version", 7) && vn)
            p->pkg_ver = v, p->pkg_ver_len = vn;
        else if (kn == 4 && !memcmp(k, "name", 4) && vn)
            p->pkg_name = v, p->pkg_name_len = vn;
    }
    return ERRATA_OK;
}

errata_code env_parse_pnpm_lock(env_batch *b, const char *text, size_t len, errata_error *err)
{
    pnpm p = {.b = b, .err = err};
    env_lines it;
    const char *s;
    size_t n;
    int line;
    errata_code rc = ERRATA_OK;
    env_lines_init(&it, text, len);
    while (rc == ERRATA_OK && env_lines_next(&it, &s, &n, &line)) {
        int indent = 0;
        while ((size_t)indent < n && s[indent] == ' ')
            indent++;
        const char *t = s + indent;
        size_t tn = n - (size_t)indent;
        bool tab = tn && *t == '\t';
        env_trim(&t, &tn);
        if (!tn || *t == '#')
            continue;
        if (tab) {
            rc = env_syntax(err, b->file, line,
                            "a tab in the indentation (YAML allows spaces only)");
            break;
        }
        if (indent == 0 && tn == 3 && !memcmp(t, "---", 3))
            continue;
        rc = pnpm_line(&p, indent, t, tn, line);
    }
    if (rc == ERRATA_OK)
        rc = pnpm_flush(&p);
    if (rc == ERRATA_OK && !p.major)
        rc = env_syntax(err, b->file, 0, "no lockfileVersion: not a pnpm-lock.yaml");
    return rc;
}
