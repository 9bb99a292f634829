/*
 * params.h — reading the request parameters every surface shares (the REST API's query
 * arguments and JSON bodies, MCP's tool arguments), so that each is read one way.
 */
#ifndef ERRATA_PARAMS_H
#define ERRATA_PARAMS_H

#include <stdbool.h>

#include "errata.h"

/* "en" or "zh" into *lang; NULL (not given) is English. False for any other text, *lang then
 * unchanged. */
bool server_parse_lang(const char *text, errata_lang *lang);

#endif
