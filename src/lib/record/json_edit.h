/*
 * json_edit.h — changing one value of a record file without rewriting the file.
 *
 * Records are reviewed like code, so a tool that updates one field (errata verify --update)
 * must leave every other byte as its author wrote it: key order, spacing, escapes, numbers.
 * Re-serialising through a JSON library would not; this edits the text in place.
 */
#ifndef ERRATA_JSON_EDIT_H
#define ERRATA_JSON_EDIT_H

#include "errata.h"

/* Returns a copy of the JSON object text with the value of its top-level member `key` (a
 * string or null) replaced by the JSON string `value`. Fails with ERRATA_ERR_INVALID, naming
 * the key, when the object has no such member or its value is of another type. */
char *json_edit_top_string(const char *text, const char *key, const char *value,
                           errata_error *err);

#endif
