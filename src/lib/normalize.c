/*
 * normalize.c — see normalize.h.
 */
#include "normalize.h"

#include <stdbool.h>
#include <stdint.h>

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0 if it is not valid. Rejects
 * overlong forms, surrogates and code points above U+10FFFF, as RFC 3629 requires. */
static size_t utf8_valid_len(const unsigned char *p, size_t n)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t len;
    uint32_t min, cp;
    if ((c & 0xE0) == 0xC0)
        len = 2, min = 0x80, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0)
        len = 3, min = 0x800, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0)
        len = 4, min = 0x10000, cp = c & 0x07;
    else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Length of the escape sequence starting with ESC at p. */
static size_t escape_len(const unsigned char *p, size_t n)
{
    if (n < 2)
        return 1;
    if (p[1] == '[') { /* CSI: parameters, then one final byte 0x40–0x7E */
        size_t i = 2;
        while (i < n && p[i] >= 0x20 && p[i] <= 0x3F)
            i++;
        while (i < n && p[i] >= 0x20 && p[i] <= 0x2F)
            i++;
        return i < n && p[i] >= 0x40 && p[i] <= 0x7E ? i + 1 : i;
    }
    if (p[1] == ']') { /* OSC: ends with BEL or ESC \ */
        for (size_t i = 2; i < n; i++) {
            if (p[i] == 0x07)
                return i + 1;
            if (p[i] == 0x1B && i + 1 < n && p[i + 1] == '\\')
                return i + 2;
            if (p[i] == '\n')
                return i;
        }
        return n;
    }
    return 2; /* ESC plus one byte: charset selection and the like */
}

void normalize_text(const char *in, size_t len, strbuf *out)
{
    const unsigned char *p = (const unsigned char *)in;
    sb_reserve(out, len + 16);
    size_t i = 0;
    while (i < len) {
        size_t run = i; /* copy plain printable ASCII and valid UTF-8 in one go */
        while (run < len) {
            unsigned char c = p[run];
            if (c >= 0x20 && c < 0x7F)
                run++;
            else if (c == '\n' || c == '\t')
                run++;
            else if (c >= 0x80) {
                size_t l = utf8_valid_len(p + run, len - run);
                if (!l)
                    break;
                run += l;
            } else
                break;
        }
        sb_append(out, in + i, run - i);
        i = run;
        if (i >= len)
            break;
        unsigned char c = p[i];
        if (c == 0x1B) {
            i += escape_len(p + i, len - i);
        } else if (c == '\r') {
            sb_putc(out, '\n');
            i += (i + 1 < len && p[i + 1] == '\n') ? 2 : 1;
        } else if (c >= 0x80) {
            sb_append(out, "\xEF\xBF\xBD", 3); /* U+FFFD */
            i++;
        } else {
            i++; /* NUL, DEL and other controls */
        }
    }
}
