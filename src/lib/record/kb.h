/*
 * kb.h — a knowledge base read from disk: the record files under one or more paths.
 *
 * Loading parses every *.json file (in path order, so that every run sees the records in the same
 * order) and computes the SHA-256 of the whole knowledge base, which the index stores so that a
 * build of unchanged records can be skipped.
 */
#ifndef ERRATA_KB_H
#define ERRATA_KB_H

#include "record.h"

typedef struct {
    char *path;  /* the file, as found under the given path */
    record *rec; /* NULL when the file did not parse into a record */
} kb_entry;

typedef struct {
    kb_entry *items;
    size_t n, cap;
    char hash[65]; /* SHA-256 hex of every file's relative path and content */
} kb_set;

/* Reads every *.json file under paths (files, or directories searched recursively, hidden
 * entries skipped). Parse problems go to diags; only a path that cannot be read at all is an
 * error of the call itself. */
errata_code kb_load(const char *const *paths, size_t n_paths, kb_set *out, errata_diags *diags,
                    errata_error *err);
void kb_free(kb_set *set);

#endif
