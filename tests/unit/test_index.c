/*
 * test_index.c — building and opening the index: metadata, the skip of an unchanged build, and
 * every kind of bad index file named as what it is.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

typedef struct {
    char *dir;  /* temporary directory */
    char *kb;   /* dir/kb */
    char *out;  /* dir/index.db */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = make_temp_dir();
    char *seed = slurp(src_path("kb/huggingface/torch-compile-incompatible-with-peft.json"), NULL);
    free(write_file(f->dir, "kb/huggingface/torch-compile-incompatible-with-peft.json", seed));
    free(seed);
    f->kb = malloc(strlen(f->dir) + 16);
    f->out = malloc(strlen(f->dir) + 16);
    sprintf(f->kb, "%s/kb", f->dir);
    sprintf(f->out, "%s/index.db", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rm_tree(f->dir);
    free(f->dir), free(f->kb), free(f->out), free(f);
    return 0;
}

static errata_code build(fixture *f, int force, errata_build_report *rep, errata_error *err)
{
    errata_build_options bo = {force};
    const char *dirs[] = {f->kb};
    return errata_build(dirs, 1, f->out, &bo, rep, NULL, err);
}

static void build_then_open(void **state)
{
    fixture *f = *state;
    errata_build_report rep;
    errata_error err = {0};
    assert_int_equal(build(f, 0, &rep, &err), ERRATA_OK);
    assert_int_equal(rep.records, 1);
    assert_int_equal(rep.skipped, 0);
    assert_int_equal(rep.hs_patterns + rep.hs_prefilter + rep.pcre_only, 1);
    assert_int_equal(strlen(rep.kb_hash), 64);

    errata_db *db = NULL;
    assert_int_equal(errata_open(f->out, &db, &err), ERRATA_OK);
    assert_int_equal(errata_db_record_count(db), 1);
    assert_string_equal(errata_db_meta(db, "format_version"), "4");
    assert_string_equal(errata_db_meta(db, "kb_hash"), rep.kb_hash);
    assert_non_null(errata_db_meta(db, "built_at"));
    assert_null(errata_db_meta(db, "no_such_key"));

    const errata_record *r;
    assert_int_equal(errata_get_record(db, "huggingface/torch-compile-incompatible-with-peft", &r,
                                       &err),
                     ERRATA_OK);
    assert_int_equal(errata_record_workaround_count(r), 3);
    assert_int_equal(errata_get_record(db, "huggingface/nope", &r, &err), ERRATA_ERR_NOT_FOUND);
    assert_non_null(strstr(err.message, "huggingface/nope"));
    errata_close(db);
}

static void unchanged_build_is_skipped(void **state)
{
    fixture *f = *state;
    errata_build_report rep;
    errata_error err = {0};
    assert_int_equal(build(f, 0, &rep, &err), ERRATA_OK);
    assert_int_equal(build(f, 0, &rep, &err), ERRATA_OK);
    assert_int_equal(rep.skipped, 1);
    assert_int_equal(build(f, 1, &rep, &err), ERRATA_OK);
    assert_int_equal(rep.skipped, 0);

    /* A change to any record file changes the hash and rebuilds. */
    char *edited = seed_with("confidence", "0.5");
    free(write_file(f->kb, "huggingface/torch-compile-incompatible-with-peft.json", edited));
    free(edited);
    char old_hash[65];
    strcpy(old_hash, rep.kb_hash);
    assert_int_equal(build(f, 0, &rep, &err), ERRATA_OK);
    assert_int_equal(rep.skipped, 0);
    assert_string_not_equal(rep.kb_hash, old_hash);
}

