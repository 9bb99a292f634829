/*
 * checksum.c — 64-bit FNV-1a over the fields of a record row; see checksum.h.
 */
#include "checksum.h"

#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= FNV_PRIME;
    }
    return h;
}

uint64_t checksum_bytes(const char *s, size_t n) { return fnv(FNV_OFFSET, s, n); }

uint64_t checksum_scan_fields(const char *id, const char *regex, engine_kind engine,
                              unsigned literals)
{
    /* Each string with its NUL, so that ("ab", "c") and ("a", "bc") differ. */
    uint64_t h = fnv(FNV_OFFSET, id, strlen(id) + 1);
    h = fnv(h, regex, strlen(regex) + 1);
    unsigned char tail[5] = {(unsigned char)engine, (unsigned char)(literals & 0xff),
                             (unsigned char)((literals >> 8) & 0xff),
                             (unsigned char)((literals >> 16) & 0xff),
                             (unsigned char)((literals >> 24) & 0xff)};
    return fnv(h, tail, sizeof tail);
}
