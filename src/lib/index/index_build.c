/*
 * index_build.c — errata_build(): validate a knowledge base and compile it into an index file.
 *
 * The index is derived data, so it is written whole: into a temporary file beside the target,
 * then renamed over it. A build that fails or is killed half-way leaves the previous index as
 * it was; readers never see a half-written file.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <hs/hs.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checksum.h"
#include "error.h"
#include "index_build.h"
#include "index_schema.h"
#include "kb.h"
#include "multiscan.h"
#include "pattern.h"
#include "search.h"
#include "strbuf.h"
#include "validate.h"

typedef struct {
    sqlite3 *db;
    const char *path;
    errata_error *err;
} writer;

static errata_code sql_fail(writer *w, const char *what)
{
    return set_error(w->err, ERRATA_ERR_IO, "%s: %s: %s", w->path, what, sqlite3_errmsg(w->db));
}

static errata_code exec(writer *w, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(w->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        errata_code rc = set_error(w->err, ERRATA_ERR_IO, "%s: %s", w->path,
                                   msg ? msg : "SQL error");
        sqlite3_free(msg);
        return rc;
    }
    return ERRATA_OK;
}

static errata_code put_meta(writer *w, const char *key, const char *value)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(w->db, "INSERT INTO meta VALUES(?, ?)", -1, &st, NULL) != SQLITE_OK)
        return sql_fail(w, "preparing meta");
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? ERRATA_OK : sql_fail(w, "writing meta");
}

/* The text the full-text index sees for a record's workarounds and its Chinese fields. */
static char *join_workarounds(const record *r)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < r->n_workarounds; i++)
        sb_printf(&sb, "%s\n%s\n", r->workarounds[i].action, r->workarounds[i].how);
    return sb_finish(&sb);
}

/* The Chinese texts as CJK bigrams, the unit the full-text index searches them by. */
static char *join_zh(const record *r)
{
    strbuf sb;
    sb_init(&sb);
    if (r->signature_zh)
        cjk_bigrams(r->signature_zh, &sb), sb_putc(&sb, '\n');
    if (r->root_cause_zh)
        cjk_bigrams(r->root_cause_zh, &sb), sb_putc(&sb, '\n');
    for (size_t i = 0; i < r->workarounds_zh.n; i++)
        cjk_bigrams(r->workarounds_zh.v[i], &sb), sb_putc(&sb, '\n');
    for (size_t i = 0; i < r->dead_ends_zh.n; i++)
        cjk_bigrams(r->dead_ends_zh.v[i], &sb), sb_putc(&sb, '\n');
    return sb_finish(&sb);
}

static char *join_aliases(const record *r)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < r->aliases.n; i++)
        sb_printf(&sb, "%s\n", r->aliases.v[i]);
    return sb_finish(&sb);
}

