/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SHA-256 against the FIPS 180-4 / NIST example vectors (runner/base/sha256.c). */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "base/sha256.h"


struct vcase { const char *in; const char *want; };

static void test_vectors(void)
{
	static const struct vcase cases[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
		{ "The quick brown fox jumps over the lazy dog",
		  "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char hex[65];
		hg_sha256_hex(cases[i].in, strlen(cases[i].in), hex);
		CHECK(strcmp(hex, cases[i].want) == 0, "sha256(\"%.20s...\") = %s", cases[i].in, hex);
	}
}

/* One million 'a', fed in uneven pieces: exercises buffering. */
static void test_million_a(void)
{
	struct hg_sha256 s;
	unsigned char block[997], d[32];
	memset(block, 'a', sizeof(block));
	hg_sha256_init(&s);
	size_t left = 1000000;
	while (left) {
		size_t n = left < sizeof(block) ? left : sizeof(block);
		hg_sha256_update(&s, block, n);
		left -= n;
	}
	hg_sha256_final(&s, d);
	static const unsigned char want[32] = {
		0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92, 0x81, 0xa1, 0xc7, 0xe2, 0x84, 0xd7,
		0x3e, 0x67, 0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97, 0x20, 0x0e, 0x04, 0x6d, 0x39, 0xcc,
		0xc7, 0x11, 0x2c, 0xd0,
	};
	CHECK(memcmp(d, want, 32) == 0, "sha256 of a million 'a'");
}

/* Lengths around the 55/56/64-byte padding boundaries agree between one
 * shot and byte-at-a-time updates. */
static void test_boundaries(void)
{
	char buf[130];
	memset(buf, 'x', sizeof(buf));
	for (size_t n = 50; n < sizeof(buf); n++) {
		char one[65], bytes[65];
		hg_sha256_hex(buf, n, one);
		struct hg_sha256 s;
		unsigned char d[32];
		hg_sha256_init(&s);
		for (size_t i = 0; i < n; i++)
			hg_sha256_update(&s, buf + i, 1);
		hg_sha256_final(&s, d);
		for (int i = 0; i < 32; i++)
			snprintf(bytes + 2 * i, 3, "%02x", d[i]);
		CHECK(strcmp(one, bytes) == 0, "length %zu: one shot and bytewise differ", n);
	}
}

int main(void)
{
	test_vectors();
	test_million_a();
	test_boundaries();
	return unit_report("test_sha256");
}
