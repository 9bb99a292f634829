/*
 * fuzz_index_open.c — errata_open on any file: the bytes are written to a file (one per
 * process, under $TMPDIR, removed at exit) and opened as an index. An
 * index is found on disk and may be damaged, truncated, from another version or not an index
 * at all; it must never crash the reader. The seed corpus is a real small index, so that
 * mutations reach the tables, the checksums and the pattern database behind the header.
 *
 * Properties: the open either succeeds, and then lookups, record reads and catalog answers do
 * not crash and fail only with a message; or it fails as docs/index-file.md says a bad file
 * fails — not an index, stale, or corrupt — with a message that names the file.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static const char *const PROBES[] = {
    "ModuleNotFoundError: No module named 'torch'",
    "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1234 (apt)",
    "Error [ERR_REQUIRE_ESM]: require() of ES Module /app/node_modules/x/index.js not supported.",
    "everything went fine, 0 errors",
};

/* The file the bytes go to: one per process, rewritten for each input. (SQLite resolves the
 * path it is given, so an anonymous memory file's /proc/self/fd name will not do.) */
static int index_fd = -1;
static char index_path[4096];

static void remove_index(void) { unlink(index_path); }

static void write_index(const uint8_t *data, size_t size)
{
    if (index_fd < 0) {
        const char *tmp = getenv("TMPDIR");
        snprintf(index_path, sizeof index_path, "%s/errata-fuzz-index-XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        index_fd = mkstemp(index_path);
        if (index_fd < 0)
            fuzz_fail("cannot make a file like %s", index_path);
        atexit(remove_index);
    }
    if (ftruncate(index_fd, 0) != 0 || pwrite(index_fd, data, size, 0) != (ssize_t)size)
        fuzz_fail("cannot write the index file");
}

/* A call that failed must say why; err is cleared for the next call. */
static void need_message(errata_code rc, errata_error *err, const char *what)
{
    if (rc != ERRATA_OK && (!err->message[0] || rc > ERRATA_ERR_INTERNAL))
        fuzz_fail("%s failed with code %d and message '%s'", what, rc, err->message);
    *err = (errata_error){0};
}

static void read_everything(errata_db *db)
{
    errata_error err = {0};
    for (size_t i = 0; i < sizeof PROBES / sizeof *PROBES; i++) {
        errata_result *res = NULL;
        errata_code rc = errata_lookup(db, PROBES[i], strlen(PROBES[i]), NULL, &res, &err);
        need_message(rc, &err, "a lookup");
        if (rc == ERRATA_OK) {
            free(errata_result_render(res, ERRATA_FORMAT_JSON, NULL));
            errata_result_free(res);
        }
    }
    size_t n = errata_db_record_count(db);
    for (size_t i = 0; i < n && i < 64; i++) {
        const errata_record *r = NULL;
        errata_code rc = errata_record_at(db, i, &r, &err);
        need_message(rc, &err, "a record read");
        if (rc == ERRATA_OK)
            free(errata_record_render(r, ERRATA_FORMAT_TEXT, NULL));
    }
    char *out = NULL;
    need_message(errata_stats(db, ERRATA_FORMAT_JSON, NULL, &out, &err), &err, "stats");
    free(out), out = NULL;
    need_message(errata_domains(db, ERRATA_FORMAT_JSON, NULL, &out, &err), &err, "domains");
    free(out), out = NULL;
    errata_code rc = errata_chain(db, "python/modulenotfounderror-no-module-named", 3,
                                  ERRATA_FORMAT_JSON, NULL, &out, &err);
    if (rc != ERRATA_ERR_NOT_FOUND)
        need_message(rc, &err, "a chain");
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    write_index(data, size);
    errata_db *db = NULL;
    errata_error err = {0};
    errata_code rc = errata_open(index_path, &db, &err);
    if (rc == ERRATA_OK) {
        read_everything(db);
        errata_close(db);
        return 0;
    }
    if (db)
        fuzz_fail("a failed open returned an index");
    if (rc != ERRATA_ERR_CORRUPT && rc != ERRATA_ERR_NOT_INDEX && rc != ERRATA_ERR_STALE)
        fuzz_fail("the open failed with code %d (%s): %s", rc, errata_code_name(rc), err.message);
    if (!strstr(err.message, index_path))
        fuzz_fail("the error does not name the file: %s", err.message);
    return 0;
}
