/*
 * env.c — the environment model: packages and how a name finds one, --env-set, the batch every
 * parser fills and its commit, versions compared, and the text helpers the parsers share.
 * Choosing a file's format is env_load.c; the formats themselves are env_python.c,
 * env_node.c, env_toml.c and env_other.c; asking the machine is env_probe.c.
 */
#include "env.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"

static const char *const eco_names[] = {"pypi", "npm", "cargo", "go", "os", "tool"};
#define N_ECO (sizeof eco_names / sizeof *eco_names)

const char *env_ecosystem_name(env_ecosystem eco)
{
    return (unsigned)eco < N_ECO ? eco_names[eco] : "unknown";
}

/* "npm:debug" -> ECO_NPM, *name advanced to "debug". -1 (name unchanged) without a known
 * prefix; no package name of any ecosystem contains ':', so the prefix is unambiguous. */
static int eco_prefix(const char **name)
{
    const char *colon = strchr(*name, ':');
    if (!colon)
        return -1;
    size_t n = (size_t)(colon - *name);
    for (size_t i = 0; i < N_ECO; i++) {
        if (strlen(eco_names[i]) == n && strncasecmp(*name, eco_names[i], n) == 0) {
            *name = colon + 1;
            return (int)i;
        }
    }
    return -1;
}

void env_init(environment *env) { memset(env, 0, sizeof *env); }

void env_free(environment *env)
{
    if (!env)
        return;
    for (size_t i = 0; i < env->n; i++) {
        free(env->pkgs[i].name);
        free(env->pkgs[i].version);
        free(env->pkgs[i].source);
    }
    free(env->pkgs);
    free(env->os_id);
    free(env->os_version_id);
    free(env->os_pretty);
    env_init(env);
}

/* ---------------------------------------------------------------- names */

/* The next character of a PEP 503 normalised name: lower case, a run of '-', '_' and '.' as
 * one '-'. 0 at the end. */
static int pep503_next(const char **p)
{
    const char *s = *p;
    if (!*s)
        return 0;
    if (*s == '-' || *s == '_' || *s == '.') {
        while (*s == '-' || *s == '_' || *s == '.')
            s++;
        *p = s;
        return '-';
    }
    *p = s + 1;
    return tolower((unsigned char)*s);
}

static bool pep503_equal(const char *a, const char *b)
{
    for (;;) {
        int x = pep503_next(&a), y = pep503_next(&b);
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

static bool name_matches(const env_package *p, const char *name)
{
    switch (p->eco) {
    case ECO_PYPI: return pep503_equal(p->name, name);
    case ECO_NPM: return strcmp(p->name, name) == 0;
    default: return strcasecmp(p->name, name) == 0;
    }
}

const env_package *env_find(const environment *env, const char *name)
{
    if (!env || !name)
        return NULL;
    int eco = eco_prefix(&name);
    for (size_t i = env->n; i-- > 0;) {
        const env_package *p = &env->pkgs[i];
        if ((eco < 0 || p->eco == (env_ecosystem)eco) && name_matches(p, name))
            return p;
    }
    return NULL;
}

char *env_normal_name(const char *name, size_t len, env_ecosystem eco)
{
    char *k = env_strndup(name, len); /* a normal name is never longer */
    if (!k)
        return NULL;
    if (eco == ECO_PYPI) {
        const char *p = k;
        size_t n = 0;
        for (int c; (c = pep503_next(&p));)
            k[n++] = (char)c;
        k[n] = '\0';
    } else if (eco != ECO_NPM) {
        for (char *p = k; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    }
    return k;
}

/* ---------------------------------------------------------------- versions */

version_scheme env_version_scheme(env_ecosystem eco)
{
    switch (eco) {
    case ECO_PYPI: return VSCHEME_PEP440;
    case ECO_NPM:
    case ECO_CARGO:
    case ECO_GO: return VSCHEME_SEMVER;
    case ECO_OS:
    case ECO_TOOL: break;
    }
    return VSCHEME_GENERIC;
}

const char *env_comparable_version(env_ecosystem eco, const char *v)
{
    return eco == ECO_GO && v[0] == 'v' ? v + 1 : v;
}

int env_version_order(env_ecosystem eco, const char *a, const char *b)
{
    bool ok;
    int c = version_compare(env_version_scheme(eco), env_comparable_version(eco, a),
                            env_comparable_version(eco, b), &ok);
    if (!ok)
        c = version_compare(VSCHEME_GENERIC, a, b, &ok);
    return ok ? c : strcmp(a, b);
}

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

/* ---------------------------------------------------------------- batches */

errata_code env_batch_add(env_batch *b, const char *name, size_t name_len, const char *version,
                          size_t version_len, env_ecosystem eco, int line, int rank,
                          errata_error *err)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        env_entry *v = realloc(b->v, cap * sizeof *v);
        if (!v)
            return env_nomem(err, b->file);
        b->v = v;
        b->cap = cap;
    }
    env_entry *e = &b->v[b->n];
    e->name = env_strndup(name, name_len);
    e->version = env_strndup(version, version_len);
    if (!e->name || !e->version) {
        free(e->name);
        free(e->version);
        return env_nomem(err, b->file);
    }
    e->eco = eco;
    e->line = line;
    e->rank = rank;
    e->seq = b->n++;
    return ERRATA_OK;
}

void env_batch_free(env_batch *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->v[i].name);
        free(b->v[i].version);
    }
    free(b->v);
    free(b->os_id);
    free(b->os_version_id);
    free(b->os_pretty);
    b->v = NULL;
    b->n = b->cap = 0;
    b->os_id = b->os_version_id = b->os_pretty = NULL;
}

