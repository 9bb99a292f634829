/*
 * normalize.h — turning whatever bytes a user pastes into text every engine can scan.
 *
 * Hyperscan's UTF-8 mode and PCRE2 (with its UTF check off) both assume valid UTF-8, and
 * terminal output carries colour codes and carriage returns that would split the words a
 * pattern looks for. Normalisation keeps line numbers: a line of the input is the same line of
 * the output.
 */
#ifndef ERRATA_NORMALIZE_H
#define ERRATA_NORMALIZE_H

#include <stddef.h>

#include "strbuf.h"

/* Appends the normalised form of in to out:
 * - invalid UTF-8 bytes become U+FFFD;
 * - ANSI escape sequences (CSI such as colours, OSC such as titles) are removed;
 * - CRLF and lone CR become LF; NUL and other C0 controls except TAB and LF are removed. */
void normalize_text(const char *in, size_t len, strbuf *out);

#endif
