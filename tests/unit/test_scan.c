/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The random pattern of cpu_scan (runner/workloads/scan.c): the pointer
 * chase is ONE cycle through every 64-byte line of the working set, each
 * line visited exactly once per lap, reproducible from its seed. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "workloads/scan.h"

/* Follows the chase from line 0 for `lines` steps; returns how many steps
 * it took to come back to line 0 (0 if it never did), and counts in
 * seen[] how often each line was reached. */
static size_t lap(const unsigned char *buf, size_t lines, unsigned *seen)
{
	size_t at = 0;
	for (size_t step = 1; step <= lines; step++) {
		size_t next = *(const size_t *)(buf + at);
		if (next % HG_SCAN_LINE || next / HG_SCAN_LINE >= lines)
			return 0;       /* points outside the working set or mid-line */
		at = next;
		seen[at / HG_SCAN_LINE]++;
		if (at == 0)
			return step;
	}
	return 0;
}

static void test_one_full_cycle(void)
{
	static const size_t sizes[] = { 1, 2, 3, 7, 64, 1000, 4096, 65536 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t lines = sizes[s];
		for (uint64_t seed = 1; seed <= 3; seed++) {
			unsigned char *buf = calloc(lines, HG_SCAN_LINE);
			unsigned *seen = calloc(lines, sizeof(unsigned));
			hg_scan_chase_build(buf, lines, seed);
			size_t len = lap(buf, lines, seen);
			CHECK(len == lines, "%zu lines, seed %llu: the cycle through line 0 has %zu lines",
			      lines, (unsigned long long)seed, len);
			size_t once = 0;
			for (size_t i = 0; i < lines; i++)
				once += seen[i] == 1;
			CHECK(once == lines, "%zu lines, seed %llu: %zu visited exactly once", lines,
			      (unsigned long long)seed, once);
			free(buf);
			free(seen);
		}
	}
}

/* Not the identity, nor "next line" order: the hardware prefetcher must
 * not be able to follow it.  Few steps go to the adjacent line. */
static void test_not_sequential(void)
{
	size_t lines = 16384;
	unsigned char *buf = calloc(lines, HG_SCAN_LINE);
	hg_scan_chase_build(buf, lines, 7);
	size_t adjacent = 0;
	for (size_t i = 0; i < lines; i++) {
		size_t next = *(const size_t *)(buf + i * HG_SCAN_LINE) / HG_SCAN_LINE;
		adjacent += next == i + 1 || next + 1 == i;
	}
	CHECK(adjacent < lines / 100, "%zu of %zu steps go to an adjacent line", adjacent, lines);
	free(buf);
}

static void test_reproducible(void)
{
	size_t lines = 4096;
	unsigned char *a = calloc(lines, HG_SCAN_LINE), *b = calloc(lines, HG_SCAN_LINE);
	unsigned char *c = calloc(lines, HG_SCAN_LINE);
	hg_scan_chase_build(a, lines, 11);
	hg_scan_chase_build(b, lines, 11);
	hg_scan_chase_build(c, lines, 12);
	CHECK(memcmp(a, b, lines * HG_SCAN_LINE) == 0, "same seed, same cycle");
	CHECK(memcmp(a, c, lines * HG_SCAN_LINE) != 0, "another seed, another cycle");
	free(a);
	free(b);
	free(c);
}

static void test_lines(void)
{
	CHECK(hg_scan_lines(64) == 1, "64B is one line");
	CHECK(hg_scan_lines(65) == 2, "65B spans two lines");
	CHECK(hg_scan_lines(4096) == 64, "4KiB is 64 lines");
	CHECK(hg_scan_lines(0) == 1, "never 0 lines");
}

int main(void)
{
	test_one_full_cycle();
	test_not_sequential();
	test_reproducible();
	test_lines();
	return unit_report("test_scan");
}
