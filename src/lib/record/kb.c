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

/* The directories from the argument down to the one being listed, to notice a symbolic link
 * that leads back up (a loop would otherwise recurse until the path is too long). */
typedef struct {
    dev_t dev[64];
    ino_t ino[64];
    size_t n;
} dir_stack;

/* What the walk could not list, reported by kb_load() as warnings on those paths. */
typedef struct {
    pathlist paths, reasons;
} skipped_list;

static bool skip(skipped_list *sk, const char *path, const char *reason)
{
    char *p = strdup(path), *r = strdup(reason);
    if (p && r && pathlist_add(&sk->paths, p)) {
        if (pathlist_add(&sk->reasons, r))
            return true;
        free(sk->paths.v[--sk->paths.n]);
        free(r);
        return false;
    }
    free(p), free(r);
    return false;
}

static bool on_stack(const dir_stack *ds, const struct stat *st)
{
    for (size_t i = 0; i < ds->n; i++)
        if (ds->dev[i] == st->st_dev && ds->ino[i] == st->st_ino)
            return true;
    return false;
}

static errata_code walk(const char *dir, pathlist *out, skipped_list *sk, dir_stack *ds,
                        errata_error *err)
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
        bool ok = true;
        if (stat(path, &st) != 0) {
            /* A dangling or looping link, or a file that vanished: one bad entry does not make
             * the rest of the knowledge base unreadable. */
            char reason[256];
            snprintf(reason, sizeof reason, "skipped: %s", strerror(errno));
            ok = skip(sk, path, reason);
        } else if (S_ISDIR(st.st_mode) && (on_stack(ds, &st) || ds->n == 64)) {
            ok = skip(sk, path, ds->n == 64 ? "skipped: directories nested over 64 deep"
                                            : "skipped: a symbolic link back to a directory "
                                              "above it (a loop)");
        } else if (S_ISDIR(st.st_mode)) {
            ds->dev[ds->n] = st.st_dev, ds->ino[ds->n] = st.st_ino, ds->n++;
            rc = walk(path, out, sk, ds, err);
            ds->n--;
        } else if (S_ISREG(st.st_mode) && ends_with(path, ".json")) {
            ok = pathlist_add(out, path);
            if (ok)
                path = NULL; /* now owned by out */
        }
        free(path);
        if (!ok)
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory listing %s", dir);
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
static errata_code list_path(const char *arg, pathlist *files, skipped_list *sk,
                             errata_error *err)
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
    dir_stack ds = {{st.st_dev}, {st.st_ino}, 1};
    errata_code rc = walk(arg, files, sk, &ds, err);
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
        skipped_list sk = {{0}, {0}};
        rc = list_path(paths[a], &files, &sk, err);
        for (size_t k = 0; k < sk.paths.n; k++) {
            if (diags)
                diags_add(diags, ERRATA_SEV_WARNING, sk.paths.v[k], 0, 0, "", "%s",
                          sk.reasons.v[k]);
            free(sk.paths.v[k]), free(sk.reasons.v[k]);
        }
        free(sk.paths.v), free(sk.reasons.v);
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
