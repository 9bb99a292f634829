/*
 * render_labels.h — the words every renderer (text, Markdown, HTML) puts around a record, in
 * English and Chinese, so that the three say the same thing.
 */
#ifndef ERRATA_RENDER_LABELS_H
#define ERRATA_RENDER_LABELS_H

#include "errata.h"

typedef struct {
    const char *root_cause, *avoid, *try_, *why, *how, *when, *applies, *os, *docs, *trust,
        *next, *before, *confused, *also, *none, *fails, *works, *explain, *guess,
        *show;
    const char *avoid_tag, *try_tag; /* the marks before each dead end and workarounds */
    const char *unchecked; /* after the versions, when no environment was given */
    /* printf format: the knock-on error's id and line, when the answer is its cause */
    const char *cause_of_fmt;
    const char *sources; /* before the URLs a dead end or workaround cites */
    /* HTML only: the link from an answer to its record page, the matched line (printf format,
     * its number), a search's hits and their absence, the chain picture's name */
    const char *record_page, *matched_fmt, *hits, *no_hits, *chain;
    const char *confidence, *fix_rate, *resolvable; /* after the trust tier */
    /* errata check: printf formats of its heading (exposures, "s" or "", packages, "s" or "")
     * and of none found (packages, "s" or ""), and the words before an exposure's reason and
     * its first workaround */
    const char *check_some_fmt, *check_none_fmt, *because, *first_try;
} labels;

const labels *render_labels(errata_lang lang);

#endif
