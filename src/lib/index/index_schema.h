/*
 * index_schema.h — the layout of the index file, shared by the writer (index_build.c) and the
 * reader (db.c) so the two cannot drift apart.
 *
 * The index is a SQLite file marked with application_id 'ERRT'. Its format version is
 * ERRATA_INDEX_FORMAT (errata.h), stored in meta; any change to the tables below bumps it.
 */
#ifndef ERRATA_INDEX_SCHEMA_H
#define ERRATA_INDEX_SCHEMA_H

#define INDEX_APPLICATION_ID 0x45525254 /* "ERRT" */

#define INDEX_SCHEMA_SQL                                                                          \
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"                              \
    /* rid - 1 is the record's pattern id in the multi-pattern database; records are stored in  \
     * id order. engine: 0 exact, 1 prefilter, 2 PCRE2 only (multiscan.h). scan_sum and        \
     * json_sum are the row's checksums (checksum.h), stored as the signed form of the uint64. */\
    "CREATE TABLE records("                                                                      \
    "  rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, domain TEXT NOT NULL,"                  \
    "  category TEXT NOT NULL, signature TEXT NOT NULL, regex TEXT NOT NULL,"                    \
    "  engine INTEGER NOT NULL, literals INTEGER NOT NULL, confidence REAL NOT NULL,"            \
    "  fix_success_rate REAL NOT NULL, verification_tier TEXT NOT NULL,"                        \
    "  scan_sum INTEGER NOT NULL, json_sum INTEGER NOT NULL, json TEXT NOT NULL);"              \
    "CREATE INDEX records_domain ON records(domain);"                                            \
    "CREATE TABLE aliases(alias TEXT NOT NULL, rid INTEGER NOT NULL REFERENCES records(rid));"   \
    "CREATE TABLE edges(src TEXT NOT NULL, kind TEXT NOT NULL, dst TEXT NOT NULL,"               \
    "  probability REAL, condition TEXT);"                                                       \
    "CREATE INDEX edges_src ON edges(src);"                                                      \
    "CREATE INDEX edges_dst ON edges(dst);"                                                      \
    "CREATE TABLE hs_database(id INTEGER PRIMARY KEY CHECK (id = 1), blob BLOB NOT NULL);"       \
    /* errata_scan's prefilter: the literals every match of a record's pattern contains, one row   \
     * each (pattern_required_literals); a record without them has no row. */                  \
    "CREATE TABLE scan_literals(rid INTEGER NOT NULL REFERENCES records(rid),"                  \
    "  literal TEXT NOT NULL);"                                                                  \
    "CREATE VIRTUAL TABLE records_fts USING fts5("                                               \
    "  signature, aliases, root_cause, workarounds, zh, tokenize = 'unicode61');"

#endif
