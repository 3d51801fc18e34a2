/* result.json as a jansson tree: the contract of schemas/result.schema.json. */
#include <string.h>
#include <unistd.h>

#include "base/sha256.h"
#include "loads/supervisor.h"
#include "plan/plan_json.h"
#include "plan/workload.h"
#include "results/kernel_findings.h"
#include "results/results.h"
#include "run/counter.h"

#define HG_RESULT_FORMAT "hgrun-result/1"

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *histogram_json(const struct hg_histogram *h)
{
	size_t last = 0;
	for (size_t i = 0; i < h->n_buckets; i++)
		if (h->counts[i])
			last = i + 1;
	json_t *counts = json_array();
	for (size_t i = 0; i < last; i++)
		json_array_append_new(counts, u64(h->counts[i]));
	return json_pack("{s:o, s:o, s:o, s:o}", "bucket_ns", u64(h->bucket_ns),
			 "n_buckets", u64(h->n_buckets), "counts", counts,
			 "overflow", u64(h->overflow));
}

static json_t *latency_json(const struct hg_worker *w, const struct hg_thread_numbers *n)
{
	if (w->plan->workload.ops != &hg_workload_latency)
		return json_null();
	const struct hg_summary *s = &n->latency;
	return json_pack("{s:o, s:o, s:o, s:f, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "count", u64(n->latency_count), "samples", u64(s->count),
			 "min_ns", u64(s->min), "mean_ns", s->mean, "p50_ns", u64(s->p50),
			 "p90_ns", u64(s->p90), "p99_ns", u64(s->p99), "p999_ns", u64(s->p999),
			 "max_ns", u64(s->max), "samples_dropped", u64(w->st.samples_dropped),
			 "grid_skipped", u64(w->st.grid_skipped),
			 "histogram", histogram_json(&w->hist));
}

static json_t *stats_json(const struct hg_worker *w, const struct hg_thread_numbers *n)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			      "cpu_ns", u64(n->cpu_ns), "intervals", u64(n->intervals),
			      "gaps", u64(n->gaps), "records", u64(n->records),
			      "records_dropped", u64(n->records_dropped),
			      "releases", u64(n->releases), "deadlines_hit", u64(n->deadlines_hit),
			      "deadlines_missed", u64(n->deadlines_missed),
			      "work_units", u64(n->work_units));
	json_object_set_new(o, "jobs", u64(n->jobs));
	json_object_set_new(o, "yields", u64(w->st.yields));
	json_object_set_new(o, "overrun_max_ns", u64(w->st.overrun_max_ns));
	json_object_set_new(o, "latency", latency_json(w, n));
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

static json_t *started_json(int64_t ns)
{
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
	json_object_set_new(o, "started_ns", started_json(w->st.started_ns));
	json_object_set_new(o, "stopped_ns", started_json(w->st.stopped_ns));
	json_object_set_new(o, "stats", stats_json(w, &rs->nums[i]));
	json_object_set_new(o, "gap_causes", hg_kernel_thread_json(rs, i));
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
	return json_pack("{s:f, s:f, s:s, s:s, s:f, s:b, s:I, s:I, s:I}", "hz", c->hz,
			 "trace_hz", rs->trace_hz,
			 "method", c->method ? c->method : "unknown",
			 "counter", c->counter ? c->counter : "unknown",
			 "hz_error_ppm", c->hz_error_ppm, "invariant", c->invariant,
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

json_t *hg_result_json(const struct hg_run_state *rs)
{
	json_t *o = json_pack("{s:s, s:s, s:b, s:i, s:o, s:s, s:s}", "format", HG_RESULT_FORMAT,
			      "hgrun_version", HG_VERSION, "complete", rs->complete,
			      "exit_status", rs->exit_status, "command_line",
			      command_line(rs->opt), "started_utc", rs->started_utc,
			      "finished_utc", rs->finished_utc);
	json_object_set_new(o, "interrupted_by", rs->signal ? json_string(rs->signal == 2 ?
			    "SIGINT" : "SIGTERM") : json_null());
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
	json_object_set_new(o, "watchdog", json_pack("{s:b, s:i}", "rt_granted",
			    rs->wd.rt_granted, "priority", 99));
	json_t *threads = json_array();
	for (size_t i = 0; i < rs->n_workers; i++)
		json_array_append_new(threads, thread_json(rs, i));
	json_object_set_new(o, "threads", threads);
	json_object_set_new(o, "loads", rs->loads ? hg_loadrun_to_json(rs->loads) : json_array());
	json_object_set(o, "expectations", rs->expectations);
	json_object_set(o, "warnings", rs->warnings);
	json_object_set_new(o, "files", json_pack("{s:s, s:s}", "trace", "trace.jsonl",
						  "latency", "latency.jsonl"));
	json_object_set_new(o, "kernel_trace", hg_kernel_trace_json(rs));
	json_object_set(o, "competition", rs->kernel && rs->kernel->competition
					  ? rs->kernel->competition : json_null());
	if (rs->kernel && rs->kernel->traced)
		json_object_set_new(json_object_get(o, "files"), "kernel", json_string("kernel.jsonl"));
	return o;
}
