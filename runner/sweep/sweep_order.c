/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shards and run order of a sweep (sweep/sweep_order.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/sweep.h"
#include "sweep/sweep_order.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t hg_sweep_seed_of(const char *text)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)text; p && *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h % 1000000000ull;   /* short enough to type back with --seed */
}

/* Index of (axis a, value v) in a flat array of every axis's values. */
static size_t slot(const struct hg_sweep_plan *sp, size_t a, size_t v)
{
	size_t k = 0;
	for (size_t i = 0; i < a; i++)
		k += sp->axes[i].n_values;
	return k + v;
}

static size_t n_slots(const struct hg_sweep_plan *sp)
{
	return slot(sp, sp->n_axes, 0);
}

/* Swaps two runs of different shards while that evens the values out (it
 * lowers the sum over shards and values of the squared counts; the shards
 * keep their sizes).  For sweeps of up to MAX_SWAP_RUNS runs. */
#define MAX_SWAP_RUNS 1024
static void improve(struct hg_sweep_order *o, const struct hg_sweep_plan *sp, size_t *count,
		    size_t ns)
{
	for (int pass = 0; pass < 20 && o->n_runs <= MAX_SWAP_RUNS; pass++) {
		bool swapped = false;
		for (size_t i = 0; i < o->n_runs; i++) {
			for (size_t k = i + 1; k < o->n_runs; k++) {
				unsigned A = o->shard_of[i], B = o->shard_of[k];
				if (A == B)
					continue;
				long delta = 0;
				for (size_t a = 0; a < sp->n_axes; a++) {
					size_t vi = slot(sp, a, hg_sweep_coord(sp, i % o->n_points, a));
					size_t vk = slot(sp, a, hg_sweep_coord(sp, k % o->n_points, a));
					if (vi != vk)
						delta += 2 * ((long)count[A * ns + vk] - (long)count[A * ns + vi] +
							      (long)count[B * ns + vi] - (long)count[B * ns + vk]) + 4;
				}
				if (delta >= 0)
					continue;
				for (size_t a = 0; a < sp->n_axes; a++) {
					size_t vi = slot(sp, a, hg_sweep_coord(sp, i % o->n_points, a));
					size_t vk = slot(sp, a, hg_sweep_coord(sp, k % o->n_points, a));
					count[A * ns + vi]--;
					count[A * ns + vk]++;
					count[B * ns + vk]--;
					count[B * ns + vi]++;
				}
				o->shard_of[i] = B;
				o->shard_of[k] = A;
				swapped = true;
			}
		}
		if (!swapped)
			break;
	}
}

/* Greedy: each run, in number order, to one of the shards with the fewest
 * runs, the one that has run its values least (ties: the lowest shard). */
static int balance(struct hg_sweep_order *o, const struct hg_sweep_plan *sp)
{
	size_t ns = n_slots(sp);
	size_t *count = calloc((size_t)o->shards * ns + 1, sizeof(*count));
	size_t *total = calloc(o->shards, sizeof(*total));
	if (!count || !total) {
		free(count);
		free(total);
		return -ENOMEM;
	}
	for (size_t run = 0; run < o->n_runs; run++) {
		size_t point = run % o->n_points, least = SIZE_MAX, best_cost = SIZE_MAX;
		unsigned best = 0;
		for (unsigned s = 0; s < o->shards; s++)
			least = total[s] < least ? total[s] : least;
		for (unsigned s = 0; s < o->shards; s++) {
			if (total[s] != least)
				continue;
			size_t cost = 0;
			for (size_t a = 0; a < sp->n_axes; a++)
				cost += count[s * ns + slot(sp, a, hg_sweep_coord(sp, point, a))];
			if (cost < best_cost) {
				best_cost = cost;
				best = s;
			}
		}
		o->shard_of[run] = best;
		total[best]++;
		for (size_t a = 0; a < sp->n_axes; a++)
			count[best * ns + slot(sp, a, hg_sweep_coord(sp, point, a))]++;
	}
	improve(o, sp, count, ns);
	free(count);
	free(total);
	return 0;
}

