/* SPDX-License-Identifier: GPL-2.0-or-later */
/* result.json as a jansson tree: the contract of schemas/result.schema.json. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sha256.h"
#include "ktrace/kernel_findings.h"
#include "ktrace/kernel_json.h"
#include "ktrace/kernel_wakeups.h"
#include "loads/supervisor.h"
#include "plan/plan_json.h"
#include "plan/workload.h"
#include "results/not_received.h"
#include "results/numbers.h"
#include "results/result_json.h"
#include "results/stream.h"
#include "results/verdict.h"
#include "run/counter.h"

#define HG_RESULT_FORMAT "hgrun-result/1"

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

#define HG_RESULT_BUCKET_NS 1000   /* result.json's histogram: 1 us buckets */

/* The thread's lateness histogram regrouped into 1 us buckets, up to the
 * last non-empty one. */
static json_t *histogram_json(const struct hg_histogram *h)
{
	size_t per = h->bucket_ns && HG_RESULT_BUCKET_NS % h->bucket_ns == 0
		? HG_RESULT_BUCKET_NS / h->bucket_ns : 1;
	size_t n = h->n_buckets / per, last = 0;
	json_t *counts = json_array();
	uint64_t *sums = calloc(n ? n : 1, sizeof(*sums));
	for (size_t i = 0; sums && i < n * per; i++)
		if (h->counts[i]) {
			sums[i / per] += h->counts[i];
			last = i / per + 1;
		}
	for (size_t i = 0; sums && i < last; i++)
		json_array_append_new(counts, u64(sums[i]));
	free(sums);
	return json_pack("{s:o, s:o, s:o, s:o}", "bucket_ns", u64(h->bucket_ns * per),
			 "n_buckets", u64(n), "counts", counts, "overflow", u64(h->overflow));
}

static json_t *latency_json(const struct hg_run_state *rs, size_t i,
			    const struct hg_thread_numbers *n)
{
	const struct hg_worker *w = &rs->workers[i];
	if (!w->plan->workload.ops->wakeups)
		return json_null();
	const struct hg_thread_totals *t = hg_stream_totals(rs->stream, i);
	bool cp = hg_stream_checkpointing(rs->stream);
	const struct hg_histogram *h = cp ? &t->lat_all : &w->wk.hist;
	struct hg_summary sum;
	hg_histogram_summarise(h, &sum);
	uint64_t written = t ? t->latency_written : 0;
	return json_pack("{s:o, s:o, s:o, s:f, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "count", u64(sum.count), "samples", u64(written),
			 "min_ns", u64(sum.min), "mean_ns", sum.mean, "p50_ns", u64(sum.p50),
			 "p90_ns", u64(sum.p90), "p99_ns", u64(sum.p99), "p999_ns", u64(sum.p999),
			 "max_ns", u64(sum.max), "samples_dropped",
			 u64(w->wk.ring.slots ? hg_ring_dropped(&w->wk.ring) : 0),
			 "grid_skipped", cp ? json_null() : u64(w->st.grid_skipped),
			 "histogram", histogram_json(h));
}

/* A checkpoint's stats: what the writer has seen and the thread published;
 * the counts only known at the end are null. */
static json_t *checkpoint_stats_json(const struct hg_run_state *rs, size_t i)
{
	const struct hg_thread_totals *t = hg_stream_totals(rs->stream, i);
	const struct hg_worker *w = &rs->workers[i];
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"cpu_ns", u64(t->cpu_ns), "intervals", u64(t->intervals), "gaps", u64(t->gaps),
		"records", u64(t->trace_written), "records_written", u64(t->trace_written),
		"records_dropped", u64(hg_ring_dropped(&w->gt.ring)),
		"releases", u64(atomic_load_explicit(&w->pub.releases, memory_order_relaxed)),
		"deadlines_hit", u64(atomic_load_explicit(&w->pub.hits, memory_order_relaxed)),
		"deadlines_missed", u64(atomic_load_explicit(&w->pub.misses, memory_order_relaxed)));
	json_object_set_new(o, "work_units", json_null());
	json_object_set_new(o, "jobs", json_null());
	json_object_set_new(o, "yields", json_null());
	json_object_set_new(o, "overrun_max_ns", json_null());
	json_object_set_new(o, "latency", latency_json(rs, i, NULL));
	return o;
}

