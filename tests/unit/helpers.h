/*
 * helpers.h — shared by the unit tests: paths into the source tree, temporary files, and a
 * small index built from records written on the fly.
 */
#ifndef ERRATA_TEST_HELPERS_H
#define ERRATA_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "errata.h"

/* The source tree's root (from the SOURCE_ROOT environment variable meson sets). */
const char *src_root(void);
/* src_root()/rel in a static buffer. */
const char *src_path(const char *rel);
/* A fresh temporary directory (removed by rm_tree). */
char *make_temp_dir(void);
void rm_tree(const char *dir);
/* Writes text to dir/rel, creating parent directories. Returns the full path (malloc'd). */
char *write_file(const char *dir, const char *rel, const char *text);
/* Reads a whole file (malloc'd). */
char *slurp(const char *path, size_t *len);
/* The seed record's text with one "key": value pair replaced (value is raw JSON). */
char *seed_with(const char *key, const char *raw_value);
/* A small valid record (malloc'd JSON): one dead end "reinstall {module}", one workaround with
 * how; versions and os are raw JSON ("[]", "{}"). regex is JSON string content. */
char *test_record(const char *id, const char *regex, const char *how, double confidence,
                  const char *versions, const char *os);
/* Writes text (and frees it) as dir/kb/<id>.json. */
void add_record(const char *dir, const char *id, char *text);
/* A knowledge base made for one test group: records are added under dir/kb, then opened. */
typedef struct {
    char *dir;    /* temporary directory */
    errata_db *db;
} kb_fixture;

kb_fixture *fixture_new(void);
/* Builds dir/kb into dir/index.db and opens it as f->db. */
void fixture_open(kb_fixture *f);
/* A cmocka teardown: closes the index, removes the directory. */
int fixture_teardown(void **state);

/* Builds an index from kb_dir into dir/index.db and opens it; fails the test on error. */
errata_db *build_and_open(const char *kb_dir, const char *dir);
/* A finding whose field equals field and whose message contains needle, or NULL. */
const errata_diag *find_diag(const errata_diags *d, errata_severity sev, const char *field,
                             const char *needle);

#endif
