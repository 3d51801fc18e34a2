/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU the scenario did not get, from the gap trace (results/not_received.h).
 *
 * Per CPU, time is cut into bins of HG_NR_BIN_NS.  Each bin adds up the
 * time scenario threads ran there (R: at most one at a time on a CPU, so a
 * sum) and the time one of them waited to run there (W: the largest of the
 * threads' own waits in the bin, a lower bound of their union).  A thread
 * waits on the CPU its last interval ran on, from the end of an interval
 * that ended preempted to the start of its next one; after a block, a
 * yield or its finish it does not want the CPU.  A bin's time not received
 * is max(0, W - R): exact when the wait covers the bin, and never more
 * than the truth at the bins' edges.  Bins live in a window of
 * WINDOW_BINS per CPU and are folded into per-phase totals once the writer
 * has drained everything that can fall in them; an interval that arrives
 * after its bins were folded (a thread ran longer than the window without
 * a gap) takes its time off that phase's total instead. */
#include <stdlib.h>
#include <string.h>

#include "base/cpuset.h"
#include "base/units.h"
#include "plan/load.h"
#include "results/not_received.h"
#include "run/runstate.h"

#define WINDOW_BINS 40000              /* 2 s of bins per CPU */
#define MAX_PHASES 512

struct bin {
	uint32_t ran, waited;
};

struct totals {
	uint64_t received_ns, not_received_ns, late_ns;
};

struct thread_state {
	int64_t prev_end;              /* -1: none */
	int prev_cpu;
	bool prev_preempted;
};

struct hg_not_received {
	int n_cpus;
	int cpu_of[CPU_SETSIZE];       /* CPU -> index, -1 not observed */
	int cpus[CPU_SETSIZE];         /* index -> CPU */
	struct bin *bins;              /* n_cpus x WINDOW_BINS, circular */
	int64_t folded;                /* bins before this number are folded */
	size_t n_phases;
	int64_t bounds[MAX_PHASES + 1];
	struct totals *tot;            /* n_phases x n_cpus */
	cpu_set_t *load_cpus;          /* per phase: CPUs a load of the scenario may use */
	char **load_names;             /* per phase: its loads, "rx, bg" or NULL */
	struct thread_state *th;
	size_t n_threads;
	int64_t duration_ns;
};

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Phases: cut at 0, the duration, every thread's start and finish and
 * every load's start and stop. */
static void make_phases(struct hg_not_received *nr, const struct hg_plan *plan)
{
	int64_t t[2 * MAX_PHASES + 2];
	size_t n = 0;
	int64_t d = (int64_t)plan->duration_ns;
	t[n++] = 0;
	t[n++] = d;
	for (size_t i = 0; i < plan->n_threads && n + 2 <= 2 * MAX_PHASES; i++) {
		t[n++] = (int64_t)plan->threads[i].start_ns;
		t[n++] = (int64_t)plan->threads[i].finish_ns;
	}
	for (size_t i = 0; i < plan->n_loads && n + 2 <= 2 * MAX_PHASES; i++) {
		t[n++] = (int64_t)plan->loads[i].start_ns;
		t[n++] = (int64_t)plan->loads[i].stop_ns;
	}
	qsort(t, n, sizeof(t[0]), cmp_i64);
	nr->n_phases = 0;
	nr->bounds[0] = 0;
	for (size_t i = 1; i < n && nr->n_phases < MAX_PHASES; i++)
		if (t[i] > nr->bounds[nr->n_phases] && t[i] <= d)
			nr->bounds[++nr->n_phases] = t[i];
}

static void phase_loads(struct hg_not_received *nr, const struct hg_plan *plan)
{
	cpu_set_t online;
	hg_cpuset_online(&online);
	for (size_t p = 0; p < nr->n_phases; p++) {
		char names[256] = "";
		size_t used = 0;
		CPU_ZERO(&nr->load_cpus[p]);
		for (size_t i = 0; i < plan->n_loads; i++) {
			const struct hg_load_plan *l = &plan->loads[i];
			if ((int64_t)l->start_ns >= nr->bounds[p + 1] || (int64_t)l->stop_ns <= nr->bounds[p])
				continue;
			CPU_OR(&nr->load_cpus[p], &nr->load_cpus[p], l->cpus_all ? &online : &l->cpus);
			if (used < sizeof(names))
				used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
							 used ? ", " : "", l->name);
		}
		nr->load_names[p] = used ? strdup(names) : NULL;
	}
}

