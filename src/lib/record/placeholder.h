/*
 * placeholder.h — filling {name} placeholders in record text with a match's captures, so that
 * a workaround says `pip install torch` to the user whose error named torch.
 */
#ifndef ERRATA_PLACEHOLDER_H
#define ERRATA_PLACEHOLDER_H

#include "lookup.h"

/* Returns a malloc'd copy of text with each {name} whose name is a capture replaced by the
 * captured value; other braces are left as they are. caps may be NULL. NULL on no memory. */
char *fill_placeholders(const char *text, const capture *caps, size_t n_caps);

#endif
