/*
 * env.c — the environment model: packages and how a name finds one, versions compared by each
 * ecosystem's scheme, and --env-set. The batch readers fill is env_batch.c, the text helpers
 * they share env_text.c.
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
