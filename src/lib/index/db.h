/*
 * db.h — an open index (errata_db): the records' table in memory, the multi-pattern database,
 * and the per-record state that is built lazily on first use.
 *
 * Opening reads only what every lookup needs (ids, regexes, engines, the serialised Hyperscan
 * database), so that a one-shot `errata lookup` process starts fast. A record's JSON is read
 * from the index and parsed, and its regex compiled by PCRE2, the first time a lookup needs it:
 * the JSON is the last column of a row, so reading the columns before it never walks the row's
 * overflow pages. `lock` guards that, the statement that reads JSON and the pool of Hyperscan
 * scratch spaces, so one db serves many threads.
 */
#ifndef ERRATA_DB_H
#define ERRATA_DB_H

#include <hs/hs.h>
#include <pthread.h>
#include <sqlite3.h>

#include "multiscan.h"
#include "pattern.h"
#include "record.h"

typedef struct {
    char *id;
    char *regex;
    char *json;         /* the record as stored; read with rec, NULL until then */
    engine_kind engine;
    unsigned literals;  /* pattern_min_literals(regex) */
    unsigned *alt_literals; /* literals of each top-level alternative; built with re */
    size_t n_alts;
    uint64_t json_sum;  /* checksum_bytes(json) as the build stored it */
    bool json_damaged;  /* json failed json_sum: never parsed, every use is an error */
    record *rec;        /* lazily parsed from json; NULL until then */
    pcre2_code *re;     /* lazily compiled (and JIT-compiled) */
    bool re_failed;     /* compiling failed once; do not retry on every lookup */
} db_entry;

typedef struct {
    char *alias;
    size_t entry;
} db_alias;

struct errata_db {
    sqlite3 *sql;            /* kept open for full-text search, graph queries, records' JSON */
    sqlite3_stmt *json_st;   /* reads one record's JSON; prepared on first use, under lock */
    char *path;
    db_entry *entries;       /* in id order; entry i is pattern id i */
    size_t n;
    db_alias *aliases;       /* sorted by alias */
    size_t n_aliases;
    size_t *pcre_only;       /* entries that Hyperscan does not take */
    size_t n_pcre_only;
    hs_database_t *hs;       /* NULL when no pattern is in it */
    hs_scratch_t **scratch;  /* free scratch spaces, one is taken per lookup */
    size_t n_scratch, cap_scratch;
    pcre2_match_context *mctx; /* match limits against hostile patterns */
    /* errata_scan's prefilter, built on the first scan under lock (a lookup never pays for
     * it) and freed with the db; the index knows only its literals (db_scan_literals). */
    void *scan_cache;
    void (*scan_cache_free)(void *);
    char *meta[6];           /* values of db_meta_keys[] */
    pthread_mutex_t lock;
};

extern const char *const db_meta_keys[6];

/* Entry i's record and compiled pattern, built on first use. Return NULL (with err set) when
 * the stored JSON or regex is broken, which only a corrupt index can cause. */
const record *db_record(errata_db *db, size_t i, errata_error *err);
const pcre2_code *db_pattern(errata_db *db, size_t i, errata_error *err);

/* Takes and returns a Hyperscan scratch space. */
hs_scratch_t *db_take_scratch(errata_db *db);
void db_give_scratch(errata_db *db, hs_scratch_t *s);

/* The entry of an id or alias, or (size_t)-1. */
/* The scan literals of the index: *lits (malloc'd, each malloc'd) and *ids (entry of each),
 * *n of them. ERRATA_ERR_CORRUPT, naming the index, when they are missing or name no record. */
errata_code db_scan_literals(errata_db *db, char ***lits, uint32_t **ids, size_t *n,
                             errata_error *err);

size_t db_find(const errata_db *db, const char *id);

#endif
