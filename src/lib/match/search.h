/*
 * search.h — full-text search over the records (SQLite FTS5, BM25), for `errata search` and as
 * the fallback of a lookup that no pattern matched.
 *
 * A fallback answer is a guess and is always marked as one ("match": "fuzzy"). It is offered
 * only when the words of the input cover enough of a record's signature and root cause that a
 * person would call it related; unrelated text gets nothing.
 */
#ifndef ERRATA_SEARCH_H
#define ERRATA_SEARCH_H

#include <stddef.h>

#include "db.h"
#include "lookup.h"
#include "strbuf.h"

/* Appends text with every run of CJK characters written as space-separated overlapping bigrams
 * ("权限被拒绝" → "权限 限被 被拒 拒绝"), so that FTS5's unicode61 tokenizer indexes Chinese
 * by bigram, the usual unit of CJK full-text search. Other text is copied as is. */
void cjk_bigrams(const char *text, strbuf *out);

/* Full-text search: fills res with up to max records, best first, marked fuzzy. When
 * guard is true (the lookup fallback), a record is kept only if the query's words cover enough
 * of it (see search.c); a free-text search keeps every hit. */
errata_code search_records(errata_db *db, const char *query, size_t len, size_t max, bool guard,
                           errata_result *res, errata_error *err);

/* The lines of a lookup input worth searching for: its last error lines; a short input (up to
 * three lines) whole; nothing ("") for a longer text without an error line. */
char *fallback_query(const char *text, size_t len);

#endif
