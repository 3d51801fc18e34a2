/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A scenario's timeline as a whole: what a shorter --duration would leave
 * out, and --scale, which shortens (or lengthens) every phase alike
 * (docs/cli.md, "--duration and --scale"). */
#ifndef HG_TIMELINE_H
#define HG_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "plan/plan.h"

/* The thread sets and loads that would never start if the run ended at
 * duration_ns (they start at or after it), as "threads rt (starts at 20s),
 * loads rx_alone (starts at 10s)" in out.  Returns how many. */
size_t hg_plan_dropped_by(const struct hg_plan *plan, uint64_t duration_ns, char *out,
			  size_t size);

/* Multiplies the duration and every thread's start and finish and every
 * load's start and stop by factor (> 0), rounded to the nanosecond; the
 * order of every two times is kept.  Returns 0, or -1 with err set when the
 * duration would fall below 1ms or above the longest a scenario allows. */
int hg_plan_scale(struct hg_plan *plan, double factor, char *err, size_t size);

/* What the command line asks of the run's length. */
struct hg_length {
	bool duration_given;
	uint64_t duration_ns;    /* --duration */
	bool cut;                /* --cut: --duration may leave thread sets and loads out */
	double scale;            /* --scale F (0: none) */
	bool quiet;              /* no notes */
	char *note;              /* out (may be NULL): what --duration stopped early,
				  * for result.json's warnings; "" when nothing */
	size_t note_size;
};

/* --scale, or --duration (refused, naming them, when thread sets or loads
 * would start at or after the new end, unless --cut).  `what` prefixes
 * messages ("hgrun: " or "hgrun: sweep point p003: ").  Returns 0, or -1
 * after printing why. */
int hg_plan_apply_length(struct hg_plan *plan, const struct hg_length *len, const char *what,
			 FILE *err);

#endif
