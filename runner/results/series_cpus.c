/* SPDX-License-Identifier: GPL-2.0-or-later */
/* series.jsonl's CPU lines (docs/results.md): per series interval and per
 * scenario CPU, the interrupts it took, from /proc/interrupts (the rows
 * with one count per CPU, summed per column) read when the line is
 * written.  Dougan's jitter test ran under ~20 000 interrupts/s: this is
 * how a run shows its own rate over time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timeutil.h"
#include "ktrace/competition.h"
#include "results/series_cpus.h"

struct hg_series_cpus {
	cpu_set_t cpus;              /* the scenario's CPUs */
	uint64_t prev[CPU_SETSIZE];  /* counts at the last read */
	uint64_t now[CPU_SETSIZE];
	int64_t read_ns;             /* when `now` was read, from time zero */
};

static bool read_counts(uint64_t *intr)
{
	FILE *f = fopen("/proc/interrupts", "re");
	if (!f)
		return false;
	memset(intr, 0, CPU_SETSIZE * sizeof(*intr));
	hg_proc_interrupts_parse(f, intr);
	fclose(f);
	return true;
}

struct hg_series_cpus *hg_series_cpus_open(const struct hg_run_state *rs)
{
	struct hg_series_cpus *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	hg_plan_cpus(rs->plan, &c->cpus);
	if (!read_counts(c->prev)) {
		free(c);
		return NULL;
	}
	return c;
}

void hg_series_cpus_close(struct hg_series_cpus *c)
{
	free(c);
}

json_t *hg_series_cpus_next(struct hg_series_cpus *c, const struct hg_run_state *rs,
			    int64_t end, int64_t span, int *cpu)
{
	if (!c)
		return NULL;
	if (*cpu < 0) {   /* the first CPU of this interval: read the counts once */
		if (!read_counts(c->now))
			return NULL;
		c->read_ns = hg_now_ns() - rs->sync->t0_ns;
	}
	int k = *cpu + 1;
	while (k < CPU_SETSIZE && !CPU_ISSET(k, &c->cpus))
		k++;
	if (k >= CPU_SETSIZE) {
		memcpy(c->prev, c->now, sizeof(c->prev));
		return NULL;
	}
	*cpu = k;
	uint64_t n = c->now[k] >= c->prev[k] ? c->now[k] - c->prev[k] : 0;
	return json_pack("{s:I, s:I, s:I, s:i, s:I}", "t_ns", (json_int_t)end, "span_ns",
			 (json_int_t)span, "read_ns", (json_int_t)c->read_ns, "cpu", k,
			 "interrupts", (json_int_t)n);
}