int hg_sweep_order_make(struct hg_sweep_order *o, const struct hg_sweep_plan *sp,
			unsigned shard, unsigned shards, bool shuffled, uint64_t seed)
{
	memset(o, 0, sizeof(*o));
	o->n_points = hg_sweep_n_points(sp);
	o->n_runs = o->n_points * sp->repeat;
	o->shard = shard;
	o->shards = shards;
	o->shuffled = shuffled;
	o->seed = seed;
	o->whole_replicates = shards && sp->repeat >= shards;
	size_t n = o->n_runs ? o->n_runs : 1;
	o->shard_of = calloc(n, sizeof(*o->shard_of));
	o->runs = calloc(n, sizeof(*o->runs));
	o->position = calloc(n, sizeof(*o->position));
	size_t *perm = calloc(o->n_points ? o->n_points : 1, sizeof(*perm));
	int rc = o->shard_of && o->runs && o->position && perm ? 0 : -ENOMEM;
	/* The greedy looks at every shard for every run: past this much work,
	 * runs are dealt round robin. */
	bool greedy = (uint64_t)o->n_runs * shards <= 50000000ull;
	if (!rc && shards && !o->whole_replicates && greedy)
		rc = balance(o, sp);
	for (size_t run = 0; !rc && shards && !o->whole_replicates && !greedy && run < o->n_runs; run++)
		o->shard_of[run] = (unsigned)(run % shards);
	for (size_t run = 0; !rc && o->whole_replicates && run < o->n_runs; run++)
		o->shard_of[run] = (unsigned)(run / o->n_points % shards);
	/* Each replicate's points in a shuffled order (Fisher-Yates, a stream
	 * per replicate), then this shard's runs among them. */
	for (size_t rep = 0, pos = 0; !rc && rep < sp->repeat; rep++) {
		uint64_t state = seed ^ (0x9e3779b97f4a7c15ull * (rep + 1));
		for (size_t p = 0; p < o->n_points; p++)
			perm[p] = p;
		for (size_t p = o->n_points; shuffled && p > 1; p--) {
			size_t k = (size_t)(splitmix64(&state) % p), t = perm[p - 1];
			perm[p - 1] = perm[k];
			perm[k] = t;
		}
		for (size_t p = 0; p < o->n_points; p++) {
			size_t run = rep * o->n_points + perm[p];
			o->position[run] = pos++;
			if (hg_sweep_order_mine(o, run))
				o->runs[o->n++] = run;
		}
	}
	free(perm);
	if (rc)
		hg_sweep_order_free(o);
	return rc;
}

bool hg_sweep_order_mine(const struct hg_sweep_order *o, size_t run)
{
	return !o->shards || o->shard_of[run] == o->shard;
}

size_t hg_sweep_order_balance(const struct hg_sweep_order *o, const struct hg_sweep_plan *sp,
			      FILE *err)
{
	size_t warned = 0;
	if (!o->shards || o->whole_replicates)
		return 0;
	for (size_t a = 0; a < sp->n_axes; a++) {
		for (size_t v = 0; v < sp->axes[a].n_values; v++) {
			size_t runs = 0, on = 0;
			bool *seen = calloc(o->shards, sizeof(*seen));
			if (!seen)
				return warned;
			for (size_t run = 0; run < o->n_runs; run++) {
				if (hg_sweep_coord(sp, run % o->n_points, a) != v)
					continue;
				runs++;
				on += !seen[o->shard_of[run]];
				seen[o->shard_of[run]] = true;
			}
			free(seen);
			if (on == o->shards)
				continue;
			if (!warned)
				fprintf(err, "hgrun: warning: --shard K/%u with repeat %u: not every value "
					"runs on every shard, so a shard's machine and the value cannot "
					"be told apart; with repeat %u or more every shard runs every "
					"point\n", o->shards, sp->repeat, o->shards);
			if (warned < 8)
				fprintf(err, "hgrun: warning:   %s=%s runs on %zu of %u shards (%zu run%s)\n",
					sp->axes[a].path, sp->axes[a].values[v], on, o->shards, runs,
					runs == 1 ? "" : "s");
			warned++;
		}
	}
	return warned;
}

json_t *hg_sweep_order_json(const struct hg_sweep_order *o)
{
	return json_pack("{s:s, s:I, s:s}", "within_replicate", o->shuffled ? "shuffled" : "grid",
			 "seed", (json_int_t)o->seed, "shards",
			 "whole replicates per shard when repeat >= N, else each value of each axis "
			 "spread evenly over the shards (docs/cli.md)");
}

void hg_sweep_order_free(struct hg_sweep_order *o)
{
	free(o->shard_of);
	free(o->runs);
	free(o->position);
	o->shard_of = NULL;
	o->runs = o->position = NULL;
}
