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

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

/* Appends the normalised form of in to out:
 * - invalid UTF-8 bytes become U+FFFD;
 * - ANSI escape sequences (CSI such as colours, OSC such as titles) are removed;
 * - CRLF and lone CR become LF; NUL and other C0 controls except TAB and LF are removed. */
void normalize_text(const char *in, size_t len, strbuf *out);

/* Removes, in place, each line's framing prefix from text (already normalised): ISO
 * timestamps ("2026-12-01T10:00:00.123Z ", "2026-12-01 10:00:00,123 "), bracketed times
 * ("[10:00:00] ", "[2026-12-01T10:00:00Z] "), a log level right after them ("ERROR ",
 * "[warn] "), GitHub Actions markers ("##[error]", "::error file=x::"), docker compose
 * ("web-1  | ") and kubectl ("[pod/name/container] ") prefixes. Line count is unchanged. */
void strip_line_prefixes(strbuf *text);

/* The number of lines of normalised text (1 for text without a newline). */
size_t normalized_lines(const char *s, size_t n);
/* Whether normalised text holds nothing but spaces, tabs and newlines. */
bool normalized_blank(const char *s, size_t n);

#endif
