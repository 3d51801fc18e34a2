/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The late wake-ups in the results (docs/kernel-trace.md, "Late
 * wake-ups"): result.json threads[i].wakeup_causes and the summary's line
 * per latency thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/kernel_findings.h"
#include "ktrace/kernel_names.h"
#include "ktrace/kernel_wakeups.h"
#include "ktrace/ktrace.h"
#include "plan/workload.h"

#define TOP_WHO 10

static const struct hg_thread_wakes *wakes_of(const struct hg_run_state *rs, size_t i)
{
	const struct hg_kernel_findings *kf = rs->kernel;
	if (!kf || !kf->wakes || !kf->wakes_written ||
	    !rs->workers[i].plan->workload.ops->wakeups)
		return NULL;
	return &kf->wakes[i];
}

static const char *why_not(const struct hg_run_state *rs, size_t i)
{
	const struct hg_kernel_findings *kf = rs->kernel;
	if (!rs->workers[i].plan->workload.ops->wakeups)
		return "not a latency thread";
	if (!rs->plan->kernel_trace)
		return "kernel trace not asked for (trace.kernel, --kernel-trace)";
	if (!hg_ktrace_active(rs->ktrace))
		return hg_ktrace_why(rs->ktrace);
	if (!kf || !kf->traced)
		return "no kernel events were read";
	if (!kf->in.latency_kept)
		return "no latency.bin (trace.mode none)";
	return "late_wakeups.jsonl could not be written";
}

static int by_ns(const void *pa, const void *pb)
{
	const struct hg_wake_item *a = pa, *b = pb;
	return a->ns > b->ns ? -1 : a->ns < b->ns;
}

json_t *hg_kernel_wakeups_json(const struct hg_run_state *rs, size_t i)
{
	const struct hg_thread_wakes *t = wakes_of(rs, i);
	if (!t)
		return json_pack("{s:b, s:s}", "available", false, "reason", why_not(rs, i));
	json_t *o = json_pack("{s:b, s:n, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "available", true,
			      "reason", "threshold_ns", (json_int_t)rs->plan->trace.late_wakeup_ns,
			      "tolerance_ns", (json_int_t)HG_WAKE_TOLERANCE_NS,
			      "late", (json_int_t)t->late, "attributed", (json_int_t)t->attributed,
			      "summed", (json_int_t)t->summed, "awake", (json_int_t)t->awake,
			      "late_ns", (json_int_t)t->late_ns);
	json_object_set_new(o, "explained", json_integer((json_int_t)t->explained));
	json_object_set_new(o, "residual_ns", json_integer(t->residual_ns));
	json_t *by = json_object();
	for (int c = 0; c < HG_WC_N; c++)
		if (t->comp_wakeups[c])
			json_object_set_new(by, hg_wcomp_names[c], json_pack("{s:I, s:I, s:I}",
				"ns", (json_int_t)t->comp[c], "wakeups", (json_int_t)t->comp_wakeups[c],
				"dominant", (json_int_t)t->comp_dominant[c]));
	json_object_set_new(o, "by_component", by);
	struct hg_wake_item items[HG_WAKE_ITEMS];
	memcpy(items, t->items, t->n_items * sizeof(items[0]));
	qsort(items, t->n_items, sizeof(items[0]), by_ns);
	json_t *top = json_array();
	char name[64];
	for (size_t k = 0; k < t->n_items && k < TOP_WHO; k++) {
		const struct hg_wake_item *it = &items[k];
		hg_kernel_who_name(rs, it->cause, it->who, name, sizeof(name));
		json_t *w = json_pack("{s:s, s:s, s:I, s:I, s:I}", "component",
				      hg_wcomp_names[it->comp], "name", it->who < 0 ? "-" : name,
				      "ns", (json_int_t)it->ns, "wakeups", (json_int_t)it->wakeups,
				      "dominant", (json_int_t)it->dominant);
		if (hg_wcomp_names_task(it->comp) && it->who >= 0)
			json_object_set_new(w, "cause", json_string(hg_cause_names[it->cause]));
		if (it->who >= 0)
			json_object_set_new(w, hg_wcomp_names_task(it->comp) ? "pid" : "id",
					    json_integer(it->who));
		json_array_append_new(top, w);
	}
	json_object_set_new(o, "top", top);
	return o;
}

void hg_kernel_wakeups_summary(const struct hg_run_state *rs, FILE *out)
{
	for (size_t i = 0; i < rs->n_workers; i++) {
		const struct hg_thread_wakes *t = wakes_of(rs, i);
		if (!t || !t->late)
			continue;
		fprintf(out, "  %s: %llu wake-ups later than %.0f us: components sum to the lateness "
			"in %.1f%%, kernel-seen ones in %.1f%%", rs->workers[i].plan->os_name,
			(unsigned long long)t->late, (double)rs->plan->trace.late_wakeup_ns / 1e3,
			100.0 * (double)t->summed / (double)t->late,
			100.0 * (double)t->explained / (double)t->late);
		int order[HG_WC_N];
		for (int c = 0; c < HG_WC_N; c++)
			order[c] = c;
		for (int a = 0; a < HG_WC_N; a++)     /* largest first, a few */
			for (int b = a + 1; b < HG_WC_N; b++)
				if (t->comp[order[b]] > t->comp[order[a]]) {
					int x = order[a];
					order[a] = order[b];
					order[b] = x;
				}
		for (int k = 0; k < 3 && t->comp[order[k]] > 0; k++)
			fprintf(out, "%s%s %.3f ms", k ? ", " : "; most: ", hg_wcomp_names[order[k]],
				(double)t->comp[order[k]] / 1e6);
		fputc('\n', out);
	}
}