static json_t *stats_json(const struct hg_run_state *rs, size_t i)
{
	if (hg_stream_checkpointing(rs->stream))
		return checkpoint_stats_json(rs, i);
	const struct hg_worker *w = &rs->workers[i];
	const struct hg_thread_numbers *n = &rs->nums[i];
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			      "cpu_ns", u64(n->cpu_ns), "intervals", u64(n->intervals),
			      "gaps", u64(n->gaps), "records", u64(n->records),
			      "records_dropped", u64(n->records_dropped),
			      "releases", u64(n->releases), "deadlines_hit", u64(n->deadlines_hit),
			      "deadlines_missed", u64(n->deadlines_missed),
			      "work_units", u64(n->work_units));
	json_object_set_new(o, "records_written", u64(n->records));
	json_object_set_new(o, "jobs", u64(n->jobs));
	json_object_set_new(o, "yields", u64(w->st.yields));
	json_object_set_new(o, "overrun_max_ns", u64(w->st.overrun_max_ns));
	json_object_set_new(o, "latency", latency_json(rs, i, n));
	return o;
}

static json_t *granted_json(const struct hg_run_state *rs, const struct hg_worker *w)
{
	const struct hg_sched_granted *g = &w->sched.granted;
	json_t *res = json_null();
	if (g->reservation)
		res = json_pack("{s:o, s:o, s:o, s:s}", "budget_ns", u64(g->runtime_ns),
				"period_ns", u64(g->period_ns), "deadline_ns", u64(g->deadline_ns),
				"mode", g->reclaim ? "soft" : "hard");
	return json_pack("{s:s, s:i, s:i, s:o, s:b}", "policy", hg_policy_name(g->policy),
			 "priority", g->priority, "nice", g->nice, "reservation", res,
			 "memory_locked", rs->memory_locked);
}

static json_t *asked_json(const struct hg_thread_plan *tp)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	if (tp->pinned_cpu >= 0)
		CPU_SET(tp->pinned_cpu, &one);
	json_t *cpus = tp->pinned_cpu >= 0 ? hg_cpus_to_json(false, &one)
					   : hg_cpus_to_json(tp->cpus_all, &tp->cpus);
	json_t *o = hg_priority_to_json(&tp->priority); /* level, policy, priority, nice */
	json_object_set_new(o, "reservation", hg_reservation_to_json(&tp->reservation));
	json_object_set_new(o, "cpus", cpus);
	return o;
}

static json_t *started_json(const struct hg_run_state *rs, int64_t ns)
{
	if (hg_stream_checkpointing(rs->stream))
		return json_null(); /* the thread is still writing it */
	return ns < 0 ? json_null() : json_integer(ns);
}

static json_t *thread_json(const struct hg_run_state *rs, size_t i)
{
	const struct hg_worker *w = &rs->workers[i];
	const struct hg_thread_plan *tp = w->plan;
	json_t *o = json_pack("{s:s, s:i, s:s, s:i, s:s, s:s}", "name", tp->name,
			      "instance", (int)tp->instance, "os_name", tp->os_name,
			      "tid", (int)w->tid, "workload", tp->workload.ops->name,
			      "timer", tp->timer->name);
	json_object_set_new(o, "cpu_affinity", hg_cpus_to_json(false, &w->sched.granted.affinity));
	json_object_set_new(o, "asked", asked_json(tp));
	json_object_set_new(o, "granted", granted_json(rs, w));
	/* Atomic loads: a checkpoint reads them while the thread runs
	 * (run/thread.c stores them atomically). */
	json_object_set_new(o, "started_ns", started_json(rs, __atomic_load_n(&w->st.started_ns,
							       __ATOMIC_RELAXED)));
	json_object_set_new(o, "stopped_ns", started_json(rs, __atomic_load_n(&w->st.stopped_ns,
							       __ATOMIC_RELAXED)));
	json_object_set_new(o, "stats", stats_json(rs, i));
	json_object_set_new(o, "gap_causes", hg_kernel_thread_json(rs, i));
	if (tp->workload.ops->wakeups)
		json_object_set_new(o, "wakeup_causes", hg_kernel_wakeups_json(rs, i));
	return o;
}

