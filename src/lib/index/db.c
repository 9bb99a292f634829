/*
 * db.c — opening an index and reading records from it; see db.h.
 *
 * errata_open() is where a bad file is recognised, so each failure says which kind it is: a
 * missing file, a file that is not SQLite or not an Errata index, an index of another format
 * version (rebuild it), or one whose content cannot be read (corrupt).
 */
#include "db.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "checksum.h"
#include "error.h"
#include "index_schema.h"

const char *const db_meta_keys[6] = {"format_version", "kb_hash",      "built_at",
                                     "record_count",   "errata_version", "hs_version"};

/* PCRE2 gives up on one pattern after this much backtracking work, so a pathological pattern
 * or input costs at most a few milliseconds; the lookup reports the record it skipped. */
#define MATCH_LIMIT 200000
#define DEPTH_LIMIT 5000

static errata_code corrupt(errata_error *err, errata_db *db, const char *what)
{
    return set_error(err, ERRATA_ERR_CORRUPT, "%s: the index is corrupt (%s: %s); rebuild it with "
                     "errata build", db->path, what, sqlite3_errmsg(db->sql));
}

static char *dup_col(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return strdup(t ? (const char *)t : "");
}

static errata_code check_header(errata_db *db, errata_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->sql, "PRAGMA application_id", -1, &st, NULL) != SQLITE_OK) {
        int code = sqlite3_errcode(db->sql);
        if (code == SQLITE_NOTADB)
            return set_error(err, ERRATA_ERR_NOT_INDEX,
                             "%s: not an Errata index (not a SQLite database)", db->path);
        return corrupt(err, db, "reading the header");
    }
    int rc = sqlite3_step(st);
    int app = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    int code = sqlite3_errcode(db->sql);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return code == SQLITE_NOTADB
                   ? set_error(err, ERRATA_ERR_NOT_INDEX,
                               "%s: not an Errata index (not a SQLite database)", db->path)
                   : corrupt(err, db, "reading the header");
    if (app != INDEX_APPLICATION_ID)
        return set_error(err, ERRATA_ERR_NOT_INDEX,
                         "%s: not an Errata index (a SQLite database of another application)",
                         db->path);
    return ERRATA_OK;
}

static errata_code read_meta(errata_db *db, errata_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->sql, "SELECT key, value FROM meta", -1, &st, NULL) != SQLITE_OK)
        return corrupt(err, db, "reading metadata");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        for (int k = 0; key && k < 6; k++)
            if (strcmp(key, db_meta_keys[k]) == 0 && !db->meta[k])
                db->meta[k] = dup_col(st, 1);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return corrupt(err, db, "reading metadata");
    const char *fmt = db->meta[0];
    if (!fmt)
        return set_error(err, ERRATA_ERR_CORRUPT, "%s: the index has no format version; rebuild "
                         "it with errata build", db->path);
    if (atoi(fmt) != ERRATA_INDEX_FORMAT)
        return set_error(err, ERRATA_ERR_STALE,
                         "%s: the index has format %s but this errata reads format %d; rebuild "
                         "it with errata build",
                         db->path, fmt, ERRATA_INDEX_FORMAT);
    return ERRATA_OK;
}

