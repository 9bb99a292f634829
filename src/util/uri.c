/*
 * uri.c — see uri.h.
 */
#include "uri.h"

#include <string.h>

void uri_escape_path(strbuf *sb, const char *path)
{
    /* RFC 3986 pchar (unreserved, sub-delims, ':' and '@') and '/' */
    static const char keep[] = "-._~!$&'()*+,;=:@/";
    for (const unsigned char *p = (const unsigned char *)path; p && *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            strchr(keep, *p))
            sb_putc(sb, (char)*p);
        else
            sb_printf(sb, "%%%02X", *p);
    }
}