static json_t *command_line(const struct hg_run_options *opt)
{
	json_t *a = json_array();
	for (int i = 0; i < opt->argc; i++)
		json_array_append_new(a, json_string(opt->argv[i]));
	return a;
}

static json_t *tsc_json(const struct hg_run_state *rs)
{
	const struct hg_calibration *c = &rs->cal;
	return json_pack("{s:f, s:f, s:s, s:s, s:f, s:b, s:b, s:o, s:I, s:I, s:I}", "hz", c->hz,
			 "trace_hz", rs->trace_hz,
			 "method", c->method ? c->method : "unknown",
			 "counter", c->counter ? c->counter : "unknown",
			 "hz_error_ppm", c->hz_error_ppm, "invariant", c->invariant,
			 "kept", c->kept, "check_ppm", c->kept ? json_real(c->check_ppm) : json_null(),
			 "start_monotonic_ns", (json_int_t)rs->sync->t0_ns,
			 "start_ticks", (json_int_t)rs->sync->t0_ticks,
			 "end_monotonic_ns", (json_int_t)rs->sync->end_ns);
}

static json_t *gap_json(const struct hg_run_state *rs)
{
	return json_pack("{s:I, s:f, s:b, s:s}", "threshold_ns", (json_int_t)rs->gap_ns,
			 "loop_ns", rs->cal.loop_ns, "auto", rs->plan->gap_auto,
			 "rule", HG_GAP_AUTO_RULE);
}

static void add_scenario(json_t *o, const struct hg_plan *plan)
{
	json_t *sc = hg_plan_to_json(plan);
	char *text = json_dumps(sc, JSON_COMPACT | JSON_SORT_KEYS);
	char hex[65] = "";
	if (text)
		hg_sha256_hex(text, strlen(text), hex);
	free(text);
	json_object_set_new(o, "scenario", sc);
	json_object_set_new(o, "scenario_sha256", json_string(hex));
}

/* Only the files that exist, by plain name. */
static json_t *files_json(const struct hg_run_state *rs)
{
	json_t *o = json_object();
	hg_stream_files_json(rs->stream, o);
	if (rs->kernel && rs->kernel->traced)   /* docs/kernel-trace.md */
		json_object_set_new(o, "kernel", json_string("kernel.jsonl"));
	if (rs->kernel && rs->kernel->wakes_written)
		json_object_set_new(o, "late_wakeups", json_string("late_wakeups.jsonl"));
	if (rs->dir[0])                         /* a load's own files (docs/loads.md) */
		hg_loadrun_files(rs->plan, rs->loads, o);
	return o;
}

/* The size of each regular file of `files` as result.json is written,
 * every writer done: what sweep-merge copies, and no more (docs/results.md). */
static json_t *file_bytes_json(const struct hg_run_state *rs, json_t *files)
{
	json_t *o = json_object(), *v;
	const char *key;
	struct stat st;
	json_object_foreach(files, key, v) {
		const char *name = json_string_value(v);
		if (name && rs->dir_fd >= 0 && fstatat(rs->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode))
			json_object_set_new(o, name, json_integer((json_int_t)st.st_size));
	}
	return o;
}

/* While the loads run, their supervisor owns their state: a checkpoint
 * names them only (their throughput is in series.jsonl). */
