/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The summary as one JSON object, for scripts: `hgrun run --json` prints it
 * on stdout (the human summary then goes to stderr).  docs/cli.md. */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "loads/supervisor.h"
#include "plan/workload.h"
#include "results/numbers.h"
#include "results/summary.h"
#include "results/verdict.h"

#define SUMMARY_FORMAT "hgrun-summary/1"

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *thread_json(const struct hg_worker *w, const struct hg_thread_numbers *n)
{
	json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o}", "name", w->plan->os_name,
			      "workload", w->plan->workload.ops->name, "cpu_ns", u64(n->cpu_ns),
			      "intervals", u64(n->intervals), "gaps", u64(n->gaps));
	if (w->plan->workload.ops->periodic) {
		json_object_set_new(o, "deadlines_hit", u64(n->deadlines_hit));
		json_object_set_new(o, "deadlines_missed", u64(n->deadlines_missed));
	}
	if (w->plan->workload.ops->wakeups) {
		const struct hg_summary *s = &n->latency;
		json_object_set_new(o, "latency", s->count ? json_pack(
			"{s:o, s:o, s:o, s:o, s:o, s:o}", "count", u64(n->latency_count),
			"min_ns", u64(s->min), "p50_ns", u64(s->p50), "p99_ns", u64(s->p99),
			"p999_ns", u64(s->p999), "max_ns", u64(s->max)) : json_null());
	}
	if (n->records_dropped)
		json_object_set_new(o, "records_dropped", u64(n->records_dropped));
	return o;
}

/* name, type and the load's throughput figures, as result.json has them. */
static json_t *load_json(json_t *l)
{
	static const char *const keys[] = { "ops_per_s", "mbps", "bogo_ops_per_s" };
	json_t *st = json_object_get(l, "stats");
	json_t *o = json_pack("{s:O, s:O, s:b}", "name", json_object_get(l, "name"),
			      "type", json_object_get(l, "type"),
			      "started", json_is_integer(json_object_get(l, "started_ns")));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_is_number(json_object_get(st, keys[i])))
			json_object_set(o, keys[i], json_object_get(st, keys[i]));
	json_object_set_new(o, "warnings", json_integer((json_int_t)json_array_size(
				    json_object_get(l, "warnings"))));
	return o;
}

json_t *hg_summary_json(const struct hg_run_state *rs)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/result.json", rs->dir);
	struct stat st;
	bool have = rs->dir_fd >= 0 &&
		    fstatat(rs->dir_fd, "result.json", &st, AT_SYMLINK_NOFOLLOW) == 0;
	const char *sig = rs->signal ? sigabbrev_np(rs->signal) : NULL;
	char signame[32];
	snprintf(signame, sizeof(signame), "SIG%s", sig ? sig : "");
	json_t *threads = json_array(), *loads = json_array();
	for (size_t i = 0; rs->nums && i < rs->n_workers; i++)
		json_array_append_new(threads, thread_json(&rs->workers[i], &rs->nums[i]));
	json_t *all = rs->loads ? hg_loadrun_to_json(rs->loads) : NULL;
	size_t i;
	json_t *v;
	json_array_foreach(all, i, v)
		json_array_append_new(loads, load_json(v));
	json_decref(all);
	size_t failed = 0;
	json_array_foreach(rs->expectations, i, v)
		failed += !json_is_true(json_object_get(v, "pass"));
	/* result.json's verdict (results/verdict.c): its headline, each
	 * expectation's line in the bound's units, the key findings. */
	json_t *verdict = hg_verdict_json(rs), *lines = json_array();
	json_array_foreach(json_object_get(verdict, "expectations"), i, v)
		json_array_append(lines, json_object_get(v, "line"));
	json_t *o = json_pack("{s:s, s:n, s:n, s:O, s:s, s:b, s:o, s:o, s:o, s:o, s:o, "
			      "s:{s:I, s:I, s:o}, s:O, s:O}",
		"format", SUMMARY_FORMAT, "verdict", "exit_status",
		"headline", json_object_get(verdict, "headline"), "scenario", rs->plan->name,
		"complete", rs->complete,
		"interrupted_by", sig ? json_string(signame) : json_null(),
		"result_dir", rs->dir[0] ? json_string(rs->dir) : json_null(),
		"result", have ? json_string(path) : json_null(),
		"threads", threads, "loads", loads,
		"expectations", "passed", (json_int_t)(json_array_size(rs->expectations) - failed),
		"failed", (json_int_t)failed, "lines", lines,
		"findings", json_object_get(verdict, "findings"), "warnings", rs->warnings);
	json_decref(verdict);
	return hg_summary_json_exit(o, rs->exit_status);
}

json_t *hg_summary_json_exit(json_t *summary, int exit_status)
{
	if (!summary)
		summary = json_pack("{s:s, s:n, s:n, s:n, s:n, s:b, s:n, s:n, s:n}", "format",
				    SUMMARY_FORMAT, "verdict", "exit_status", "headline", "scenario",
				    "complete", false, "interrupted_by", "result_dir", "result");
	json_object_set_new(summary, "verdict", json_string(hg_exit_word(exit_status)));
	json_object_set_new(summary, "exit_status", json_integer(exit_status));
	return summary;
}
