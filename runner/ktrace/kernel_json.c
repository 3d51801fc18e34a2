/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel trace in the results (docs/kernel-trace.md): result.json
 * `kernel_trace` and each thread's `gap_causes`, the segments file
 * kernel.jsonl, and the summary lines. */
#include <stdio.h>
#include <string.h>

#include "ktrace/kernel_findings.h"
#include "ktrace/kernel_json.h"
#include "ktrace/kernel_names.h"
#include "ktrace/kernel_wakeups.h"
#include "ktrace/ktrace.h"

#define TOP_WHO 10

static const char *const seg_kinds[] = { "task", "irq", "softirq", "local_timer", "ipi" };

static json_t *causes_json(void)
{
	json_t *a = json_array();
	for (int c = 0; c < HG_CAUSE_N; c++)
		json_array_append_new(a, json_string(hg_cause_names[c]));
	return a;
}

static bool has_cause_field(uint8_t cause)
{
	return (cause >= HG_CAUSE_THREAD && cause <= HG_CAUSE_KTHREAD) ||
	       cause == HG_CAUSE_IRQ_THREAD || cause == HG_CAUSE_BLOCKED;
}

static json_t *not_available(const struct hg_run_state *rs)
{
	const char *why = !rs->plan->kernel_trace ? "kernel trace not asked for (trace.kernel, "
		"--kernel-trace)" : hg_ktrace_active(rs->ktrace) ? "no kernel events were read"
		: hg_ktrace_why(rs->ktrace);
	return json_pack("{s:b, s:s}", "available", false, "reason", why);
}

json_t *hg_kernel_thread_json(const struct hg_run_state *rs, size_t i)
{
	const struct hg_kernel_findings *kf = rs->kernel;
	if (!kf || !kf->traced || !kf->per_thread)
		return not_available(rs);
	const struct hg_thread_causes *t = &kf->per_thread[i];
	json_t *o = json_pack("{s:b, s:n, s:I, s:I, s:I, s:I, s:f}", "available", true,
			      "reason", "gaps", (json_int_t)t->gaps, "gap_ns", (json_int_t)t->gap_ns,
			      "attributed", (json_int_t)t->attributed,
			      "explained_ns", (json_int_t)t->explained_ns, "explained_share",
			      t->gap_ns ? (double)t->explained_ns / (double)t->gap_ns : 0.0);
	json_object_set_new(o, "gaps_ge_50us", json_integer((json_int_t)t->gaps_ge_50us));
	json_object_set_new(o, "attributed_ge_50us",
			    json_integer((json_int_t)t->attributed_ge_50us));
	json_object_set_new(o, "with_events_ge_50us",
			    json_integer((json_int_t)t->with_events_ge_50us));
	json_object_set_new(o, "switch_outs_ge_5us", json_integer((json_int_t)t->switch_outs));
	json_object_set_new(o, "switch_outs_matched",
			    json_integer((json_int_t)t->switch_outs_matched));
	json_object_set_new(o, "outsiders_ns", json_integer(t->outsiders_ns));
	json_object_set_new(o, "interrupt_entry_ns", json_integer(t->entry_ns));
	json_object_set_new(o, "invisible_ns", json_integer(t->invisible_ns));
	json_t *by = json_object(), *top = json_array();
	int64_t ns[HG_CAUSE_N] = { 0 };
	uint64_t gaps[HG_CAUSE_N] = { 0 }, dom[HG_CAUSE_N] = { 0 };
	size_t shown = 0;
	char name[64];
	for (size_t k = 0; k < kf->n_items; k++) {
		const struct hg_attr_item *it = &kf->items[k];
		if (it->thread != i)
			continue;
		ns[it->cause] += it->ns;
		gaps[it->cause] += it->gaps;
		dom[it->cause] += it->dominant;
		if (shown++ >= TOP_WHO)
			continue;
		hg_kernel_who_name(rs, it->cause, it->who, name, sizeof(name));
		json_t *w = json_pack("{s:s, s:s, s:I, s:I, s:I}", "cause", hg_cause_names[it->cause],
				      "name", name, "ns", (json_int_t)it->ns, "gaps", (json_int_t)it->gaps,
				      "dominant", (json_int_t)it->dominant);
		if (has_cause_field(it->cause) || it->cause == HG_CAUSE_INVISIBLE)
			json_object_set_new(w, "pid", json_integer(it->who));
		else
			json_object_set_new(w, "id", json_integer(it->who));
		json_array_append_new(top, w);
	}
	for (int c = HG_CAUSE_INVISIBLE; c < HG_CAUSE_N; c++)
		if (gaps[c])
			json_object_set_new(by, hg_cause_names[c], json_pack("{s:I, s:I, s:I}",
				"ns", (json_int_t)ns[c], "gaps", (json_int_t)gaps[c],
				"dominant", (json_int_t)dom[c]));
	json_object_set_new(o, "by_cause", by);
	json_object_set_new(o, "top", top);
	return o;
}