static json_t *checkpoint_loads_json(const struct hg_plan *plan)
{
	json_t *a = json_array();
	for (size_t i = 0; i < plan->n_loads; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:n, s:n, s:{}, s:[], s:i}", "name",
			plan->loads[i].name, "type", plan->loads[i].ops->name, "started_ns",
			"stopped_ns", "stats", "pids", "killed", 0));
	return a;
}

json_t *hg_result_json(const struct hg_run_state *rs)
{
	bool cp = hg_stream_checkpointing(rs->stream);
	json_t *o = json_pack("{s:s, s:s, s:b, s:o, s:o, s:s, s:o}", "format", HG_RESULT_FORMAT,
			      "hgrun_version", HG_VERSION, "complete", cp ? false : rs->complete,
			      "exit_status", cp ? json_null() : json_integer(rs->exit_status),
			      "command_line", command_line(rs->opt), "started_utc", rs->started_utc,
			      "finished_utc", cp ? json_null() : json_string(rs->finished_utc));
	json_object_set_new(o, "interrupted_by", !cp && rs->signal ? json_string(rs->signal == SIGINT ?
			    "SIGINT" : rs->signal == SIGTERM ? "SIGTERM" : rs->signal == SIGHUP ?
			    "SIGHUP" : "SIGQUIT") : json_null());
	add_scenario(o, rs->plan);
	json_object_set(o, "sweep_point", rs->opt->sweep_point ? rs->opt->sweep_point
							       : json_null());
	json_object_set_new(o, "overrides", rs->opt->overrides ? json_incref(rs->opt->overrides)
							       : json_object());
	json_object_set(o, "host", rs->host ? rs->host : json_null());
	json_object_set_new(o, "tsc", tsc_json(rs));
	json_object_set_new(o, "gap", gap_json(rs));
	json_object_set_new(o, "memory_locked", json_boolean(rs->memory_locked));
	json_object_set_new(o, "pid", json_integer(getpid()));
	json_object_set_new(o, "pm_qos", json_pack("{s:o, s:b}", "cpu_dma_latency_us",
		rs->plan->cpu_dma_latency_set
			? json_integer((json_int_t)(rs->plan->cpu_dma_latency_ns / 1000)) : json_null(),
		"held", rs->pmqos_fd >= 0));
	json_object_set_new(o, "watchdog", json_pack("{s:o, s:i}", "rt_granted",
			    cp ? json_null() : json_boolean(rs->wd.rt_granted), "priority", 99));
	json_t *threads = json_array();
	for (size_t i = 0; i < rs->n_workers; i++)
		json_array_append_new(threads, thread_json(rs, i));
	json_object_set_new(o, "threads", threads);
	if (cp) {
		json_object_set_new(o, "loads", checkpoint_loads_json(rs->plan));
		json_object_set_new(o, "expectations", json_array());
		json_object_set(o, "warnings", hg_stream_warnings_at_start(rs->stream));
	} else {
		json_object_set_new(o, "loads", rs->loads ? hg_loadrun_to_json(rs->loads)
							  : json_array());
		json_object_set(o, "expectations", rs->expectations);
		json_object_set(o, "warnings", rs->warnings);
	}
	json_t *files = files_json(rs);
	json_object_set_new(o, "files", files);
	json_object_set_new(o, "file_bytes", cp ? json_null() : file_bytes_json(rs, files));
	json_object_set_new(o, "trace", rs->stream ? hg_stream_trace_json(rs->stream)
						   : json_null());
	json_object_set_new(o, "checkpoint", json_null());
	json_object_set_new(o, "kernel_trace", hg_kernel_trace_json(rs));
	json_object_set(o, "competition", rs->kernel && rs->kernel->competition
					  ? rs->kernel->competition : json_null());
	json_object_set_new(o, "verdict", cp ? json_null() : hg_verdict_json(rs));
	json_object_set_new(o, "cpu_not_received", rs->stream ? hg_nr_json(hg_stream_not_received(rs->stream))
							      : json_null());
	return o;
}
