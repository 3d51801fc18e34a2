/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The single-producer, single-consumer ring (runner/base/ring.h): wrap-
 * around, drops counted on a full ring, and no loss across two threads
 * when the consumer keeps up. */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>

#include "unit.h"
#include "base/ring.h"

struct rec { uint64_t seq, check; };

static bool push(struct hg_ring *r, uint64_t seq)
{
	struct rec *s = hg_ring_claim(r);
	if (!s)
		return false;
	s->seq = seq;
	s->check = ~seq;
	hg_ring_publish(r);
	return true;
}

/* Drains everything waiting; checks order from *next; returns the count. */
static size_t drain(struct hg_ring *r, uint64_t *next, bool *ordered)
{
	size_t total = 0, n;
	for (;;) {
		const struct rec *s = hg_ring_peek(r, SIZE_MAX, &n);
		if (!n)
			return total;
		for (size_t i = 0; i < n; i++) {
			if (s[i].seq != *next || s[i].check != ~*next)
				*ordered = false;
			(*next)++;
		}
		hg_ring_release(r, n);
		total += n;
	}
}

static void test_capacity(void)
{
	static const struct { size_t ask; uint64_t cap; } c[] = {
		{ 0, 2 }, { 1, 2 }, { 2, 2 }, { 3, 4 }, { 1000, 1024 }, { 1024, 1024 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct hg_ring r;
		CHECK(hg_ring_init(&r, c[i].ask, sizeof(struct rec)) == 0, "init %zu", c[i].ask);
		CHECK(hg_ring_capacity(&r) == c[i].cap, "capacity of %zu: %llu", c[i].ask,
		      (unsigned long long)hg_ring_capacity(&r));
		CHECK(hg_ring_bytes(c[i].ask, 32) == c[i].cap * 32, "bytes of %zu", c[i].ask);
		hg_ring_free(&r);
	}
	struct hg_ring r;
	CHECK(hg_ring_init(&r, 8, 0) == -EINVAL, "record size 0 refused");
}

/* A full ring refuses and counts; draining frees room again; the records
 * come out in order across many wrap-arounds, and peek stops at the end
 * of the slots (the part after a wrap comes with the next call). */
static void test_full_and_wrap(void)
{
	struct hg_ring r;
	hg_ring_init(&r, 8, sizeof(struct rec));
	uint64_t seq = 0, next = 0;
	bool ordered = true;
	for (int i = 0; i < 8; i++)
		CHECK(push(&r, seq++), "push %d into an empty ring", i);
	CHECK(!push(&r, 99) && !push(&r, 99), "a full ring refuses");
	CHECK(hg_ring_dropped(&r) == 2, "two drops counted: %llu",
	      (unsigned long long)hg_ring_dropped(&r));
	CHECK(drain(&r, &next, &ordered) == 8 && ordered, "all 8 drained in order");
	size_t n;
	for (int round = 0; round < 100; round++) {
		for (int i = 0; i < 5; i++)
			push(&r, seq++);
		hg_ring_peek(&r, SIZE_MAX, &n);
		CHECK(n >= 1 && n <= 5, "peek gives a contiguous part: %zu", n);
		drain(&r, &next, &ordered);
	}
	CHECK(ordered && next == seq, "500 more through a ring of 8: next %llu, pushed %llu",
	      (unsigned long long)next, (unsigned long long)seq);
	CHECK(hg_ring_dropped(&r) == 2, "no drop while drained");
	hg_ring_peek(&r, SIZE_MAX, &n);
	CHECK(n == 0, "empty after draining");
	push(&r, seq++);
	push(&r, seq++);
	push(&r, seq++);
	hg_ring_peek(&r, 2, &n);
	CHECK(n == 2, "peek honours max: %zu", n);
	hg_ring_free(&r);
}

struct two_threads {
	struct hg_ring ring;
	uint64_t count;
	uint64_t pushed;
	_Atomic int done;
};

static void *producer(void *arg)
{
	struct two_threads *t = arg;
	for (uint64_t i = 0; i < t->count; i++) {
		while (!push(&t->ring, t->pushed))
			sched_yield(); /* the test waits; the runner drops instead */
		t->pushed++;
	}
	atomic_store(&t->done, 1);
	return NULL;
}

/* Two threads, a small ring: the consumer keeps up, so every record arrives
 * once and in order; the only drops are the refused claims the producer
 * retried (counted, as in the runner). */
static void test_two_threads(void)
{
	struct two_threads t = { .count = 2000000 };
	hg_ring_init(&t.ring, 256, sizeof(struct rec));
	atomic_init(&t.done, 0);
	pthread_t th;
	pthread_create(&th, NULL, producer, &t);
	uint64_t next = 0;
	bool ordered = true;
	while (!atomic_load(&t.done) || next < t.count)
		if (!drain(&t.ring, &next, &ordered))
			sched_yield();
	pthread_join(th, NULL);
	CHECK(ordered, "records in order across threads");
	CHECK(next == t.count, "received %llu of %llu", (unsigned long long)next,
	      (unsigned long long)t.count);
	hg_ring_free(&t.ring);
}

int main(void)
{
	test_capacity();
	test_full_and_wrap();
	test_two_threads();
	return unit_report("test_ring");
}
