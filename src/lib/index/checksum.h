/*
 * checksum.h — the checksums that let an open index tell a damaged row from a good one.
 *
 * SQLite notices a damaged b-tree, but not a flipped byte inside a row's text: such a row reads
 * back as a different regex or a different record, and the lookup would answer wrongly as if
 * nothing were amiss. Every record row therefore stores two checksums, written by the build: one
 * over what the scan needs (id, regex, engine, literal count), checked for every row at open,
 * and one over the record's JSON, checked when that record is first parsed, so that an open
 * does not hash megabytes of JSON it may never use. 64-bit FNV-1a: damage is accidental here
 * (a forger can write any index anyway), and 64 bits leave one damaged row in 2^64 unnoticed.
 */
#ifndef ERRATA_CHECKSUM_H
#define ERRATA_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

#include "multiscan.h"

/* The checksum of a row's scan fields. */
uint64_t checksum_scan_fields(const char *id, const char *regex, engine_kind engine,
                              unsigned literals);

/* The checksum of n bytes (a record's stored JSON). */
uint64_t checksum_bytes(const char *s, size_t n);

#endif
