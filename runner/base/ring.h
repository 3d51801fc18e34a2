/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A lock-free single-producer, single-consumer ring of fixed-size records.
 * The producer (a measuring thread) claims a slot, fills it in place and
 * publishes it; a full ring drops the record and counts it, never waits.
 * The consumer (the streaming writer) reads published slots and releases
 * them.  C11 atomics only: no locks, syscalls or allocation after init.
 * head and tail count records since init (they never wrap in 2^64). */
#ifndef HG_RING_H
#define HG_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hg_ring {
	/* producer side */
	_Alignas(64) _Atomic uint64_t head;   /* records published */
	uint64_t tail_seen;                   /* producer's copy of tail */
	_Atomic uint64_t dropped;             /* records refused: ring full */
	/* consumer side */
	_Alignas(64) _Atomic uint64_t tail;   /* records consumed */
	/* constant after init */
	_Alignas(64) unsigned char *slots;
	size_t rec_size;
	uint64_t mask;                        /* capacity - 1 (a power of two) */
};

/* capacity is rounded up to a power of two (at least 2); the slots are
 * pre-touched (base/buffer.h).  Returns 0 or -ENOMEM / -EINVAL. */
int  hg_ring_init(struct hg_ring *r, size_t capacity, size_t rec_size);
void hg_ring_free(struct hg_ring *r);
/* Bytes hg_ring_init allocates for capacity records of rec_size. */
size_t hg_ring_bytes(size_t capacity, size_t rec_size);

static inline uint64_t hg_ring_capacity(const struct hg_ring *r)
{
	return r->mask + 1;
}

/* Producer: the next free slot, or NULL when the ring is full (the record
 * is then counted in `dropped`).  Fill it, then hg_ring_publish(). */
static inline void *hg_ring_claim(struct hg_ring *r)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	if (head - r->tail_seen > r->mask) {
		r->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
		if (head - r->tail_seen > r->mask) {
			atomic_store_explicit(&r->dropped,
				atomic_load_explicit(&r->dropped, memory_order_relaxed) + 1,
				memory_order_relaxed);
			return NULL;
		}
	}
	return r->slots + (head & r->mask) * r->rec_size;
}

static inline void hg_ring_publish(struct hg_ring *r)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
}

/* Consumer: up to max published records, contiguous in memory, from the
 * oldest; *n gets their count (0: none waiting).  Release them with
 * hg_ring_release() once read.  Call again for the part after a wrap. */
static inline const void *hg_ring_peek(struct hg_ring *r, size_t max, size_t *n)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
	uint64_t avail = head - tail;
	uint64_t to_end = hg_ring_capacity(r) - (tail & r->mask);
	if (avail > to_end)
		avail = to_end;
	if (avail > max)
		avail = max;
	*n = (size_t)avail;
	return r->slots + (tail & r->mask) * r->rec_size;
}

static inline void hg_ring_release(struct hg_ring *r, size_t n)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	atomic_store_explicit(&r->tail, tail + n, memory_order_release);
}

/* Empties the ring and its drop count: only while neither side runs. */
static inline void hg_ring_reset(struct hg_ring *r)
{
	atomic_store(&r->head, 0);
	atomic_store(&r->tail, 0);
	atomic_store(&r->dropped, 0);
	r->tail_seen = 0;
}

static inline uint64_t hg_ring_dropped(const struct hg_ring *r)
{
	return atomic_load_explicit(&r->dropped, memory_order_relaxed);
}

#endif
