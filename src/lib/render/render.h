/*
 * render.h — the renderers behind errata_result_render() and errata_record_render(): one pair a
 * format, each in its own file (render_text.c, render_json.c, render_markdown.c,
 * render_html.c). Each returns a malloc'd NUL-terminated string, or NULL when out of memory.
 */
#ifndef ERRATA_RENDER_H
#define ERRATA_RENDER_H

#include "errata.h"

char *render_result_text(const errata_result *res, const errata_render_options *opts);
char *render_record_text(const errata_record *r, const errata_render_options *opts);
char *render_result_json(const errata_result *res, const errata_render_options *opts);
char *render_record_json(const errata_record *r);
char *render_result_markdown(const errata_result *res, const errata_render_options *opts);
char *render_record_markdown(const errata_record *r, const errata_render_options *opts);
char *render_result_html(const errata_result *res, const errata_render_options *opts);
char *render_record_html(const errata_record *r, const errata_render_options *opts);

/* One match in the JSON form of docs/json-output.md, appended to sb (rank from 1; 0 when the
 * match stands alone, as a scan's finding does). */
#include "strbuf.h"
void render_match_json(strbuf *sb, const errata_match *m, size_t rank);

#endif
