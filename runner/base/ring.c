/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ring's memory: one pre-touched mapping (base/buffer.h). */
#include <errno.h>
#include <string.h>

#include "base/buffer.h"
#include "base/ring.h"

static uint64_t round_pow2(size_t n)
{
	uint64_t c = 2;
	while (c < n)
		c <<= 1;
	return c;
}

size_t hg_ring_bytes(size_t capacity, size_t rec_size)
{
	return (size_t)round_pow2(capacity) * rec_size;
}

int hg_ring_init(struct hg_ring *r, size_t capacity, size_t rec_size)
{
	memset(r, 0, sizeof(*r));
	if (!rec_size || capacity > ((size_t)1 << 40))
		return -EINVAL;
	uint64_t cap = round_pow2(capacity);
	r->slots = hg_buffer_alloc((size_t)cap * rec_size);
	if (!r->slots)
		return -ENOMEM;
	r->rec_size = rec_size;
	r->mask = cap - 1;
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	atomic_init(&r->dropped, 0);
	return 0;
}

void hg_ring_free(struct hg_ring *r)
{
	if (r->slots)
		hg_buffer_free(r->slots, (size_t)hg_ring_capacity(r) * r->rec_size);
	r->slots = NULL;
}
