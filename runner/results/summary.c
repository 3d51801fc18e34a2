/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The human summary printed after the run, in the paper's spirit:
 *   rt: missed 0 deadlines, hit 3999
 * after the warnings (which say what the figures are worth), what each
 * thread received, latency percentiles, and where the result is. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/kernel_findings.h"
#include "ktrace/kernel_json.h"
#include "loads/supervisor.h"
#include "plan/workload.h"
#include "results/numbers.h"
#include "results/summary.h"
#include "results/verdict.h"

static const char *fmt_ns(double ns, char *buf, size_t size)
{
	if (ns < 1e3)
		snprintf(buf, size, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, size, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, size, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, size, "%.3f s", ns / 1e9);
	return buf;
}

static void periodic_line(FILE *out, const struct hg_worker *w,
			  const struct hg_thread_numbers *n)
{
	fprintf(out, "%s: missed %llu deadline%s, hit %llu", w->plan->os_name,
		(unsigned long long)n->deadlines_missed, n->deadlines_missed == 1 ? "" : "s",
		(unsigned long long)n->deadlines_hit);
	if (n->releases)
		fprintf(out, " (%.2f%% missed)", 100.0 * (double)n->deadlines_missed /
						(double)n->releases);
	if (w->plan->workload.ops->counts_jobs)
		fprintf(out, ", %llu jobs done", (unsigned long long)n->jobs);
	fputc('\n', out);
}

static void latency_line(FILE *out, const struct hg_worker *w, const struct hg_thread_numbers *n)
{
	const struct hg_summary *s = &n->latency;
	char a[32], b[32], c[32], d[32], e[32];
	if (!s->count) {
		fprintf(out, "%s: no wake-ups recorded\n", w->plan->os_name);
		return;
	}
	fprintf(out, "%s: latency min %s, p50 %s, p99 %s, p99.9 %s, max %s (%llu wake-ups",
		w->plan->os_name, fmt_ns((double)s->min, a, sizeof(a)),
		fmt_ns((double)s->p50, b, sizeof(b)), fmt_ns((double)s->p99, c, sizeof(c)),
		fmt_ns((double)s->p999, d, sizeof(d)), fmt_ns((double)s->max, e, sizeof(e)),
		(unsigned long long)n->latency_count);
	if (w->wk.hist.overflow)
		fprintf(out, ", %llu beyond the histogram's 20 ms: percentiles there are the max",
			(unsigned long long)w->wk.hist.overflow);
	char skipped[128];
	hg_skipped_words(w, skipped, sizeof(skipped));
	if (skipped[0])
		fprintf(out, "; %s, %s", skipped, w->st.skipped_ignored ? "left out of the shares"
			: "counted as later than every threshold");
	fputs(")\n", out);
}

static void cpu_line(FILE *out, const struct hg_worker *w, const struct hg_thread_numbers *n)
{
	char a[32];
	fprintf(out, "%s: received %s of CPU in %llu interval%s, %llu gap%s",
		w->plan->os_name, fmt_ns((double)n->cpu_ns, a, sizeof(a)),
		(unsigned long long)n->intervals, n->intervals == 1 ? "" : "s",
		(unsigned long long)n->gaps, n->gaps == 1 ? "" : "s");
	if (n->work_units)
		fprintf(out, ", %llu work units", (unsigned long long)n->work_units);
	if (n->records_dropped)
		fprintf(out, " (%llu trace records dropped: the writer fell behind; raise "
			"trace.records, or leave it a CPU)",
			(unsigned long long)n->records_dropped);
	fputc('\n', out);
}

/* A load's line: when it ran and its throughput (table 2's column). */
static void load_line(FILE *out, json_t *l)
{
	json_t *started = json_object_get(l, "started_ns"), *stopped = json_object_get(l, "stopped_ns");
	json_t *stats = json_object_get(l, "stats");
	fprintf(out, "%s: %s", json_string_value(json_object_get(l, "name")),
		json_string_value(json_object_get(l, "type")));
	if (!json_is_integer(started)) {
		fputs(" never started\n", out);
		return;
	}
	fprintf(out, " ran %.3f-%.3f s", (double)json_integer_value(started) / 1e9,
		json_is_integer(stopped) ? (double)json_integer_value(stopped) / 1e9 : -1.0);
	json_t *mbps = json_object_get(stats, "mbps"), *ops = json_object_get(stats, "ops_per_s");
	if (json_is_number(mbps))
		fprintf(out, ", %.0f Mbit/s", json_number_value(mbps));
	if (json_is_number(ops))
		fprintf(out, ", %.0f ops/s", json_number_value(ops));
	json_t *killed = json_object_get(l, "killed");
	if (json_integer_value(killed))
		fprintf(out, ", %lld process(es) needed SIGKILL", (long long)json_integer_value(killed));
	fputc('\n', out);
}

void hg_summary_print(const struct hg_run_state *rs, FILE *out)
{
	char a[32];
	fprintf(out, "%s: %zu thread%s, %s%s\n", rs->plan->name, rs->n_workers,
		rs->n_workers == 1 ? "" : "s", fmt_ns((double)rs->plan->duration_ns, a, sizeof(a)),
		rs->complete ? "" : ", INCOMPLETE");
	/* The verdict and the key findings first, then the warnings (they say
	 * what the figures are worth: a priority not granted, CPU taken from
	 * outside), then the details. */
	json_t *verdict = hg_verdict_json(rs);
	hg_verdict_print(verdict, out);
	json_decref(verdict);
	size_t wi;
	json_t *wv;
	json_array_foreach(rs->warnings, wi, wv)
		fprintf(out, "warning: %s\n", json_string_value(wv));
	fputs("details:\n", out);
	for (size_t i = 0; rs->nums && i < rs->n_workers; i++) {
		const struct hg_worker *w = &rs->workers[i];
		const struct hg_thread_numbers *n = &rs->nums[i];
		if (w->plan->workload.ops->periodic)
			periodic_line(out, w, n);
		if (w->plan->workload.ops->wakeups)
			latency_line(out, w, n);
		cpu_line(out, w, n);
	}
	size_t i;
	json_t *v;
	json_t *loads = rs->loads ? hg_loadrun_to_json(rs->loads) : NULL;
	json_array_foreach(loads, i, v)
		load_line(out, v);
	json_decref(loads);
	hg_kernel_summary(rs, out);
	/* Only a file that is there (a full or failing disk may have kept
	 * result.json from being written). */
	struct stat st;
	if (rs->dir_fd >= 0 && fstatat(rs->dir_fd, "result.json", &st, AT_SYMLINK_NOFOLLOW) == 0)
		fprintf(out, "result: %s/result.json\n", rs->dir);
}