static errata_code read_records(errata_db *db, errata_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->sql, "SELECT count(*) FROM records", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return corrupt(err, db, "counting records");
    }
    size_t n = (size_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    db->entries = calloc(n ? n : 1, sizeof *db->entries);
    db->pcre_only = calloc(n ? n : 1, sizeof *db->pcre_only);
    if (!db->entries || !db->pcre_only)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory opening %s", db->path);
    if (sqlite3_prepare_v2(db->sql,
                           "SELECT rid, id, regex, engine, literals, scan_sum, json_sum FROM records "
                           "ORDER BY rid",
                           -1, &st, NULL) != SQLITE_OK)
        return corrupt(err, db, "reading records");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && db->n < n) {
        db_entry *e = &db->entries[db->n];
        if (sqlite3_column_int64(st, 0) != (sqlite3_int64)db->n + 1) {
            sqlite3_finalize(st);
            return set_error(err, ERRATA_ERR_CORRUPT, "%s: the index is corrupt (records are not "
                             "numbered in order); rebuild it with errata build", db->path);
        }
        e->id = dup_col(st, 1);
        e->regex = dup_col(st, 2);
        int engine = sqlite3_column_int(st, 3);
        e->engine = (engine_kind)engine;
        e->literals = (unsigned)sqlite3_column_int(st, 4);
        e->json_sum = (uint64_t)sqlite3_column_int64(st, 6);
        db->n++;
        if (!e->id || !e->regex) {
            sqlite3_finalize(st);
            return set_error(err, ERRATA_ERR_NOMEM, "out of memory opening %s", db->path);
        }
        if (engine < ENGINE_HS || engine > ENGINE_PCRE_ONLY ||
            checksum_scan_fields(e->id, e->regex, e->engine, e->literals) !=
                (uint64_t)sqlite3_column_int64(st, 5)) {
            sqlite3_finalize(st);
            return set_error(err, ERRATA_ERR_CORRUPT, "%s: the index is corrupt (record row %zu "
                             "fails its checksum); rebuild it with errata build",
                             db->path, db->n);
        }
        if (e->engine == ENGINE_PCRE_ONLY)
            db->pcre_only[db->n_pcre_only++] = db->n - 1;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return corrupt(err, db, "reading records");
    for (size_t i = 1; i < db->n; i++)
        if (strcmp(db->entries[i - 1].id, db->entries[i].id) >= 0)
            return set_error(err, ERRATA_ERR_CORRUPT, "%s: the index is corrupt (records are "
                             "not in id order); rebuild it with errata build", db->path);
    return ERRATA_OK;
}

/* The pattern database was compiled for record_count patterns, one a record in rid order: an
 * index whose records table lost or gained rows would make pattern ids name the wrong records,
 * or none. */
static errata_code check_record_count(errata_db *db, errata_error *err)
{
    const char *want = db->meta[3];
    char *end = NULL;
    unsigned long long n = want ? strtoull(want, &end, 10) : 0;
    if (!want || !*want || *end || n != db->n)
        return set_error(err, ERRATA_ERR_CORRUPT, "%s: the index is corrupt (it holds %zu "
                         "records, its metadata says %s); rebuild it with errata build",
                         db->path, db->n, want ? want : "nothing");
    return ERRATA_OK;
}

static int cmp_alias(const void *a, const void *b)
{
    return strcmp(((const db_alias *)a)->alias, ((const db_alias *)b)->alias);
}

static errata_code read_aliases(errata_db *db, errata_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->sql, "SELECT alias, rid FROM aliases", -1, &st, NULL) != SQLITE_OK)
        return corrupt(err, db, "reading aliases");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        sqlite3_int64 rid = sqlite3_column_int64(st, 1);
        if (rid < 1 || (size_t)rid > db->n)
            continue;
        db_alias *p = realloc(db->aliases, (db->n_aliases + 1) * sizeof *p);
        if (!p) {
            sqlite3_finalize(st);
            return set_error(err, ERRATA_ERR_NOMEM, "out of memory opening %s", db->path);
        }
        db->aliases = p;
        char *a = dup_col(st, 0);
        if (!a) {
            sqlite3_finalize(st);
            return set_error(err, ERRATA_ERR_NOMEM, "out of memory opening %s", db->path);
        }
        db->aliases[db->n_aliases++] = (db_alias){a, (size_t)rid - 1};
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return corrupt(err, db, "reading aliases");
    if (db->n_aliases)
        qsort(db->aliases, db->n_aliases, sizeof *db->aliases, cmp_alias);
    return ERRATA_OK;
}

/* The serialised database is tied to the Hyperscan version and CPU features of the machine that
 * built it, and it is most of the index. When it does not load here (another CPU, another
 * Hyperscan, a damaged file), the open fails and says so: compiling every pattern again on each
 * open would cost seconds per lookup, silently, on every run until someone noticed. */
