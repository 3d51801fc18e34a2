/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress while a run lasts (docs/results.md): a start line, then on a
 * terminal a status line rewritten about once a second, elsewhere a plain
 * line now and then.  Printed by the streaming writer's thread. */
#ifndef HG_PROGRESS_H
#define HG_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results/totals.h"
#include "run/runstate.h"

struct hg_progress {
	FILE *out;                         /* NULL: quiet */
	bool tty;
	int64_t last;                      /* ns from time zero of the last line */
};

/* out NULL: print nothing (--quiet). */
void hg_progress_init(struct hg_progress *p, FILE *out);
/* The start line (and a warning said with it, note "" for none). */
void hg_progress_start(struct hg_progress *p, const struct hg_run_state *rs,
		       enum hg_trace_mode mode, const char *note);
/* tot: the writer's counts per thread (rs->n_workers of them). */
void hg_progress_tick(struct hg_progress *p, const struct hg_run_state *rs,
		      const struct hg_thread_totals *tot, int64_t now, bool final);

#endif
