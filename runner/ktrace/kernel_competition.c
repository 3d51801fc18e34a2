/* SPDX-License-Identifier: GPL-2.0-or-later */
/* result.json `competition` and its warnings: who else ran on the
 * scenario's CPUs (the trace's segments or /proc), steal time, interrupts. */
#include <stdlib.h>
#include <string.h>

#include "base/cpuset.h"
#include "base/grow.h"
#include "base/units.h"
#include "ktrace/competition.h"
#include "ktrace/kernel_competition.h"
#include "ktrace/kernel_state.h"
#include "ktrace/ktrace.h"

#define OUTSIDERS_WARN_SHARE 0.05   /* of the scenario's CPUs' time */
#define STEAL_WARN_SHARE 0.01
#define TOP 10

static int by_ns(const void *pa, const void *pb)
{
	const struct hg_outsider *a = pa, *b = pb;
	if (a->cpu_ns != b->cpu_ns)
		return a->cpu_ns > b->cpu_ns ? -1 : 1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* Outsiders' time on `cpus` within [0, window) from the segments. */
static long traced_outsiders(const struct hg_run_state *rs, const struct hg_kseg *segs,
			     size_t n_segs, const cpu_set_t *cpus, int64_t window,
			     hg_task_class_fn classify, void *ctx, struct hg_outsider **out)
{
	struct hg_outsider *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < n_segs; i++) {
		const struct hg_kseg *s = &segs[i];
		if (s->kind != HG_SEG_TASK || s->id <= 0 || !CPU_ISSET(s->cpu, cpus))
			continue;
		int64_t a = s->start > 0 ? s->start : 0, b = s->end < window ? s->end : window;
		if (b <= a)
			continue;
		enum hg_cause c = classify(ctx, s->id);
		if (c != HG_CAUSE_PROCESS && c != HG_CAUSE_KTHREAD && c != HG_CAUSE_IRQ_THREAD)
			continue;
		size_t k = 0;
		while (k < n && v[k].pid != s->id)
			k++;
		if (k == n) {
			struct hg_outsider *p = hg_grown(v, &cap, n, sizeof(*p), 64);
			if (!p)
				break;
			v = p;
			memset(&v[n], 0, sizeof(v[n]));
			v[n].pid = s->id;
			snprintf(v[n].comm, sizeof(v[n].comm), "%s", hg_ktrace_task_name(rs->ktrace, s->id));
			v[n].kthread = c != HG_CAUSE_PROCESS;
			n++;
		}
		v[k].cpu_ns += (uint64_t)(b - a);
	}
	if (n)
		qsort(v, n, sizeof(*v), by_ns);
	*out = v;
	return (long)n;
}

/* The share with what it is a share of (71.1% of a 0.8 ms run is 0.6 ms, not a
 * headline), each process's time in readable units (not "0.000 s"). */
static void warn_outsiders(struct hg_run_state *rs, const struct hg_outsider *v, long n,
			   double share, double capacity_ns, const char *cpus, bool traced)
{
	char list[384] = "", took[32], of[32];
	size_t len = 0;
	for (long i = 0; i < n && i < 3 && len < sizeof(list) - 64; i++) {
		char t[32];
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s (pid %d%s) %s",
					i ? ", " : "", v[i].comm, (int)v[i].pid,
					v[i].kthread ? ", kernel thread" : "",
					hg_format_ns_approx((double)v[i].cpu_ns, t));
	}
	hg_run_warn(rs, "competition: other processes %s %.1f%% of the scenario's CPUs (%s) "
		    "during the run (%s of %s), more than %.0f%%: %s; the threads' numbers include "
		    "that competition (%s; docs/kernel-trace.md)", traced ? "took" : "took about",
		    share * 100, cpus, hg_format_ns_approx(share * capacity_ns, took),
		    hg_format_ns_approx(capacity_ns, of), OUTSIDERS_WARN_SHARE * 100, n ? list : "?",
		    traced ? "from the kernel trace" : "estimated from /proc: a process's time "
		    "on other CPUs may count; 'CPU not received' is what the threads missed");
}