static errata_code load_patterns(errata_db *db, errata_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->sql, "SELECT blob FROM hs_database WHERE id = 1", -1, &st, NULL) !=
        SQLITE_OK)
        return corrupt(err, db, "reading the pattern database");
    errata_code rc = ERRATA_OK;
    bool stored = false;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *blob = sqlite3_column_blob(st, 0);
        int len = sqlite3_column_bytes(st, 0);
        stored = blob && len > 0;
        char *info = NULL;
        if (stored && hs_deserialize_database(blob, (size_t)len, &db->hs) != HS_SUCCESS) {
            db->hs = NULL;
            bool readable = hs_serialized_database_info(blob, (size_t)len, &info) == HS_SUCCESS;
            rc = set_error(err, ERRATA_ERR_STALE,
                           "%s: its pattern database does not load here (%s%s); rebuild the "
                           "index on this machine with errata build --force",
                           db->path, readable ? "built for another CPU or Hyperscan: " : "damaged",
                           readable ? info : "");
            free(info);
        }
    }
    sqlite3_finalize(st);
    if (rc == ERRATA_OK && !stored && db->n > db->n_pcre_only)
        rc = corrupt(err, db, "reading the pattern database (it is missing)");
    return rc;
}

errata_code db_scan_literals(errata_db *db, char ***lits, uint32_t **ids, size_t *n,
                             errata_error *err)
{
    *lits = NULL, *ids = NULL, *n = 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->sql, "SELECT rid, literal FROM scan_literals", -1, &st, NULL) !=
        SQLITE_OK)
        return corrupt(err, db, "reading the scan literals");
    errata_code rc = ERRATA_OK;
    size_t cap = 0;
    int step;
    while (rc == ERRATA_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        sqlite3_int64 rid = sqlite3_column_int64(st, 0);
        const char *lit = (const char *)sqlite3_column_text(st, 1);
        if (rid < 1 || (uint64_t)rid > db->n || !lit || !*lit) {
            rc = corrupt(err, db, "reading the scan literals (a row names no record)");
            break;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 1024;
            char **l2 = realloc(*lits, cap * sizeof *l2);
            *lits = l2 ? l2 : *lits;
            uint32_t *i2 = realloc(*ids, cap * sizeof *i2);
            *ids = i2 ? i2 : *ids;
            if (!l2 || !i2) {
                rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
                break;
            }
        }
        if (!((*lits)[*n] = strdup(lit))) {
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
            break;
        }
        (*ids)[(*n)++] = (uint32_t)(rid - 1);
    }
    if (rc == ERRATA_OK && step != SQLITE_DONE)
        rc = corrupt(err, db, "reading the scan literals");
    if (rc == ERRATA_OK && *n == 0 && db->n > 0)
        rc = corrupt(err, db, "reading the scan literals (there are none)");
    sqlite3_finalize(st);
    if (rc != ERRATA_OK) {
        for (size_t i = 0; i < *n; i++)
            free((*lits)[i]);
        free(*lits), free(*ids);
        *lits = NULL, *ids = NULL, *n = 0;
    }
    return rc;
}

