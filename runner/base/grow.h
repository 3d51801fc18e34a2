/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Room for one more element in a growing array (doubling, from `first`):
 * the results' and samplers' lists whose length is known only at the end. */
#ifndef HG_GROW_H
#define HG_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The array `v` (of *cap elements of `size` bytes, n used), with room for
 * element n: `v` itself, or a larger copy (*cap updated); NULL when out of
 * memory, `v` and *cap then unchanged. */
static inline void *hg_grown(void *v, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return v;
	size_t want = *cap ? *cap * 2 : first;
	if (want <= n || want > SIZE_MAX / size)
		return NULL;
	void *q = realloc(v, want * size);
	if (q)
		*cap = want;
	return q;
}

#endif
