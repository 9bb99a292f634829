/*
 * fileio.c — whole-file reads with a size limit, so that a 100 MB paste or a huge file gets a
 * clear "too large" error instead of exhausting memory.
 */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

errata_code errata_read_all(FILE *stream, size_t max, char **out, size_t *len, errata_error *err)
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

static errata_code write_all(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return ERRATA_ERR_IO;
        data += n, len -= (size_t)n;
    }
    return ERRATA_OK;
}

static void fsync_parent(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

errata_code write_file_atomic(const char *path, const char *data, size_t len, errata_error *err)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid()) >= (int)sizeof tmp)
        return set_error(err, ERRATA_ERR_ARG, "%s: path too long", path);
    struct stat st;
    mode_t mode = stat(path, &st) == 0 ? st.st_mode & 07777 : 0644;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0)
        return set_error(err, ERRATA_ERR_IO, "%s: %s", tmp, strerror(errno));
    errata_code rc = write_all(fd, data, len);
    if (rc == ERRATA_OK && fsync(fd) != 0)
        rc = ERRATA_ERR_IO;
    int e = errno;
    if (close(fd) != 0 && rc == ERRATA_OK)
        rc = ERRATA_ERR_IO, e = errno;
    if (rc == ERRATA_OK && rename(tmp, path) != 0)
        rc = ERRATA_ERR_IO, e = errno;
    if (rc != ERRATA_OK) {
        unlink(tmp);
        return set_error(err, rc, "%s: %s", path, strerror(e));
    }
    fsync_parent(path);
    return ERRATA_OK;
}