static void invalid_kb_leaves_the_old_index(void **state)
{
    fixture *f = *state;
    errata_build_report rep;
    errata_error err = {0};
    assert_int_equal(build(f, 0, &rep, &err), ERRATA_OK);
    char hash[65];
    strcpy(hash, rep.kb_hash);
    free(write_file(f->kb, "huggingface/broken.json", "{\"id\": "));
    errata_diags *d = NULL;
    const char *dirs[] = {f->kb};
    assert_int_equal(errata_build(dirs, 1, f->out, NULL, &rep, &d, &err), ERRATA_ERR_INVALID);
    assert_true(errata_diags_errors(d) >= 1);
    errata_diags_free(d);
    errata_db *db = NULL;
    assert_int_equal(errata_open(f->out, &db, &err), ERRATA_OK);
    assert_string_equal(errata_db_meta(db, "kb_hash"), hash);
    errata_close(db);
    /* No temporary file is left behind. */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", f->out, (long)getpid());
    assert_int_not_equal(access(tmp, F_OK), 0);
}

static void stale_format_is_named(void **state)
{
    fixture *f = *state;
    errata_build_report rep;
    errata_error err = {0};
    assert_int_equal(build(f, 0, &rep, &err), ERRATA_OK);
    sqlite3 *s;
    assert_int_equal(sqlite3_open(f->out, &s), SQLITE_OK);
    assert_int_equal(sqlite3_exec(s, "UPDATE meta SET value = '0' WHERE key = 'format_version'",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(s);
    errata_db *db = NULL;
    assert_int_equal(errata_open(f->out, &db, &err), ERRATA_ERR_STALE);
    assert_null(db);
    assert_non_null(strstr(err.message, "format 0"));
    assert_non_null(strstr(err.message, "errata build"));
    /* And a stale index is rebuilt even though the records did not change. */
    assert_int_equal(build(f, 0, &rep, &err), ERRATA_OK);
    assert_int_equal(rep.skipped, 0);
}

static void exec_sql(const char *path, const char *sql)
{
    sqlite3 *s;
    assert_int_equal(sqlite3_open(path, &s), SQLITE_OK);
    assert_int_equal(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(s);
}

/* An index whose records table lost a row no longer agrees with its pattern database, whose
 * ids would then name records that are not there: opening it says it is corrupt, and a pattern
 * id past the records (the metadata doctored to agree) is an error, never a write out of bounds. */
static void records_and_patterns_must_agree(void **state)
{
    fixture *f = *state;
    char *rec = test_record("zz/second", "second record pattern here", "x", 0.5, "[]", "{}");
    free(write_file(f->dir, "kb/zz/second.json", rec));
    free(rec);
    errata_build_report rep;
    errata_error err = {0};
    assert_int_equal(build(f, 1, &rep, &err), ERRATA_OK);
    assert_int_equal(rep.records, 2);
    exec_sql(f->out, "DELETE FROM records WHERE rid = 2");
    errata_db *db = NULL;
    assert_int_equal(errata_open(f->out, &db, &err), ERRATA_ERR_CORRUPT);
    assert_null(db);
    assert_non_null(strstr(err.message, "holds 1 records, its metadata says 2"));

    exec_sql(f->out, "UPDATE meta SET value = '1' WHERE key = 'record_count'");
    assert_int_equal(errata_open(f->out, &db, &err), ERRATA_OK);
    const char *text = "second record pattern here";
    errata_result *res = NULL;
    assert_int_equal(errata_lookup(db, text, strlen(text), NULL, &res, &err), ERRATA_ERR_CORRUPT);
    assert_null(res);
    assert_non_null(strstr(err.message, "more patterns than it has records"));
    errata_close(db);
}

/* A pattern database that does not load (built elsewhere, or damaged) is reported, not
 * recompiled in silence on every open. */
static void unloadable_patterns_are_named(void **state)
{
    fixture *f = *state;
    errata_build_report rep;
    errata_error err = {0};
    assert_int_equal(build(f, 1, &rep, &err), ERRATA_OK);
    exec_sql(f->out, "UPDATE hs_database SET blob = zeroblob(4096)");
    errata_db *db = NULL;
    assert_int_equal(errata_open(f->out, &db, &err), ERRATA_ERR_STALE);
    assert_null(db);
    assert_non_null(strstr(err.message, "does not load here (damaged)"));
    assert_non_null(strstr(err.message, "errata build"));
    exec_sql(f->out, "DELETE FROM hs_database");
    assert_int_equal(errata_open(f->out, &db, &err), ERRATA_ERR_CORRUPT);
    assert_non_null(strstr(err.message, "missing"));
}

/* A killed builder's OUT.tmp-PID is removed by the next build; a live builder's is not. */
static void stale_temporaries_are_removed(void **state)
{
    fixture *f = *state;
    char dead[4200], live[4200];
    snprintf(dead, sizeof dead, "%s.tmp-%d", f->out, 2147483600); /* no such process */
    snprintf(live, sizeof live, "%s.tmp-%ld", f->out, (long)getppid());
    free(write_file(f->dir, "index.db.tmp-2147483600", "half an index"));
    char rel[64];
    snprintf(rel, sizeof rel, "index.db.tmp-%ld", (long)getppid());
    free(write_file(f->dir, rel, "a build under way"));
    errata_build_report rep;
    errata_error err = {0};
    assert_int_equal(build(f, 1, &rep, &err), ERRATA_OK);
    assert_int_equal(access(dead, F_OK), -1);
    assert_int_equal(access(live, F_OK), 0);
    char own[4200];
    snprintf(own, sizeof own, "%s.tmp-%ld", f->out, (long)getpid());
    assert_int_equal(access(own, F_OK), -1); /* and the build's own was renamed into place */
}

static void bad_files_are_named(void **state)
{
    fixture *f = *state;
    errata_db *db = NULL;
    errata_error err = {0};
    char path[4096];

    snprintf(path, sizeof path, "%s/missing.db", f->dir);
    assert_int_equal(errata_open(path, &db, &err), ERRATA_ERR_IO);
    assert_non_null(strstr(err.message, "missing.db"));

    free(write_file(f->dir, "text.db", "this is not a database at all, just some text\n"));
    snprintf(path, sizeof path, "%s/text.db", f->dir);
    assert_int_equal(errata_open(path, &db, &err), ERRATA_ERR_NOT_INDEX);

    snprintf(path, sizeof path, "%s/other.db", f->dir);
    sqlite3 *s;
    sqlite3_open(path, &s);
    sqlite3_exec(s, "CREATE TABLE t(x)", NULL, NULL, NULL);
    sqlite3_close(s);
    assert_int_equal(errata_open(path, &db, &err), ERRATA_ERR_NOT_INDEX);
    assert_non_null(strstr(err.message, "another application"));

    /* A truncated index: the first page survives, the tables do not. */
    errata_build_report rep;
    assert_int_equal(build(f, 0, &rep, &err), ERRATA_OK);
    size_t len;
    char *whole = slurp(f->out, &len);
    snprintf(path, sizeof path, "%s/truncated.db", f->dir);
    FILE *fp = fopen(path, "wb");
    fwrite(whole, 1, 4096, fp);
    fclose(fp);
    free(whole);
    errata_code rc = errata_open(path, &db, &err);
    assert_true(rc == ERRATA_ERR_CORRUPT || rc == ERRATA_ERR_NOT_INDEX);
    assert_null(db);

    assert_int_equal(errata_open(f->dir, &db, &err), ERRATA_ERR_NOT_INDEX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(build_then_open, setup, teardown),
        cmocka_unit_test_setup_teardown(unchanged_build_is_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(invalid_kb_leaves_the_old_index, setup, teardown),
        cmocka_unit_test_setup_teardown(stale_format_is_named, setup, teardown),
        cmocka_unit_test_setup_teardown(records_and_patterns_must_agree, setup, teardown),
        cmocka_unit_test_setup_teardown(unloadable_patterns_are_named, setup, teardown),
        cmocka_unit_test_setup_teardown(stale_temporaries_are_removed, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_files_are_named, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
