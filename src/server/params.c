/*
 * params.c — see params.h.
 */
#include "params.h"

#include <string.h>

bool server_parse_lang(const char *text, errata_lang *lang)
{
    if (!text || strcmp(text, "en") == 0) {
        *lang = ERRATA_LANG_EN;
        return true;
    }
    if (strcmp(text, "zh") == 0) {
        *lang = ERRATA_LANG_ZH;
        return true;
    }
    return false;
}