json_t *hg_kernel_competition(struct hg_run_state *rs, bool traced, const struct hg_kseg *segs,
			      size_t n_segs, hg_task_class_fn classify, void *ctx,
			      const pid_t *loads, size_t n_loads)
{
	cpu_set_t cpus;
	char cpus_text[256];
	hg_plan_cpus(rs->plan, &cpus);
	hg_cpuset_format(&cpus, cpus_text, sizeof(cpus_text));
	int64_t window = traced ? rs->sync->end_ns - rs->sync->t0_ns
				: hg_competition_window_ns(rs->competition);
	struct hg_outsider *v = NULL;
	long n = traced ? traced_outsiders(rs, segs, n_segs, &cpus, window, classify, ctx, &v)
			: hg_competition_outsiders(rs->competition, loads, n_loads, &v);
	uint64_t procs_ns = 0, kthreads_ns = 0;
	json_t *top = json_array();
	/* /proc counts a process's time on every CPU when its last CPU was one
	 * of these: no process is counted above the window times the CPUs. */
	uint64_t cap = window > 0 ? (uint64_t)window * (uint64_t)CPU_COUNT(&cpus) : 0;
	for (long i = 0; i < n && !traced; i++)
		v[i].cpu_ns = v[i].cpu_ns < cap ? v[i].cpu_ns : cap;
	for (long i = 0; i < n; i++) {
		*(v[i].kthread ? &kthreads_ns : &procs_ns) += v[i].cpu_ns;
		if (i < TOP)
			json_array_append_new(top, json_pack("{s:i, s:s, s:s, s:I}", "pid", (int)v[i].pid,
				"name", v[i].comm, "kind", v[i].kthread ? "kernel_thread" : "process",
				"cpu_ns", (json_int_t)v[i].cpu_ns));
	}
	double capacity = (double)window * CPU_COUNT(&cpus);
	double share = capacity > 0 ? (double)(procs_ns + kthreads_ns) / capacity : 0;
	if (share > 1)
		share = 1;   /* never more than all of the scenario's CPUs */
	json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:f, s:o}",
			      "source", traced ? "kernel_trace" : "procfs", "cpus", cpus_text,
			      "window_ns", (json_int_t)window, "processes_ns", (json_int_t)procs_ns,
			      "kernel_threads_ns", (json_int_t)kthreads_ns, "outsiders_share", share,
			      "top", top);
	/* The gap trace's measure beside it (results/not_received.h): the time
	 * the threads wanted these CPUs and did not get, whoever took it. */
	if (rs->kernel->in.not_received_known)
		json_object_set_new(o, "not_received_ns",
				    json_integer((json_int_t)rs->kernel->in.not_received_ns));
	json_t *per_cpu = hg_competition_cpus_json(rs->competition);
	json_object_set(o, "per_cpu", json_is_object(per_cpu) ? json_object_get(per_cpu, "cpus")
							      : json_null());
	double steal = hg_competition_steal_share(rs->competition);
	json_object_set_new(o, "steal_ns", json_is_object(per_cpu)
			    ? json_copy(json_object_get(per_cpu, "steal_ns")) : json_null());
	json_object_set_new(o, "steal_share", json_real(steal));
	json_decref(per_cpu);
	if (share > OUTSIDERS_WARN_SHARE)
		warn_outsiders(rs, v, n, share, capacity, cpus_text, traced);
	if (steal > STEAL_WARN_SHARE)
		hg_run_warn(rs, "steal time: the hypervisor took %.1f%% of the scenario's CPUs (%s) "
			    "from this virtual machine during the run (/proc/stat); gaps include "
			    "that time (hgrun doctor: virtualization)", steal * 100, cpus_text);
	free(v);
	return o;
}
