/*
 * prefilter.h — the first stage of errata_scan: where in a log may a record's pattern match?
 *
 * Every pattern's matches contain one of its required literals (pattern_required_literals). The
 * prefilter finds every occurrence of every literal, caseless, in one pass over the log, testing
 * only every PF_STRIDE-th position:
 *
 * - A literal of PF_STRIDE + 7 characters or more covers a text position that is a multiple
 *   of PF_STRIDE with one of PF_STRIDE consecutive 8-byte windows of its own. Those windows,
 *   case-folded, are its anchors, taken where the fewest other literals share them (a common
 *   word of the records, "configur", is a common word of logs). The scan hashes the 8 bytes at
 *   each tested position and tests a Bloom filter of anchors; a rare hit is looked up among the
 *   anchors, checked against the literal's first 8 bytes, then compared whole.
 * - Literals of PF_STRIDE + 3 to PF_STRIDE + 6 characters get anchors of 4 bytes, the same way.
 * - The handful of shorter ones go to a Hyperscan literal database in streaming mode, fast for
 *   a few literals. Hyperscan alone was not: the bundled knowledge base's 4,400 literals ran at
 *   340–600 MB/s in it on this project's test machine, where the anchor pass runs at about
 *   1 GB/s (docs/scan.md).
 *
 * Hits are reported as the offset just past the literal, in increasing order within each of
 * the two kinds; a scan sorts them.
 */
#ifndef ERRATA_PREFILTER_H
#define ERRATA_PREFILTER_H

#include <hs/hs.h>
#include <stdbool.h>
#include <stdint.h>

#include "errata.h"

#define PF_STRIDE 4

typedef struct prefilter prefilter;

/* The literals (lowercase, as pattern_required_literals writes them) and the pattern each
 * belongs to. */
errata_code prefilter_new(const char *const *lits, const uint32_t *ids, size_t n, prefilter **out,
                          errata_error *err);
void prefilter_free(prefilter *p);

/* One scan's position in the log. */
typedef struct {
    uint64_t next;        /* the next position (a multiple of PF_STRIDE) the anchor pass tests */
    hs_stream_t *stream;  /* the short literals' stream; NULL when there are none */
    hs_scratch_t *scratch;
} prefilter_state;

errata_code prefilter_start(const prefilter *p, prefilter_state *st, errata_error *err);
void prefilter_end(prefilter_state *st);

/* Called with the offset just past each literal found and the pattern it belongs to; non-zero
 * stops the scan. */
typedef int (*prefilter_hit)(uint64_t end, uint32_t pattern, void *ctx);

/* Scans text, which holds the log's offsets [base, end); the bytes from the last call's end on
 * are new. Positions whose literal may run past end wait for the next call, unless final.
 * Returns ERRATA_OK, or an error when the callback stopped the scan or Hyperscan failed. */
errata_code prefilter_scan(const prefilter *p, prefilter_state *st, const char *text,
                           uint64_t base, uint64_t new_from, uint64_t end, bool final,
                           prefilter_hit hit, void *ctx, errata_error *err);

#endif