errata_code errata_open(const char *path, errata_db **out, errata_error *err)
{
    *out = NULL;
    if (!path || !*path)
        return set_error(err, ERRATA_ERR_ARG, "no index path given");
    struct stat stbuf;
    if (stat(path, &stbuf) != 0)
        return set_error(err, ERRATA_ERR_IO, "%s: %s (build it with errata build)", path,
                         strerror(errno));
    if (S_ISDIR(stbuf.st_mode))
        return set_error(err, ERRATA_ERR_NOT_INDEX, "%s: is a directory, not an Errata index",
                         path);
    errata_db *db = calloc(1, sizeof *db);
    if (!db || !(db->path = strdup(path))) {
        free(db);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory opening %s", path);
    }
    pthread_mutex_init(&db->lock, NULL);
    errata_code rc = ERRATA_OK;
    if (sqlite3_open_v2(path, &db->sql, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, NULL) !=
        SQLITE_OK)
        rc = set_error(err, ERRATA_ERR_IO, "%s: cannot open: %s", path,
                       db->sql ? sqlite3_errmsg(db->sql) : "out of memory");
    if (rc == ERRATA_OK)
        rc = check_header(db, err);
    if (rc == ERRATA_OK)
        rc = read_meta(db, err);
    if (rc == ERRATA_OK)
        rc = read_records(db, err);
    if (rc == ERRATA_OK)
        rc = check_record_count(db, err);
    if (rc == ERRATA_OK)
        rc = read_aliases(db, err);
    if (rc == ERRATA_OK)
        rc = load_patterns(db, err);
    if (rc == ERRATA_OK) {
        db->mctx = pcre2_match_context_create(NULL);
        if (!db->mctx)
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory opening %s", path);
        else {
            pcre2_set_match_limit(db->mctx, MATCH_LIMIT);
            pcre2_set_depth_limit(db->mctx, DEPTH_LIMIT);
        }
    }
    if (rc != ERRATA_OK) {
        errata_close(db);
        return rc;
    }
    *out = db;
    return ERRATA_OK;
}

void errata_close(errata_db *db)
{
    if (!db)
        return;
    for (size_t i = 0; i < db->n; i++) {
        db_entry *e = &db->entries[i];
        free(e->id), free(e->regex), free(e->json);
        record_free(e->rec);
        pcre2_code_free(e->re);
        free(e->alt_literals);
    }
    free(db->entries);
    for (size_t i = 0; i < db->n_aliases; i++)
        free(db->aliases[i].alias);
    free(db->aliases);
    free(db->pcre_only);
    for (size_t i = 0; i < db->n_scratch; i++)
        hs_free_scratch(db->scratch[i]);
    free(db->scratch);
    hs_free_database(db->hs);
    if (db->scan_cache)
        db->scan_cache_free(db->scan_cache);
    pcre2_match_context_free(db->mctx);
    for (int k = 0; k < 6; k++)
        free(db->meta[k]);
    sqlite3_finalize(db->json_st);
    sqlite3_close(db->sql);
    pthread_mutex_destroy(&db->lock);
    free(db->path);
    free(db);
}

size_t errata_db_record_count(const errata_db *db) { return db ? db->n : 0; }

const char *errata_db_meta(const errata_db *db, const char *key)
{
    for (int k = 0; db && key && k < 6; k++)
        if (strcmp(key, db_meta_keys[k]) == 0)
            return db->meta[k];
    return NULL;
}

/* ------------------------------------------------------------------ lazy per-record state */

/* Entry i's stored JSON, read now (a copy), or NULL when the row cannot be read. The caller
 * holds db->lock, which also guards json_st. */
static char *read_json(errata_db *db, size_t i)
{
    sqlite3_stmt *st = db->json_st;
    if (!st && sqlite3_prepare_v2(db->sql, "SELECT json FROM records WHERE rid = ?", -1,
                                  &db->json_st, NULL) != SQLITE_OK)
        return NULL;
    st = db->json_st;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)i + 1);
    char *json = sqlite3_step(st) == SQLITE_ROW ? dup_col(st, 0) : NULL;
    sqlite3_reset(st);
    return json;
}

const record *db_record(errata_db *db, size_t i, errata_error *err)
{
    assert(i < db->n); /* callers index entries they were given by the scan or a count */
    pthread_mutex_lock(&db->lock);
    db_entry *e = &db->entries[i];
    if (!e->rec && !e->json_damaged && !e->json)
        e->json = read_json(db, i);
    if (!e->rec && !e->json_damaged) {
        size_t len = e->json ? strlen(e->json) : 0;
        if (!e->json || checksum_bytes(e->json, len) != e->json_sum)
            e->json_damaged = true;
        else {
            parse_ctx ctx = {NULL, db->path, 0};
            e->rec = record_parse_text(e->json, len, &ctx);
        }
    }
    record *r = e->rec;
    pthread_mutex_unlock(&db->lock);
    if (!r)
        set_error(err, ERRATA_ERR_CORRUPT, "%s: the index is corrupt (the stored record %s %s); "
                  "rebuild it with errata build", db->path, e->id,
                  !e->json_damaged ? "does not parse"
                  : e->json        ? "fails its checksum"
                                   : "cannot be read");
    return r;
}

