/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which runs a shard makes, and in what order (docs/cli.md, "Shards and
 * run order").  Runs keep their numbers (run = repeat x points + point,
 * named pNNN/rM); only who runs them and when changes:
 *  - shards: with repeat >= N whole replicates go to each shard (replicate
 *    r to shard r % N), so every shard runs every point; otherwise each run
 *    goes to one of the shards with the fewest runs so far, the one where
 *    its axes' values are rarest, so every value of every axis is spread
 *    over the shards as evenly as the grid allows;
 *  - order: within each replicate the points run in an order shuffled with
 *    a seed (by default one derived from the sweep itself, so every shard
 *    and --resume agree), or in grid order on request. */
#ifndef HG_SWEEP_ORDER_H
#define HG_SWEEP_ORDER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "plan/plan.h"

struct hg_sweep_order {
	size_t n_points, n_runs;
	unsigned shard, shards;         /* shards 0: no sharding */
	bool whole_replicates;          /* repeat >= shards */
	bool shuffled;
	uint64_t seed;
	unsigned *shard_of;             /* per run */
	size_t *runs;                   /* this shard's runs, in the order they run */
	size_t n;
	size_t *position;               /* per run: its place in the whole sweep's order */
};

/* Returns 0, or -ENOMEM. */
int hg_sweep_order_make(struct hg_sweep_order *o, const struct hg_sweep_plan *sp,
			unsigned shard, unsigned shards, bool shuffled, uint64_t seed);
bool hg_sweep_order_mine(const struct hg_sweep_order *o, size_t run);
/* Prints "hgrun: warning: ..." for each axis value some shard never runs
 * (with fewer runs than shards it cannot be everywhere).  Returns how many. */
size_t hg_sweep_order_balance(const struct hg_sweep_order *o, const struct hg_sweep_plan *sp,
			      FILE *err);
/* sweep.json `order`. */
json_t *hg_sweep_order_json(const struct hg_sweep_order *o);
/* A seed from text (the sweep's identity): FNV-1a, 64 bits. */
uint64_t hg_sweep_seed_of(const char *text);
void hg_sweep_order_free(struct hg_sweep_order *o);

#endif
