/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One line on each key of the scenario format, for the man page
 * hgrun-scenario(5) (cli/manpage_scenario.c): the keys themselves come from
 * the format's own schema (hg_scenario_keys) and the plugins' parameter
 * tables; docs/scenario.md says each at length.  A key the format has and
 * this table lacks makes the man page say so, and a test fail
 * (tests/e2e/test_man_completion.py). */
#include <stddef.h>
#include <string.h>

#include "cli/help_scenario.h"

static const struct {
	const char *part, *key, *text;
} keys[] = {
	{ "scenario", "hgrun", "format version: 1 (required)" },
	{ "scenario", "name", "the scenario's name, 1-63 of a-z 0-9 _ -; it names the results directory (required)" },
	{ "scenario", "description", "free text: what it reproduces, what to look at" },
	{ "scenario", "duration", "the length of the run, 1ms..30d (required)" },
	{ "scenario", "trace", "what the gap trace keeps (see TRACE)" },
	{ "scenario", "lock_memory", "mlockall and pre-touch every buffer before measuring (default true)" },
	{ "scenario", "cpu_dma_latency", "hold /dev/cpu_dma_latency at this value during the run (0us: no deep idle states, as cyclictest)" },
	{ "scenario", "defaults", "thread settings for every thread that does not set them" },
	{ "scenario", "threads", "the thread sets, at least one (see THREADS)" },
	{ "scenario", "loads", "background loads (see LOADS)" },
	{ "scenario", "expect", "pass/fail bounds on metrics (see EXPECT)" },
	{ "scenario", "sweep", "a parameter grid for hgrun sweep (see SWEEP)" },
	{ "trace", "records", "the ring between each thread and the writer, in intervals (default 65536)" },
	{ "trace", "gap", "gap threshold: auto or a duration (default auto)" },
	{ "trace", "mode", "full, outliers or none: what reaches trace.bin and latency.bin" },
	{ "trace", "series", "one series.jsonl line per thread and load per this interval (default 1s)" },
	{ "trace", "outlier_gap", "outliers: a longer gap opens a window (default 500us)" },
	{ "trace", "outlier_latency", "outliers: a later wake-up opens a window (default 500us)" },
	{ "trace", "before", "outliers: the window starts this long before the trigger (default 5ms)" },
	{ "trace", "after", "outliers: the window ends this long after it (default 5ms)" },
	{ "trace", "budget", "at most this many bytes of trace.bin and latency.bin" },
	{ "trace", "kernel", "record the kernel's events and attribute every gap to a cause (default false)" },
	{ "trace", "late_wakeup", "with the kernel trace: explain every wake-up later than this (default 50us)" },
	{ "thread", "name", "the set's name, 1-15 characters, unique (required)" },
	{ "thread", "count", "instances in the set, 1..1024, or per_cpu (default 1)" },
	{ "thread", "cpus", "affinity of every instance: a CPU list (default: every online CPU)" },
	{ "thread", "priority", "a level (IDLE LOW NORMAL HIGH HIGHEST RTLOW RTMED RTHIGH) or {policy, priority | nice}" },
	{ "thread", "reservation", "a SCHED_DEADLINE reservation {budget, period, deadline, mode} instead of a priority" },
	{ "thread", "timer", "what periodic and latency threads sleep on: a timer name or {type, tick, slack} (default absolute)" },
	{ "thread", "start", "when the thread starts measuring (default 0s)" },
	{ "thread", "finish", "when it stops (default: the run's duration)" },
	{ "thread", "workload", "what the thread does: {type, ...} (see WORKLOADS; default cpu)" },
	{ "reservation", "budget", "CPU time reserved per period (required)" },
	{ "reservation", "period", "the reservation's period (required)" },
	{ "reservation", "deadline", "relative deadline, budget <= deadline <= period (default period)" },
	{ "reservation", "mode", "hard (throttled once the budget is spent) or soft (may reclaim spare CPU)" },
	{ "load", "name", "the load's name, unique among loads (required)" },
	{ "load", "type", "the load's type (see LOADS) (required)" },
	{ "load", "start", "when it starts (default 0s)" },
	{ "load", "stop", "when it is stopped (default: the run's duration)" },
	{ "load", "optional", "when a program it runs is missing: true leaves it out with a warning (default false)" },
	{ "load", "priority", "the priority of its workers, as for threads (default: not changed)" },
	{ "load", "cpus", "the CPUs its workers run on (default: not changed)" },
	{ "expect", "thread", "a thread set of this scenario" },
	{ "expect", "metric", "a metric name (hgrun list metrics)" },
	{ "expect", "max", "the bound: the metric must be at most this (with its unit: 200us, 1%)" },
	{ "expect", "min", "the bound: the metric must be at least this" },
	{ "sweep", "grid", "PATH: [VALUE, ...] for each axis: every combination is a point" },
	{ "sweep", "repeat", "runs per point (default 1)" },
};

const char *hg_scenario_key_help(const char *part, const char *key)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].part, part) && !strcmp(keys[i].key, key))
			return keys[i].text;
	return NULL;
}