const pcre2_code *db_pattern(errata_db *db, size_t i, errata_error *err)
{
    pthread_mutex_lock(&db->lock);
    db_entry *e = &db->entries[i];
    if (!e->re && !e->re_failed) {
        e->re = pattern_compile_marked(e->regex, NULL, 0);
        size_t lits[64];
        size_t n = pattern_alternative_literals(e->regex, lits, 64);
        if (n > 64)
            n = 0; /* too many to mark: the whole pattern's measure is used */
        e->alt_literals = n ? malloc(n * sizeof *e->alt_literals) : NULL;
        for (size_t k = 0; e->alt_literals && k < n; k++)
            e->alt_literals[k] = (unsigned)lits[k];
        e->n_alts = e->alt_literals ? n : 0;
        if (!e->re)
            e->re_failed = true;
#ifndef ERRATA_NO_PCRE2_JIT
        /* On failure pcre2_match falls back to the interpreter. Built without it
         * (-Dpcre2_jit=false) for valgrind, which reports JIT code's reads as uninitialised. */
        if (e->re)
            pcre2_jit_compile(e->re, PCRE2_JIT_COMPLETE);
#endif
    }
    const pcre2_code *re = e->re;
    pthread_mutex_unlock(&db->lock);
    if (!re)
        set_error(err, ERRATA_ERR_REGEX, "%s: the pattern of %s does not compile", db->path,
                  e->id);
    return re;
}

hs_scratch_t *db_take_scratch(errata_db *db)
{
    hs_scratch_t *s = NULL;
    pthread_mutex_lock(&db->lock);
    if (db->n_scratch > 0)
        s = db->scratch[--db->n_scratch];
    pthread_mutex_unlock(&db->lock);
    if (!s && db->hs && hs_alloc_scratch(db->hs, &s) != HS_SUCCESS)
        s = NULL;
    return s;
}

void db_give_scratch(errata_db *db, hs_scratch_t *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&db->lock);
    if (db->n_scratch == db->cap_scratch) {
        size_t cap = db->cap_scratch ? db->cap_scratch * 2 : 4;
        hs_scratch_t **p = realloc(db->scratch, cap * sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&db->lock);
            hs_free_scratch(s);
            return;
        }
        db->scratch = p;
        db->cap_scratch = cap;
    }
    db->scratch[db->n_scratch++] = s;
    pthread_mutex_unlock(&db->lock);
}

size_t db_find(const errata_db *db, const char *id)
{
    size_t lo = 0, hi = db->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(db->entries[mid].id, id);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    lo = 0, hi = db->n_aliases;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(db->aliases[mid].alias, id);
        if (c == 0)
            return db->aliases[mid].entry;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (size_t)-1;
}

errata_code errata_get_record(errata_db *db, const char *id, const errata_record **out,
                              errata_error *err)
{
    *out = NULL;
    if (!db || !id)
        return set_error(err, ERRATA_ERR_ARG, "no record id given");
    size_t i = db_find(db, id);
    if (i == (size_t)-1)
        return set_error(err, ERRATA_ERR_NOT_FOUND, "no record with id '%s'", id);
    *out = db_record(db, i, err);
    return *out ? ERRATA_OK : ERRATA_ERR_CORRUPT;
}

errata_code errata_record_at(errata_db *db, size_t i, const errata_record **out,
                             errata_error *err)
{
    *out = NULL;
    if (!db || i >= db->n)
        return set_error(err, ERRATA_ERR_ARG, "record index %zu out of range", i);
    *out = db_record(db, i, err);
    return *out ? ERRATA_OK : ERRATA_ERR_CORRUPT;
}
