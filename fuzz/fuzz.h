/*
 * fuzz.h — what the harnesses share: the entry point libFuzzer calls (and replay_main.c calls
 * for each checked-in input), and a small index built once from the records in fuzz/kb/, for
 * the harnesses that look text up.
 */
#ifndef ERRATA_FUZZ_H
#define ERRATA_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "errata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The index of the records in fuzz/kb/ ($ERRATA_FUZZ_KB overrides the folder), built into a
 * temporary file on the first call and opened; the file is removed at once, the open handle
 * keeps it readable. Aborts when it cannot be built: a harness without its index tests nothing. */
errata_db *fuzz_db(void);

/* An environment naming a version of every package the records of fuzz/kb/ constrain, so that
 * lookups reach the applicability checks. */
const errata_env *fuzz_env(void);

/* A malloc'd copy of data with a NUL after it, as the server's transports hand over a body. */
char *fuzz_cstring(const uint8_t *data, size_t size);

/* Aborts with a message: a harness's property was broken. */
_Noreturn void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