static errata_code insert_record(writer *w, sqlite3_stmt *rec_st, sqlite3_stmt *fts_st,
                                 sqlite3_stmt *alias_st, sqlite3_stmt *edge_st, long long rid,
                                 const record *r, engine_kind engine)
{
    json_t *j = record_to_json(r);
    char *json = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    char *work = join_workarounds(r), *zh = join_zh(r), *aliases = join_aliases(r);
    errata_code rc = ERRATA_OK;
    if (!json || !work || !zh || !aliases) {
        rc = set_error(w->err, ERRATA_ERR_NOMEM, "out of memory writing %s", r->id);
        goto done;
    }
    sqlite3_reset(rec_st);
    sqlite3_bind_int64(rec_st, 1, rid);
    sqlite3_bind_text(rec_st, 2, r->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(rec_st, 3, r->domain, -1, SQLITE_STATIC);
    sqlite3_bind_text(rec_st, 4, r->category, -1, SQLITE_STATIC);
    sqlite3_bind_text(rec_st, 5, r->signature, -1, SQLITE_STATIC);
    sqlite3_bind_text(rec_st, 6, r->regex, -1, SQLITE_STATIC);
    sqlite3_bind_int(rec_st, 7, (int)engine);
    unsigned literals = (unsigned)pattern_min_literals(r->regex);
    sqlite3_bind_int64(rec_st, 8, (long long)literals);
    sqlite3_bind_double(rec_st, 9, r->confidence);
    sqlite3_bind_double(rec_st, 10, r->fix_success_rate);
    sqlite3_bind_text(rec_st, 11, r->verification_tier, -1, SQLITE_STATIC);
    sqlite3_bind_int64(rec_st, 12,
                       (sqlite3_int64)checksum_scan_fields(r->id, r->regex, engine, literals));
    sqlite3_bind_int64(rec_st, 13, (sqlite3_int64)checksum_bytes(json, strlen(json)));
    sqlite3_bind_text(rec_st, 14, json, -1, SQLITE_STATIC);
    if (sqlite3_step(rec_st) != SQLITE_DONE) {
        rc = sql_fail(w, "writing a record");
        goto done;
    }
    sqlite3_reset(fts_st);
    sqlite3_bind_int64(fts_st, 1, rid);
    sqlite3_bind_text(fts_st, 2, r->signature, -1, SQLITE_STATIC);
    sqlite3_bind_text(fts_st, 3, aliases, -1, SQLITE_STATIC);
    sqlite3_bind_text(fts_st, 4, r->root_cause, -1, SQLITE_STATIC);
    sqlite3_bind_text(fts_st, 5, work, -1, SQLITE_STATIC);
    sqlite3_bind_text(fts_st, 6, zh, -1, SQLITE_STATIC);
    if (sqlite3_step(fts_st) != SQLITE_DONE) {
        rc = sql_fail(w, "writing the full-text index");
        goto done;
    }
    for (size_t i = 0; i < r->aliases.n && rc == ERRATA_OK; i++) {
        sqlite3_reset(alias_st);
        sqlite3_bind_text(alias_st, 1, r->aliases.v[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(alias_st, 2, rid);
        if (sqlite3_step(alias_st) != SQLITE_DONE)
            rc = sql_fail(w, "writing aliases");
    }
    for (int k = 0; k < EDGE_KINDS && rc == ERRATA_OK; k++) {
        for (size_t i = 0; i < r->n_edges[k] && rc == ERRATA_OK; i++) {
            const rec_edge *e = &r->edges[k][i];
            sqlite3_reset(edge_st);
            sqlite3_bind_text(edge_st, 1, r->id, -1, SQLITE_STATIC);
            sqlite3_bind_text(edge_st, 2, edge_kind_names[k], -1, SQLITE_STATIC);
            sqlite3_bind_text(edge_st, 3, e->id, -1, SQLITE_STATIC);
            if (e->has_probability)
                sqlite3_bind_double(edge_st, 4, e->probability);
            else
                sqlite3_bind_null(edge_st, 4);
            if (e->condition)
                sqlite3_bind_text(edge_st, 5, e->condition, -1, SQLITE_STATIC);
            else
                sqlite3_bind_null(edge_st, 5);
            if (sqlite3_step(edge_st) != SQLITE_DONE)
                rc = sql_fail(w, "writing graph edges");
        }
    }
done:
    free(json), free(work), free(zh), free(aliases);
    return rc;
}

static int cmp_entry_id(const void *a, const void *b)
{
    const kb_entry *x = a, *y = b;
    return strcmp(x->rec->id, y->rec->id);
}

/* Stores the literals errata_scan's prefilter looks for (prefilter.h). */
/* A record whose category ends in "_notice" is never reported by a scan (scan.c): it gets no
 * literals, so its common words never open a window. */
static bool is_notice_category(const char *category)
{
    size_t n = strlen(category);
    return n >= 7 && strcmp(category + n - 7, "_notice") == 0;
}

static errata_code write_scan_literals(writer *w, sqlite3_stmt *st, const kb_set *set,
                                       errata_build_report *rep)
{
    size_t n = set->n;
    enum { MAX_ALTS = 64 };
    char (*lits)[PATTERN_MAX_LITERAL + 1] = malloc(MAX_ALTS * sizeof *lits);
    if (!lits)
        return set_error(w->err, ERRATA_ERR_NOMEM, "out of memory");
    errata_code rc = ERRATA_OK;
    for (size_t i = 0; i < n && rc == ERRATA_OK; i++) {
        const record *r = set->items[i].rec;
        if (is_notice_category(r->category))
            continue;
        size_t k = pattern_required_literals(r->regex, lits, MAX_ALTS);
        rep->unfiltered += k == 0;
        for (size_t j = 0; j < k && rc == ERRATA_OK; j++) {
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, (long long)i + 1);
            sqlite3_bind_text(st, 2, lits[j], -1, SQLITE_STATIC);
            if (sqlite3_step(st) != SQLITE_DONE)
                rc = sql_fail(w, "writing the scan literals");
        }
    }
    free(lits);
    return rc;
}

static errata_code write_records(writer *w, kb_set *set, errata_build_report *rep)
{
    qsort(set->items, set->n, sizeof *set->items, cmp_entry_id);
    const char **regexes = calloc(set->n ? set->n : 1, sizeof *regexes);
    engine_kind *engines = calloc(set->n ? set->n : 1, sizeof *engines);
    sqlite3_stmt *rec_st = NULL, *fts_st = NULL, *alias_st = NULL, *edge_st = NULL, *hs_st = NULL,
                 *pre_st = NULL;
    hs_database_t *hs = NULL;
    char *blob = NULL;
    size_t blob_len = 0;
    errata_code rc = ERRATA_OK;
    if (!regexes || !engines) {
        rc = set_error(w->err, ERRATA_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (sqlite3_prepare_v2(w->db, "INSERT INTO records VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1,
                           &rec_st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(w->db,
                           "INSERT INTO records_fts(rowid, signature, aliases, root_cause, "
                           "workarounds, zh) VALUES(?,?,?,?,?,?)",
                           -1, &fts_st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(w->db, "INSERT INTO aliases VALUES(?, ?)", -1, &alias_st, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(w->db, "INSERT INTO edges VALUES(?,?,?,?,?)", -1, &edge_st, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(w->db, "INSERT INTO hs_database VALUES(1, ?)", -1, &hs_st, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(w->db, "INSERT INTO scan_literals VALUES(?, ?)", -1, &pre_st, NULL) !=
            SQLITE_OK) {
        rc = sql_fail(w, "preparing statements");
        goto done;
    }
    for (size_t i = 0; i < set->n; i++) {
        regexes[i] = set->items[i].rec->regex;
        engines[i] = multiscan_classify(regexes[i]);
    }
    /* Compiled first: it may demote a pattern, and the stored engine must be the final one. */
    rc = multiscan_compile(regexes, engines, set->n, &hs, w->err);
    for (size_t i = 0; i < set->n && rc == ERRATA_OK; i++) {
        rep->hs_patterns += engines[i] == ENGINE_HS;
        rep->hs_prefilter += engines[i] == ENGINE_PREFILTER;
        rep->pcre_only += engines[i] == ENGINE_PCRE_ONLY;
        rc = insert_record(w, rec_st, fts_st, alias_st, edge_st, (long long)i + 1,
                           set->items[i].rec, engines[i]);
    }
    if (rc == ERRATA_OK && hs && hs_serialize_database(hs, &blob, &blob_len) != HS_SUCCESS)
        rc = set_error(w->err, ERRATA_ERR_INTERNAL, "could not serialise the pattern database");
    if (rc == ERRATA_OK) {
        sqlite3_bind_blob(hs_st, 1, blob ? blob : "", (int)blob_len, SQLITE_STATIC);
        if (sqlite3_step(hs_st) != SQLITE_DONE)
            rc = sql_fail(w, "writing the pattern database");
    }
    if (rc == ERRATA_OK)
        rc = write_scan_literals(w, pre_st, set, rep);
    rep->records = set->n;
done:
    sqlite3_finalize(rec_st), sqlite3_finalize(fts_st), sqlite3_finalize(alias_st);
    sqlite3_finalize(edge_st), sqlite3_finalize(hs_st), sqlite3_finalize(pre_st);
    hs_free_database(hs);
    free(blob);
    free(regexes);
    free(engines);
    return rc;
}

static errata_code write_meta(writer *w, const kb_set *set)
{
    char buf[64], when[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(buf, sizeof buf, "%d", ERRATA_INDEX_FORMAT);
    errata_code rc = put_meta(w, "format_version", buf);
    if (rc == ERRATA_OK)
        rc = put_meta(w, "kb_hash", set->hash);
    if (rc == ERRATA_OK)
        rc = put_meta(w, "built_at", when);
    if (rc == ERRATA_OK)
        rc = put_meta(w, "errata_version", ERRATA_VERSION);
    snprintf(buf, sizeof buf, "%zu", set->n);
    if (rc == ERRATA_OK)
        rc = put_meta(w, "record_count", buf);
    if (rc == ERRATA_OK)
        rc = put_meta(w, "hs_version", hs_version());
    return rc;
}

/* Whether out_path is already an index of this format built from the same knowledge base. */
static bool up_to_date(const char *out_path, const char *hash)
{
    errata_db *db = NULL;
    if (errata_open(out_path, &db, NULL) != ERRATA_OK)
        return false;
    const char *h = errata_db_meta(db, "kb_hash");
    bool same = h && strcmp(h, hash) == 0;
    errata_close(db);
    return same;
}

/* Durability: the new index's bytes reach the disk before the rename makes it the index, and
 * the rename reaches the disk before the build reports success. Without the first fsync a power
 * loss could leave the name pointing at an empty file. dir: fsync path's directory instead. */
static errata_code fsync_path(const char *path, bool dir, errata_error *err)
{
    char parent[4096];
    const char *target = path;
    if (dir) {
        const char *slash = strrchr(path, '/');
        snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash == path ? 1 : slash - path) : 1,
                 slash ? path : ".");
        target = parent;
    }
    int fd = open(target, dir ? O_RDONLY | O_DIRECTORY : O_RDWR);
    if (fd < 0)
        return set_error(err, ERRATA_ERR_IO, "%s: %s", target, strerror(errno));
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    if (rc != 0 && !(dir && (e == EINVAL || e == EROFS)))
        return set_error(err, ERRATA_ERR_IO, "%s: fsync: %s", target, strerror(e));
    return ERRATA_OK;
}

/* A builder killed half-way leaves OUT.tmp-PID behind. Such a file of a process that no longer
 * exists is removed; one of a live process (a build under way) is left alone. */
static void remove_stale_temporaries(const char *out_path)
{
    char pattern[4200];
    snprintf(pattern, sizeof pattern, "%s.tmp-*", out_path);
    glob_t g;
    if (glob(pattern, GLOB_NOSORT | GLOB_NOESCAPE, NULL, &g) != 0)
        return;
    size_t prefix = strlen(out_path) + strlen(".tmp-");
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *digits = g.gl_pathv[i] + prefix;
        char *end;
        long pid = strtol(digits, &end, 10);
        if (*digits && !*end && pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 &&
            errno == ESRCH)
            unlink(g.gl_pathv[i]);
    }
    globfree(&g);
}

static errata_code write_index(const char *tmp, kb_set *set, errata_build_report *rep,
                               errata_error *err)
{
    writer w = {NULL, tmp, err};
    if (sqlite3_open_v2(tmp, &w.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        errata_code rc = sql_fail(&w, "creating the index");
        sqlite3_close(w.db);
        return rc;
    }
    char pragma[96];
    snprintf(pragma, sizeof pragma, "PRAGMA application_id = %d; PRAGMA journal_mode = OFF;",
             INDEX_APPLICATION_ID);
    errata_code rc = exec(&w, pragma);
    if (rc == ERRATA_OK)
        rc = exec(&w, "BEGIN;" INDEX_SCHEMA_SQL);
    if (rc == ERRATA_OK)
        rc = write_records(&w, set, rep);
    if (rc == ERRATA_OK)
        rc = write_meta(&w, set);
    if (rc == ERRATA_OK)
        rc = exec(&w, "COMMIT; INSERT INTO records_fts(records_fts) VALUES('optimize');");
    if (sqlite3_close(w.db) != SQLITE_OK && rc == ERRATA_OK)
        rc = set_error(err, ERRATA_ERR_IO, "%s: could not close the index", tmp);
    return rc;
}

errata_code errata_build(const char *const *kb_dirs, size_t n_dirs, const char *out_path,
                         const errata_build_options *opts, errata_build_report *report,
                         errata_diags **diags_out, errata_error *err)
{
    errata_build_report rep = {0};
    if (diags_out)
        *diags_out = NULL;
    errata_diags *diags = diags_new();
    if (!diags)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    kb_set set;
    errata_code rc = kb_load(kb_dirs, n_dirs, &set, diags, err);
    if (rc == ERRATA_OK) {
        validate_all(&set, diags);
        snprintf(rep.kb_hash, sizeof rep.kb_hash, "%s", set.hash);
        if (diags->errors > 0)
            rc = set_error(err, ERRATA_ERR_INVALID,
                           "the knowledge base has %zu error(s); run errata validate", diags->errors);
        else if (set.n == 0)
            rc = set_error(err, ERRATA_ERR_INVALID, "no record files found");
    }
    if (rc == ERRATA_OK && !(opts && opts->force) && up_to_date(out_path, set.hash)) {
        rep.skipped = 1;
        rep.records = set.n;
    } else if (rc == ERRATA_OK) {
        size_t len = strlen(out_path) + 32;
        char *tmp = malloc(len);
        if (!tmp) {
            rc = set_error(err, ERRATA_ERR_NOMEM, "out of memory");
        } else {
            snprintf(tmp, len, "%s.tmp-%ld", out_path, (long)getpid());
            remove_stale_temporaries(out_path);
            unlink(tmp);
            rc = write_index(tmp, &set, &rep, err);
            if (rc == ERRATA_OK)
                rc = fsync_path(tmp, false, err);
            if (rc == ERRATA_OK && rename(tmp, out_path) != 0)
                rc = set_error(err, ERRATA_ERR_IO, "%s: %s", out_path, strerror(errno));
            if (rc == ERRATA_OK)
                rc = fsync_path(out_path, true, err);
            if (rc != ERRATA_OK)
                unlink(tmp);
            free(tmp);
        }
    }
    if (set.items || set.n)
        kb_free(&set);
    if (report)
        *report = rep;
    if (diags_out)
        *diags_out = diags;
    else
        errata_diags_free(diags);
    return rc;
}

errata_code index_build_temporary(const char *const *kb_dirs, size_t n_dirs, char *path,
                                  size_t path_size, errata_db **db, errata_error *err)
{
    *db = NULL;
    const char *tmpdir = getenv("TMPDIR");
    snprintf(path, path_size, "%s/errata-index-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return set_error(err, ERRATA_ERR_IO, "%s: cannot create a temporary index", path);
    close(fd);
    errata_build_options bo = {1};
    errata_code rc = errata_build(kb_dirs, n_dirs, path, &bo, NULL, NULL, err);
    if (rc == ERRATA_OK)
        rc = errata_open(path, db, err);
    if (rc != ERRATA_OK)
        unlink(path);
    return rc;
}
