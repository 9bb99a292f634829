/*
 * sha256.h — SHA-256 (FIPS 180-4), for the knowledge base's content hash.
 */
#ifndef ERRATA_SHA256_H
#define ERRATA_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
    size_t fill;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
/* Writes 64 hex digits and a NUL. */
void sha256_hex(sha256_ctx *c, char out[65]);

#endif
