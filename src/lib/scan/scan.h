/*
 * scan.h — errata_scan: every known failure in a whole log, streamed in bounded memory.
 *
 *   bytes ─▶ ANSI escapes removed (a state machine: a sequence split between two chunks too)
 *         ─▶ literal prefilter: Hyperscan in streaming mode, the strings every match of each
 *            pattern must contain (multiscan_compile_prefilter)
 *         ─▶ a window of lines around each hit, hits close together sharing one window
 *         ─▶ lookup_text() on each window: the full patterns, PCRE2, ranking ─▶ findings
 *
 * The prefilter runs at the speed of a literal matcher over the whole log; the full patterns
 * only ever see the few kilobytes around a hit. A finding is one record, however often its
 * error occurs: its first occurrence (match, captures, context lines), how many, the last line.
 */
#ifndef ERRATA_SCAN_H
#define ERRATA_SCAN_H

#include <stdint.h>

#include "errata.h"
#include "lookup.h"
#include "strbuf.h"

/* A window holds WINDOW_LINES_BEFORE lines before the first hit's line and WINDOW_LINES_AFTER
 * after the last one, but reaches at most WINDOW_BYTES_AROUND bytes from a hit: a signature
 * that spans lines (a traceback's header and its last line) is confirmed when it fits. Hits
 * whose windows touch share one, up to WINDOW_MAX_BYTES; a line longer than that (minified
 * JavaScript) is cut into windows of its own around each hit. */
#define WINDOW_LINES_BEFORE 12
#define WINDOW_LINES_AFTER 6
#define WINDOW_BYTES_AROUND 4096
#define WINDOW_MAX_BYTES 65536
/* The lines kept around a finding's first occurrence, for people; each cut to this many bytes. */
#define CONTEXT_LINES 2
#define CONTEXT_LINE_MAX 240
/* The first lines where a finding occurred are listed, up to this many. */
#define FINDING_LINES_MAX 16

struct errata_finding {
    errata_result *first;   /* holds one match: the first occurrence (captures, text, app.) */
    const errata_match *m;  /* first->m[0] */
    size_t occurrences;
    uint64_t first_line, last_line; /* 1-based lines of the input */
    uint64_t lines[FINDING_LINES_MAX]; /* the first lines where it occurred */
    size_t n_lines;
    char *context;          /* the lines around the first occurrence, '\n'-separated */
    uint64_t context_line;  /* the line number of context's first line */
};

#endif