typedef struct {
    char *key;
    env_ecosystem eco;
    size_t i;
} keyed;

static int keyed_cmp(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->eco != b->eco)
        return a->eco < b->eco ? -1 : 1;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    return (a->i > b->i) - (a->i < b->i);
}

/* Whether entry i should be kept over entry j (both of one name, i read after j). */
static bool better(const env_batch *b, size_t i, size_t j)
{
    const env_entry *x = &b->v[i], *y = &b->v[j];
    if (x->rank != y->rank)
        return x->rank > y->rank;
    if (b->pick == ENV_PICK_HIGHEST) {
        int c = env_version_order(x->eco, x->version, y->version);
        if (c)
            return c > 0;
    }
    return true;
}

static char *make_source(const env_batch *b, int line)
{
    if (b->no_line || line <= 0)
        return env_strndup(b->file, strlen(b->file));
    size_t n = strlen(b->file) + 24;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s:%d", b->file, line);
    return s;
}

static void replace(char **dst, char **src)
{
    free(*dst);
    *dst = *src;
    *src = NULL;
}

/* Keeps one entry per name (see better()), then appends them in reading order. Everything that
 * can fail is allocated before env changes, so env gets the whole batch or nothing. */
errata_code env_commit(environment *env, env_batch *b, errata_error *err)
{
    size_t n = b->n, kept = 0;
    keyed *k = calloc(n ? n : 1, sizeof *k);
    bool *keep = calloc(n ? n : 1, sizeof *keep);
    char **src = calloc(n ? n : 1, sizeof *src);
    errata_code rc = ERRATA_OK;
    if (!k || !keep || !src) {
        rc = env_nomem(err, b->file);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        k[i] = (keyed){env_normal_name(b->v[i].name, strlen(b->v[i].name), b->v[i].eco),
                       b->v[i].eco, i};
        if (!k[i].key) {
            rc = env_nomem(err, b->file);
            goto done;
        }
    }
    qsort(k, n, sizeof *k, keyed_cmp);
    for (size_t g = 0; g < n;) {
        size_t best = k[g].i, e = g + 1;
        for (; e < n && k[e].eco == k[g].eco && strcmp(k[e].key, k[g].key) == 0; e++)
            if (better(b, k[e].i, best))
                best = k[e].i;
        keep[best] = true;
        kept++;
        g = e;
    }
    if (env->n + kept > env->cap) {
        size_t cap = env->cap ? env->cap : 16;
        while (cap < env->n + kept)
            cap *= 2;
        env_package *p = realloc(env->pkgs, cap * sizeof *p);
        if (!p) {
            rc = env_nomem(err, b->file);
            goto done;
        }
        env->pkgs = p;
        env->cap = cap;
    }
    for (size_t i = 0; i < n; i++) {
        if (keep[i] && !(src[i] = make_source(b, b->v[i].line))) {
            rc = env_nomem(err, b->file);
            goto done;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        env_entry *e = &b->v[i];
        env->pkgs[env->n++] = (env_package){e->name, e->version, e->eco, src[i]};
        e->name = e->version = src[i] = NULL;
    }
    if (b->os_id || b->os_version_id || b->os_pretty) {
        replace(&env->os_id, &b->os_id);
        replace(&env->os_version_id, &b->os_version_id);
        replace(&env->os_pretty, &b->os_pretty);
    }
done:
    for (size_t i = 0; k && i < n; i++)
        free(k[i].key);
    for (size_t i = 0; src && i < n; i++)
        free(src[i]);
    free(k);
    free(keep);
    free(src);
    return rc;
}

/* ---------------------------------------------------------------- --env-set */

static bool has_space_or_control(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
            return true;
    return false;
}

errata_code env_set(environment *env, const char *assignment, errata_error *err)
{
    const char *s = assignment ? assignment : "";
    while (*s == ' ' || *s == '\t')
        s++;
    int eco = eco_prefix(&s);
    const char *eq = strchr(s, '=');
    if (!eq)
        return set_error(err, ERRATA_ERR_ARG,
                         "--env-set \"%s\": expected name=version or name==version",
                         assignment ? assignment : "");
    const char *name = s, *ver = eq + 1;
    size_t name_len = (size_t)(eq - s);
    while (*ver == '=')
        ver++;
    size_t ver_len = strlen(ver);
    env_trim(&name, &name_len);
    env_trim(&ver, &ver_len);
    if (!name_len || has_space_or_control(name, name_len) || memchr(name, ':', name_len))
        return set_error(err, ERRATA_ERR_ARG, "--env-set \"%s\": the package name is %s",
                         assignment, name_len ? "not a single word" : "missing");
    if (!ver_len || has_space_or_control(ver, ver_len))
        return set_error(err, ERRATA_ERR_ARG, "--env-set \"%s\": the version is %s", assignment,
                         ver_len ? "not a single word" : "missing");
    env_batch b = {.file = "--env-set", .no_line = true, .pick = ENV_PICK_LAST};
    errata_code rc = env_batch_add(&b, name, name_len, ver, ver_len, ECO_TOOL, 0, 0, err);
    if (rc == ERRATA_OK) {
        /* Without a prefix, the assignment overrides whatever package of that name is known. */
        const env_package *known = eco < 0 ? env_find(env, b.v[0].name) : NULL;
        b.v[0].eco = eco >= 0 ? (env_ecosystem)eco : known ? known->eco : ECO_TOOL;
        rc = env_commit(env, &b, err);
    }
    env_batch_free(&b);
    return rc;
}
