/*
 * kb.c — reading a knowledge base from disk; see kb.h.
 */
#define _DEFAULT_SOURCE
#include "kb.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "fileio.h"
#include "sha256.h"

/* A record file larger than this is not a record someone wrote by hand. */
#define MAX_RECORD_FILE (4u * 1024 * 1024)

typedef struct {
    char **v;
    size_t n, cap;
} pathlist;

static bool pathlist_add(pathlist *pl, char *p)
{
    if (pl->n == pl->cap) {
        size_t cap = pl->cap ? pl->cap * 2 : 64;
        char **v = realloc(pl->v, cap * sizeof *v);
        if (!v)
            return false;
        pl->v = v;
        pl->cap = cap;
    }
    pl->v[pl->n++] = p;
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static errata_code walk(const char *dir, pathlist *out, errata_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return set_error(err, ERRATA_ERR_IO, "%s: %s", dir, strerror(errno));
    errata_code rc = ERRATA_OK;
    struct dirent *de;
    while (rc == ERRATA_OK && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        char *path = malloc(len);
        if (!path) {
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory listing %s", dir);
            break;
        }
        snprintf(path, len, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", de->d_name);
        struct stat st;
        if (stat(path, &st) != 0) {
            rc = set_error(err, ERRATA_ERR_IO, "%s: %s", path, strerror(errno));
            free(path);
        } else if (S_ISDIR(st.st_mode)) {
            rc = walk(path, out, err);
            free(path);
        } else if (S_ISREG(st.st_mode) && ends_with(path, ".json")) {
            if (!pathlist_add(out, path)) {
                free(path);
                rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory listing %s", dir);
            }
        } else {
            free(path);
        }
    }
    closedir(d);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool add_entry(kb_set *set, char *path, record *rec)
{
    if (set->n == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 64;
        kb_entry *p = realloc(set->items, cap * sizeof *p);
        if (!p)
            return false;
        set->items = p;
        set->cap = cap;
    }
    set->items[set->n++] = (kb_entry){path, rec};
    return true;
}

/* Lists the record files named by one argument, in sorted order. */
static errata_code list_path(const char *arg, pathlist *files, errata_error *err)
{
    struct stat st;
    if (stat(arg, &st) != 0)
        return set_error(err, ERRATA_ERR_IO, "%s: %s", arg, strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
        char *p = strdup(arg);
        if (!p || !pathlist_add(files, p)) {
            free(p);
            return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
        }
        return ERRATA_OK;
    }
    size_t first = files->n;
    errata_code rc = walk(arg, files, err);
    if (rc == ERRATA_OK && files->n - first > 1)
        qsort(files->v + first, files->n - first, sizeof *files->v, cmp_str);
    return rc;
}

/* The hash covers each file's path relative to the argument it was found under, so the same
 * knowledge base checked out in another folder has the same hash. */
static void hash_file(sha256_ctx *h, const char *root, const char *path, const char *text,
                      size_t len)
{
    const char *rel = path;
    size_t rl = strlen(root);
    if (strncmp(path, root, rl) == 0)
        rel = path + rl;
    while (*rel == '/')
        rel++;
    sha256_update(h, rel, strlen(rel) + 1);
    sha256_update(h, text, len);
    sha256_update(h, "", 1);
}

errata_code kb_load(const char *const *paths, size_t n_paths, kb_set *out, errata_diags *diags,
                    errata_error *err)
{
    memset(out, 0, sizeof *out);
    sha256_ctx h;
    sha256_init(&h);
    errata_code rc = ERRATA_OK;
    for (size_t a = 0; rc == ERRATA_OK && a < n_paths; a++) {
        pathlist files = {0};
        rc = list_path(paths[a], &files, err);
        size_t i = 0;
        for (; rc == ERRATA_OK && i < files.n; i++) {
            char *text;
            size_t len;
            errata_error ferr;
            if (diags)
                diags->files++;
            if (read_file(files.v[i], MAX_RECORD_FILE, &text, &len, &ferr) != ERRATA_OK) {
                if (diags)
                    diags_add(diags, ERRATA_SEV_ERROR, files.v[i], 0, 0, "", "%s",
                              ferr.message);
                text = NULL;
            }
            record *rec = NULL;
            if (text) {
                hash_file(&h, paths[a], files.v[i], text, len);
                parse_ctx ctx = {diags, files.v[i], 0};
                rec = record_parse_text(text, len, &ctx);
                if (diags)
                    diags->records++;
                free(text);
            }
            if (!add_entry(out, files.v[i], rec)) {
                record_free(rec);
                rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
                break;
            }
            files.v[i] = NULL; /* now owned by the set */
        }
        for (size_t j = 0; j < files.n; j++)
            free(files.v[j]);
        free(files.v);
    }
    sha256_hex(&h, out->hash);
    if (rc != ERRATA_OK)
        kb_free(out);
    return rc;
}

void kb_free(kb_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        free(set->items[i].path);
        record_free(set->items[i].rec);
    }
    free(set->items);
    memset(set, 0, sizeof *set);
}
