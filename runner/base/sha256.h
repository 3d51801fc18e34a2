/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SHA-256 (FIPS 180-4), for result.json's scenario_sha256. */
#ifndef HG_SHA256_H
#define HG_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct hg_sha256 {
	uint32_t h[8];
	uint64_t len;            /* bytes hashed so far */
	unsigned char buf[64];
	size_t n;                /* bytes in buf */
};

void hg_sha256_init(struct hg_sha256 *s);
void hg_sha256_update(struct hg_sha256 *s, const void *data, size_t len);
void hg_sha256_final(struct hg_sha256 *s, unsigned char out[32]);
/* One shot, as 64 lower-case hex digits and a NUL. */
void hg_sha256_hex(const void *data, size_t len, char out[65]);

#endif
