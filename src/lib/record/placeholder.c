/*
 * placeholder.c — see placeholder.h.
 */
#include "placeholder.h"

#include <string.h>

#include "strbuf.h"

char *fill_placeholders(const char *text, const capture *caps, size_t n_caps)
{
    strbuf sb;
    sb_init(&sb);
    const char *p = text;
    while (*p) {
        const char *open = strchr(p, '{');
        if (!open) {
            sb_puts(&sb, p);
            break;
        }
        sb_append(&sb, p, (size_t)(open - p));
        const char *close = strchr(open + 1, '}');
        const capture *hit = NULL;
        for (size_t i = 0; close && i < n_caps; i++) {
            size_t n = strlen(caps[i].name);
            if ((size_t)(close - open - 1) == n && strncmp(open + 1, caps[i].name, n) == 0)
                hit = &caps[i];
        }
        if (hit) {
            sb_puts(&sb, hit->value);
            p = close + 1;
        } else {
            sb_putc(&sb, '{');
            p = open + 1;
        }
    }
    return sb_finish(&sb);
}
