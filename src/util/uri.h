/*
 * uri.h — a file path as a URI reference, for SARIF's artifactLocation.uri: GitHub's upload
 * and the SARIF schema refuse "build log.txt", which must be written "build%20log.txt".
 */
#ifndef ERRATA_URI_H
#define ERRATA_URI_H

#include "strbuf.h"

/* Appends path with every byte that may not stand as itself in a URI path (RFC 3986: space,
 * %, #, ?, [, ], controls, non-ASCII bytes …) written %XX. '/' stays. */
void uri_escape_path(strbuf *sb, const char *path);

#endif
