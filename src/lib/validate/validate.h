/*
 * validate.h — the meaning checks of records: what a schema cannot say (docs/format.md).
 */
#ifndef ERRATA_VALIDATE_H
#define ERRATA_VALIDATE_H

#include "kb.h"

/* Checks one record alone: id and domain form, regex compiles and is specific, examples,
 * untranslated Chinese, empty dead-end actions. */
void validate_record(const record *r, const char *file, errata_diags *d);

/* Checks records together: duplicate ids, graph links that name no record, file names. */
void validate_set(const kb_set *set, errata_diags *d);

/* Runs both over a loaded set. */
void validate_all(const kb_set *set, errata_diags *d);

#endif
