/*
 * fileio.c — whole-file reads with a size limit, so that a 100 MB paste or a huge file gets a
 * clear "too large" error instead of exhausting memory.
 */
#include "fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

#define TOO_BIG "the input is larger than the limit of %zu bytes; give the part of the log around the error"

errata_code read_stream(void *stream, size_t max, char **out, size_t *len, errata_error *err)
{
    FILE *fp = stream;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory reading input");
    for (;;) {
        if (n == cap) {
            if (cap > max) {
                free(buf);
                return set_error(err, ERRATA_ERR_TOO_BIG, TOO_BIG, max);
            }
            cap *= 2;
            char *p = realloc(buf, cap + 1);
            if (!p) {
                free(buf);
                return set_error(err, ERRATA_ERR_NOMEM, "out of memory reading input");
            }
            buf = p;
        }
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0) {
            if (ferror(fp)) {
                int e = errno;
                free(buf);
                return set_error(err, ERRATA_ERR_IO, "reading input: %s", strerror(e));
            }
            break;
        }
    }
    if (n > max) {
        free(buf);
        return set_error(err, ERRATA_ERR_TOO_BIG, TOO_BIG, max);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return ERRATA_OK;
}

errata_code errata_read_all(void *stream, size_t max, char **out, size_t *len, errata_error *err)
{
    return read_stream(stream, max, out, len, err);
}

errata_code read_file(const char *path, size_t max, char **out, size_t *len, errata_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return set_error(err, ERRATA_ERR_IO, "%s: %s", path, strerror(errno));
    errata_code rc = read_stream(fp, max, out, len, err);
    fclose(fp);
    if (rc != ERRATA_OK && err) {
        char msg[sizeof err->message];
        snprintf(msg, sizeof msg, "%s", err->message);
        set_error(err, rc, "%s: %s", path, msg);
    }
    return rc;
}
