/*
 * json_edit.c — see json_edit.h.
 *
 * A small scanner walks the text as JSON tokens, tracking depth and string state, so that a key
 * is found only where it is a member name of the outermost object: the same words inside an
 * example string or a nested object are never touched.
 */
#include "json_edit.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "strbuf.h"

/* The end of the JSON string starting at s (at its opening quote): just past its closing quote,
 * or NULL when it is unterminated. */
static const char *string_end(const char *s)
{
    for (s++; *s; s++) {
        if (*s == '\\' && s[1])
            s++;
        else if (*s == '"')
            return s + 1;
    }
    return NULL;
}

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    return s;
}

/* Finds the value of top-level member key: sets *from and *to around it. */
static bool find_member(const char *text, const char *key, const char **from, const char **to)
{
    size_t klen = strlen(key);
    int depth = 0;
    bool expect_key = false;
    for (const char *s = text; *s;) {
        if (*s == '"') {
            const char *end = string_end(s);
            if (!end)
                return false;
            if (depth == 1 && expect_key) {
                const char *colon = skip_ws(end);
                if ((size_t)(end - s - 2) == klen && memcmp(s + 1, key, klen) == 0 &&
                    *colon == ':') {
                    const char *v = skip_ws(colon + 1);
                    const char *vend = *v == '"'                     ? string_end(v)
                                       : strncmp(v, "null", 4) == 0 ? v + 4
                                                                    : NULL;
                    if (!vend)
                        return false;
                    *from = v, *to = vend;
                    return true;
                }
                expect_key = false;
            }
            s = end;
            continue;
        }
        if (*s == '{' || *s == '[')
            depth++, expect_key = *s == '{' && depth == 1;
        else if (*s == '}' || *s == ']')
            depth--;
        else if (*s == ',' && depth == 1)
            expect_key = true;
        s++;
    }
    return false;
}

static void json_quoted(strbuf *sb, const char *s)
{
    sb_putc(sb, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_printf(sb, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            sb_printf(sb, "\\u%04x", (unsigned char)*s);
        else
            sb_putc(sb, *s);
    }
    sb_putc(sb, '"');
}

char *json_edit_top_string(const char *text, const char *key, const char *value,
                           errata_error *err)
{
    const char *from, *to;
    if (!find_member(text, key, &from, &to)) {
        set_error(err, ERRATA_ERR_INVALID, "%s: no top-level string or null to update", key);
        return NULL;
    }
    strbuf sb;
    sb_init(&sb);
    sb_append(&sb, text, (size_t)(from - text));
    json_quoted(&sb, value);
    sb_puts(&sb, to);
    char *out = sb_finish(&sb);
    if (!out)
        set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    return out;
}
