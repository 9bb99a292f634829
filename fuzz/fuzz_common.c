/*
 * fuzz_common.c — see fuzz.h. The index and environment are harness-local state, built once per
 * process: building an index for every input would spend the fuzzer's time compiling patterns.
 */
#define _GNU_SOURCE
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FUZZ_KB_DIR
#define FUZZ_KB_DIR "fuzz/kb"
#endif

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

char *fuzz_cstring(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        fuzz_fail("out of memory copying %zu bytes", size);
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

static errata_db *build_index(void)
{
    const char *kb = getenv("ERRATA_FUZZ_KB");
    if (!kb || !*kb)
        kb = FUZZ_KB_DIR;
    const char *tmp = getenv("TMPDIR");
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/errata-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        fuzz_fail("cannot make a temporary directory under %s", dir);
    snprintf(path, sizeof path, "%s/index.db", dir);
    errata_error err = {0};
    errata_build_options opts = {1};
    if (errata_build(&kb, 1, path, &opts, NULL, NULL, &err) != ERRATA_OK)
        fuzz_fail("cannot build the index of %s: %s", kb, err.message);
    errata_db *db = NULL;
    if (errata_open(path, &db, &err) != ERRATA_OK)
        fuzz_fail("cannot open %s: %s", path, err.message);
    unlink(path);
    rmdir(dir);
    return db;
}

errata_db *fuzz_db(void)
{
    static errata_db *db;
    if (!db)
        db = build_index();
    return db;
}

const errata_env *fuzz_env(void)
{
    static errata_env *env;
    static const char *const packages[] = {
        "pypi:torch==2.3.0",   "pypi:transformers==4.40.1", "pypi:peft==0.9.0",
        "npm:@babel/core==7.24.0", "node=20.11.0",         "cargo:serde==1.0.200"};
    if (env)
        return env;
    errata_error err = {0};
    if (errata_env_new(&env, &err) != ERRATA_OK)
        fuzz_fail("cannot make an environment: %s", err.message);
    for (size_t i = 0; i < sizeof packages / sizeof *packages; i++)
        if (errata_env_set(env, packages[i], &err) != ERRATA_OK)
            fuzz_fail("cannot set %s: %s", packages[i], err.message);
    return env;
}