json_t *hg_kernel_trace_json(const struct hg_run_state *rs)
{
	json_t *o = hg_ktrace_to_json(rs->ktrace);
	const struct hg_kernel_findings *kf = rs->kernel;
	json_object_set_new(o, "causes", causes_json());
	if (!kf || !kf->traced)
		return o;
	uint64_t big = 0, big_attr = 0, big_ev = 0, sw = 0, sw_matched = 0;
	int64_t invisible = 0;
	for (size_t i = 0; kf->per_thread && i < rs->n_workers; i++) {
		invisible += kf->per_thread[i].invisible_ns;
		big += kf->per_thread[i].gaps_ge_50us;
		big_attr += kf->per_thread[i].attributed_ge_50us;
		big_ev += kf->per_thread[i].with_events_ge_50us;
		sw += kf->per_thread[i].switch_outs;
		sw_matched += kf->per_thread[i].switch_outs_matched;
	}
	json_object_set_new(o, "segments", json_integer((json_int_t)kf->n_segs));
	json_object_set_new(o, "invisible_ns", json_integer(invisible));
	json_object_set_new(o, "missed_switches", json_integer((json_int_t)kf->missed_switches));
	json_object_set_new(o, "unconfirmed_ns", json_integer(kf->unconfirmed_ns));
	json_object_set_new(o, "gaps_ge_50us", json_integer((json_int_t)big));
	json_object_set_new(o, "attributed_ge_50us", json_integer((json_int_t)big_attr));
	json_object_set_new(o, "with_events_ge_50us", json_integer((json_int_t)big_ev));
	json_object_set_new(o, "switch_outs_ge_5us", json_integer((json_int_t)sw));
	json_object_set_new(o, "switch_outs_matched", json_integer((json_int_t)sw_matched));
	return o;
}

int hg_kernel_write_segments(FILE *f, const struct hg_run_state *rs)
{
	const struct hg_kernel_findings *kf = rs->kernel;
	char name[64];
	for (size_t i = 0; kf && i < kf->n_segs; i++) {
		const struct hg_kseg *s = &kf->segs[i];
		if (s->kind == HG_SEG_TASK)
			snprintf(name, sizeof(name), "%s", hg_ktrace_task_name(rs->ktrace, s->id));
		else
			hg_kernel_who_name(rs, s->kind == HG_SEG_IRQ ? HG_CAUSE_IRQ : s->kind == HG_SEG_SOFTIRQ
				 ? HG_CAUSE_SOFTIRQ : HG_CAUSE_TIMER, s->id, name, sizeof(name));
		json_t *l = json_pack("{s:i, s:I, s:I, s:s, s:i, s:s, s:b}", "cpu", s->cpu,
				      "start_ns", (json_int_t)s->start, "end_ns", (json_int_t)s->end,
				      "kind", seg_kinds[s->kind], "id", s->id, "name", name,
				      "preempted", (s->flags & HG_SEG_PREEMPTED) != 0);
		if (l && (s->flags & HG_SEG_UNCONFIRMED))
			json_object_set_new(l, "unconfirmed", json_true());
		if (!l || json_dumpf(l, f, JSON_COMPACT) < 0) {
			json_decref(l);
			return -1;
		}
		json_decref(l);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

void hg_kernel_summary(const struct hg_run_state *rs, FILE *out)
{
	const struct hg_kernel_findings *kf = rs->kernel;
	if (!kf || !kf->traced)
		return;
	char name[64];
	uint64_t big = 0, big_attr = 0;
	int64_t invisible = 0;
	for (size_t i = 0; kf->per_thread && i < rs->n_workers; i++) {
		big += kf->per_thread[i].gaps_ge_50us;
		big_attr += kf->per_thread[i].attributed_ge_50us;
		invisible += kf->per_thread[i].invisible_ns;
	}
	fprintf(out, "  kernel trace: %llu of %llu gaps >= 50 us attributed (%.1f%%); %.3f ms of gap "
		"time invisible to the kernel (hypervisor, SMI)", (unsigned long long)big_attr,
		(unsigned long long)big, big ? 100.0 * (double)big_attr / (double)big : 0.0,
		(double)invisible / 1e6);
	if (kf->missed_switches)
		fprintf(out, "; %llu switches not recorded", (unsigned long long)kf->missed_switches);
	fputc('\n', out);
	for (size_t i = 0; kf->per_thread && i < rs->n_workers; i++) {
		const struct hg_thread_causes *t = &kf->per_thread[i];
		if (!t->gaps)
			continue;
		fprintf(out, "  %s: %llu gaps, %.1f%% of their time explained by kernel events, "
			"%.3f ms invisible", rs->workers[i].plan->os_name, (unsigned long long)t->gaps,
			t->gap_ns ? 100.0 * (double)t->explained_ns / (double)t->gap_ns : 0.0,
			(double)t->invisible_ns / 1e6);
		int shown = 0;
		for (size_t k = 0; k < kf->n_items && shown < 3; k++) {
			const struct hg_attr_item *it = &kf->items[k];
			if (it->thread != i)
				continue;
			hg_kernel_who_name(rs, it->cause, it->who, name, sizeof(name));
			fprintf(out, "%s%s %s %.3f ms", shown++ ? ", " : "; most: ",
				hg_cause_names[it->cause], name, (double)it->ns / 1e6);
		}
		fputc('\n', out);
	}
	hg_kernel_wakeups_summary(rs, out);
}
