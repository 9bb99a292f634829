/*
 * html.h — escaping text for HTML, shared by every HTML renderer.
 */
#ifndef ERRATA_HTML_H
#define ERRATA_HTML_H

#include "strbuf.h"

/* Appends s with &, <, >, " and ' escaped: safe in element content and quoted attributes. */
void html_escape(strbuf *sb, const char *s);

#endif