struct hg_not_received *hg_nr_new(const struct hg_run_state *rs)
{
	struct hg_not_received *nr = calloc(1, sizeof(*nr));
	if (!nr)
		return NULL;
	cpu_set_t cpus;
	hg_plan_cpus(rs->plan, &cpus);
	for (int c = 0; c < CPU_SETSIZE; c++) {
		nr->cpu_of[c] = CPU_ISSET(c, &cpus) ? nr->n_cpus : -1;
		if (CPU_ISSET(c, &cpus))
			nr->cpus[nr->n_cpus++] = c;
	}
	make_phases(nr, rs->plan);
	nr->duration_ns = (int64_t)rs->plan->duration_ns;
	nr->n_threads = rs->n_workers;
	nr->bins = calloc((size_t)nr->n_cpus * WINDOW_BINS, sizeof(*nr->bins));
	nr->tot = calloc(nr->n_phases * (size_t)nr->n_cpus + 1, sizeof(*nr->tot));
	nr->load_cpus = calloc(nr->n_phases + 1, sizeof(*nr->load_cpus));
	nr->load_names = calloc(nr->n_phases + 1, sizeof(*nr->load_names));
	nr->th = calloc(nr->n_threads + 1, sizeof(*nr->th));
	if (!nr->bins || !nr->tot || !nr->load_cpus || !nr->load_names || !nr->th) {
		hg_nr_free(nr);
		return NULL;
	}
	for (size_t i = 0; i < nr->n_threads; i++)
		nr->th[i].prev_end = -1;
	phase_loads(nr, rs->plan);
	return nr;
}

