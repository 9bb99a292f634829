/*
 * scan_stream.c — errata_scan_stream(): feeding a scan from a stream, gzip and Zstandard
 * decompressed on the way, recognised by their magic numbers rather than by a file name, so a
 * compressed log on stdin works too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "error.h"
#include "scan.h"

#define READ_SIZE ((size_t)1 << 20)

static errata_code read_error(errata_error *err, const char *what)
{
    return set_error(err, ERRATA_ERR_IO, "reading %s failed: %s", what, strerror(errno));
}

/* read(2), not fread: a pipe's bytes are scanned as they come (fread would wait for a whole
 * buffer), which is what `make 2>&1 | errata scan --jsonl` needs to report as it goes. Returns
 * the bytes read, 0 at the end, -1 on an error. */
static ssize_t read_some(int fd, char *buf, size_t n)
{
    for (;;) {
        ssize_t r = read(fd, buf, n);
        if (r >= 0 || errno != EINTR)
            return r;
    }
}

static errata_code feed_plain(errata_scan *s, int fd, char *buf, size_t have, errata_error *err)
{
    errata_code rc = errata_scan_feed(s, buf, have, err);
    while (rc == ERRATA_OK) {
        ssize_t n = read_some(fd, buf, READ_SIZE);
        if (n <= 0)
            return n < 0 ? read_error(err, "the input") : ERRATA_OK;
        rc = errata_scan_feed(s, buf, (size_t)n, err);
    }
    return rc;
}

/* Concatenated gzip members are one stream, as gunzip reads them. */
static errata_code feed_gzip(errata_scan *s, int fd, char *buf, size_t have, errata_error *err)
{
    char *out = malloc(READ_SIZE);
    z_stream z = {0};
    if (!out || inflateInit2(&z, 15 + 32) != Z_OK) {
        free(out);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory (gzip)");
    }
    errata_code rc = ERRATA_OK;
    bool ended = false;
    z.next_in = (Bytef *)buf, z.avail_in = (uInt)have;
    while (rc == ERRATA_OK) {
        if (z.avail_in == 0) {
            ssize_t n = read_some(fd, buf, READ_SIZE);
            if (n <= 0) {
                if (n < 0)
                    rc = read_error(err, "the gzip input");
                else if (!ended)
                    rc = set_error(err, ERRATA_ERR_IO, "the gzip input is truncated");
                break;
            }
            z.next_in = (Bytef *)buf, z.avail_in = (uInt)n;
        }
        z.next_out = (Bytef *)out, z.avail_out = (uInt)READ_SIZE;
        int zr = inflate(&z, Z_NO_FLUSH);
        ended = false;
        if (zr == Z_STREAM_END) {
            ended = true;
            inflateReset(&z);
        } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
            rc = set_error(err, ERRATA_ERR_IO, "the gzip input is damaged (%s)",
                           z.msg ? z.msg : "bad data");
            break;
        }
        rc = errata_scan_feed(s, out, READ_SIZE - z.avail_out, err);
    }
    inflateEnd(&z);
    free(out);
    return rc;
}

static errata_code feed_zstd(errata_scan *s, int fd, char *buf, size_t have, errata_error *err)
{
    ZSTD_DStream *z = ZSTD_createDStream();
    char *out = malloc(READ_SIZE);
    if (!z || !out) {
        ZSTD_freeDStream(z);
        free(out);
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory (zstd)");
    }
    ZSTD_initDStream(z);
    ZSTD_inBuffer ib = {buf, have, 0};
    errata_code rc = ERRATA_OK;
    size_t hint = 1;
    while (rc == ERRATA_OK) {
        if (ib.pos == ib.size) {
            ssize_t n = read_some(fd, buf, READ_SIZE);
            if (n <= 0) {
                if (n < 0)
                    rc = read_error(err, "the zstd input");
                else if (hint != 0)
                    rc = set_error(err, ERRATA_ERR_IO, "the zstd input is truncated");
                break;
            }
            ib = (ZSTD_inBuffer){buf, (size_t)n, 0};
        }
        ZSTD_outBuffer ob = {out, READ_SIZE, 0};
        hint = ZSTD_decompressStream(z, &ob, &ib);
        if (ZSTD_isError(hint)) {
            rc = set_error(err, ERRATA_ERR_IO, "the zstd input is damaged (%s)",
                           ZSTD_getErrorName(hint));
            break;
        }
        rc = errata_scan_feed(s, out, ob.pos, err);
    }
    ZSTD_freeDStream(z);
    free(out);
    return rc;
}

errata_code errata_scan_stream(errata_scan *s, FILE *in, errata_error *err)
{
    if (!s || !in)
        return set_error(err, ERRATA_ERR_ARG, "no scan or stream given");
    char *buf = malloc(READ_SIZE);
    if (!buf)
        return set_error(err, ERRATA_ERR_NOMEM, "out of memory");
    /* The first bytes say the format; a pipe may give fewer than 4 at once. */
    int fd = fileno(in);
    size_t have = 0;
    ssize_t n = 1;
    while (have < 4 && (n = read_some(fd, buf + have, READ_SIZE - have)) > 0)
        have += (size_t)n;
    errata_code rc;
    const unsigned char *b = (const unsigned char *)buf;
    if (n < 0)
        rc = read_error(err, "the input");
    else if (have >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        rc = feed_gzip(s, fd, buf, have, err);
    else if (have >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)
        rc = feed_zstd(s, fd, buf, have, err);
    else
        rc = feed_plain(s, fd, buf, have, err);
    free(buf);
    return rc;
}
