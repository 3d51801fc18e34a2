/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unit tests' one checking macro and their closing line ("N passed,
 * N failed", which ctest's output and CI read). */
#ifndef HG_TEST_UNIT_H
#define HG_TEST_UNIT_H

#include <stdio.h>

static int passed, failed;

#define CHECK(cond, ...) do { if (cond) passed++; else { failed++; \
	printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

/* The test program's exit status, after printing the counts. */
static inline int unit_report(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, passed, failed);
	return failed != 0;
}

#endif