static size_t phase_of(const struct hg_not_received *nr, int64_t t)
{
	size_t lo = 0, hi = nr->n_phases;      /* bounds[lo] <= t < bounds[hi] */
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (nr->bounds[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void fold_bin(struct hg_not_received *nr, int64_t k)
{
	size_t p = phase_of(nr, k * HG_NR_BIN_NS);
	for (int c = 0; c < nr->n_cpus; c++) {
		struct bin *b = &nr->bins[(size_t)c * WINDOW_BINS + (size_t)(k % WINDOW_BINS)];
		struct totals *t = &nr->tot[p * (size_t)nr->n_cpus + (size_t)c];
		t->received_ns += b->ran;
		t->not_received_ns += b->waited > b->ran ? b->waited - b->ran : 0;
		*b = (struct bin){ 0, 0 };
	}
}

void hg_nr_fold(struct hg_not_received *nr, int64_t upto_ns)
{
	if (!nr)
		return;
	int64_t last = upto_ns == INT64_MAX ? nr->folded + WINDOW_BINS : upto_ns / HG_NR_BIN_NS;
	for (; nr->folded < last; nr->folded++)
		fold_bin(nr, nr->folded);
}

/* Adds [from, to) on CPU index c: ran (a sum) or waited (the largest). */
static void cover(struct hg_not_received *nr, int c, int64_t from, int64_t to, bool ran)
{
	if (from < 0)
		from = 0;
	if (to > nr->duration_ns)
		to = nr->duration_ns;
	if (to <= from)
		return;
	int64_t last = (to - 1) / HG_NR_BIN_NS;
	if (last >= nr->folded + WINDOW_BINS)      /* the writer fell far behind */
		hg_nr_fold(nr, (last - WINDOW_BINS + 1) * HG_NR_BIN_NS);
	for (int64_t k = from / HG_NR_BIN_NS; k <= last; k++) {
		int64_t a = k * HG_NR_BIN_NS > from ? k * HG_NR_BIN_NS : from;
		int64_t z = (k + 1) * HG_NR_BIN_NS < to ? (k + 1) * HG_NR_BIN_NS : to;
		uint32_t ns = (uint32_t)(z - a);
		if (k < nr->folded) {
			if (ran)   /* too late for its bin: taken off its phase instead */
				nr->tot[phase_of(nr, a) * (size_t)nr->n_cpus + (size_t)c].late_ns += ns;
			continue;
		}
		struct bin *b = &nr->bins[(size_t)c * WINDOW_BINS + (size_t)(k % WINDOW_BINS)];
		if (ran)
			b->ran += ns;
		else if (ns > b->waited)
			b->waited = ns;
	}
}

void hg_nr_interval(struct hg_not_received *nr, const struct hg_bin_interval *r)
{
	if (!nr || r->thread >= nr->n_threads)
		return;
	struct thread_state *t = &nr->th[r->thread];
	if (t->prev_end >= 0 && t->prev_preempted && t->prev_cpu >= 0)
		cover(nr, t->prev_cpu, t->prev_end, r->start_ns, false);
	int c = r->cpu >= 0 && r->cpu < CPU_SETSIZE ? nr->cpu_of[r->cpu] : -1;
	if (c >= 0)
		cover(nr, c, r->start_ns, r->end_ns, true);
	t->prev_end = r->end_ns;
	t->prev_cpu = c;
	t->prev_preempted = r->end == HG_END_PREEMPTED;
}

static uint64_t not_received(const struct totals *t)
{
	return t->not_received_ns > t->late_ns ? t->not_received_ns - t->late_ns : 0;
}

static double share(uint64_t received, uint64_t missed)
{
	return received + missed ? (double)missed / (double)(received + missed) : 0;
}

static json_t *cpu_json(int cpu, uint64_t received, uint64_t missed)
{
	return json_pack("{s:i, s:I, s:I, s:f}", "cpu", cpu, "received_ns", (json_int_t)received,
			 "not_received_ns", (json_int_t)missed, "share", share(received, missed));
}

bool hg_nr_total(const struct hg_not_received *nr, uint64_t *received, uint64_t *missed)
{
	*received = *missed = 0;
	for (size_t i = 0; nr && i < nr->n_phases * (size_t)nr->n_cpus; i++) {
		*received += nr->tot[i].received_ns;
		*missed += not_received(&nr->tot[i]);
	}
	return nr != NULL;
}

json_t *hg_nr_json(const struct hg_not_received *nr)
{
	if (!nr)
		return json_null();
	json_t *cpus = json_array(), *phases = json_array();
	for (int c = 0; c < nr->n_cpus; c++) {
		uint64_t rec = 0, miss = 0;
		for (size_t p = 0; p < nr->n_phases; p++) {
			const struct totals *t = &nr->tot[p * (size_t)nr->n_cpus + (size_t)c];
			rec += t->received_ns;
			miss += not_received(t);
		}
		json_array_append_new(cpus, cpu_json(nr->cpus[c], rec, miss));
	}
	for (size_t p = 0; p < nr->n_phases; p++) {
		json_t *pc = json_array();
		for (int c = 0; c < nr->n_cpus; c++) {
			const struct totals *t = &nr->tot[p * (size_t)nr->n_cpus + (size_t)c];
			json_array_append_new(pc, cpu_json(nr->cpus[c], t->received_ns, not_received(t)));
		}
		json_array_append_new(phases, json_pack("{s:I, s:I, s:s?, s:o}", "from_ns",
			(json_int_t)nr->bounds[p], "to_ns", (json_int_t)nr->bounds[p + 1], "loads",
			nr->load_names[p], "cpus", pc));
	}
	return json_pack("{s:I, s:f, s:I, s:o, s:o}", "bin_ns", (json_int_t)HG_NR_BIN_NS,
			 "warn_share", HG_NR_WARN_SHARE, "warn_min_ns", (json_int_t)HG_NR_WARN_MIN_NS,
			 "cpus", cpus, "phases", phases);
}

void hg_nr_warn(const struct hg_not_received *nr, struct hg_run_state *rs)
{
	if (!nr)
		return;
	for (size_t p = 0; p < nr->n_phases; p++) {
		for (int c = 0; c < nr->n_cpus; c++) {
			const struct totals *t = &nr->tot[p * (size_t)nr->n_cpus + (size_t)c];
			uint64_t miss = not_received(t);
			double s = share(t->received_ns, miss);
			if (miss < HG_NR_WARN_MIN_NS || s < HG_NR_WARN_SHARE ||
			    CPU_ISSET(nr->cpus[c], &nr->load_cpus[p]))
				continue;   /* a load of the scenario may have taken it */
			char a[32], b[32], w[32], m[32];
			hg_run_warn(rs, "CPU not received: on CPU %d from %s to %s the scenario's threads "
				    "wanted %s of CPU time and did not get %s of it (%.1f%%, more than "
				    "%.0f%%), with no load of the scenario there: another process, "
				    "interrupts or the hypervisor (steal time) took it; --kernel-trace "
				    "names who (docs/results.md)", nr->cpus[c],
				    hg_format_duration((uint64_t)nr->bounds[p], a),
				    hg_format_duration((uint64_t)nr->bounds[p + 1], b),
				    hg_format_ns_approx((double)(t->received_ns + miss), w),
				    hg_format_ns_approx((double)miss, m), s * 100, HG_NR_WARN_SHARE * 100);
		}
	}
}

void hg_nr_free(struct hg_not_received *nr)
{
	if (!nr)
		return;
	for (size_t p = 0; nr->load_names && p < nr->n_phases; p++)
		free(nr->load_names[p]);
	free(nr->load_names);
	free(nr->load_cpus);
	free(nr->tot);
	free(nr->bins);
	free(nr->th);
	free(nr);
}
