/*
 * html.c — see html.h.
 */
#include "html.h"

#include <string.h>

void html_escape(strbuf *sb, const char *s)
{
    while (*s) {
        size_t run = strcspn(s, "&<>\"'");
        sb_append(sb, s, run);
        s += run;
        switch (*s) {
        case '&': sb_puts(sb, "&amp;"); break;
        case '<': sb_puts(sb, "&lt;"); break;
        case '>': sb_puts(sb, "&gt;"); break;
        case '"': sb_puts(sb, "&quot;"); break;
        case '\'': sb_puts(sb, "&#39;"); break;
        default: return;
        }
        s++;
    }
}
