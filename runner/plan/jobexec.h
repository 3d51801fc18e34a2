/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-job execution times of periodic workloads: a fixed value, a cycled
 * list (MPEG frame types), or a seeded uniform/normal distribution clamped
 * to [min, max].  Draws are reproducible: same seed and instance, same
 * sequence. */
#ifndef HG_JOBEXEC_H
#define HG_JOBEXEC_H

#include <stdint.h>

#include "plan/plan.h"

struct hg_exec_gen {
	const struct hg_exec *exec;
	size_t next;             /* LIST: index of the next value */
	uint64_t state;          /* splitmix64 state */
	double spare;            /* NORMAL: second Box-Muller deviate */
	int has_spare;
};

/* Each instance of a thread set gets its own stream derived from the seed. */
void hg_exec_init(struct hg_exec_gen *g, const struct hg_exec *exec, unsigned instance);
/* The next job's execution time in ns. Allocation- and syscall-free. */
uint64_t hg_exec_next(struct hg_exec_gen *g);

/* splitmix64: the PRNG behind the distributions (exposed for tests). */
uint64_t hg_splitmix64(uint64_t *state);

#endif
