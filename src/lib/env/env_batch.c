/*
 * env_batch.c — the batch every reader fills as it parses a file (env.h), and its commit into
 * the environment: one entry a package, the better of two entries of one name kept (a higher
 * rank, then the newer version by the ecosystem's order), each saying the file and line it came
 * from. Nothing reaches the environment from a file that failed to parse.
 */
#include "env.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"

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
