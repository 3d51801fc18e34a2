/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Table-driven tests of each rule of the checker and resolver, including the
 * boundaries that must be accepted (exec == period, finish == duration, ...). */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "cli/plugins.h"
#include "scenario/scenario.h"


#define HEAD "hgrun: 1\nname: t\nduration: 2s\n"
#define T(body) HEAD "threads:\n  - name: rt\n" body

struct tcase {
	const char *what;
	const char *yaml;
	const char *error;   /* NULL: must be valid; else a substring of the first error */
	unsigned line;       /* line of the first error (0: don't care) */
};

static const struct tcase cases[] = {
	/* boundaries that are valid */
	{ "exec == period", T("    workload: {type: periodic, exec: 5ms, period: 5ms}\n"), NULL, 0 },
	{ "finish == duration", T("    finish: 2s\n"), NULL, 0 },
	{ "start just before finish", T("    start: 1999ms\n    finish: 2s\n"), NULL, 0 },
	{ "budget == deadline == period",
	  T("    reservation: {budget: 5ms, period: 5ms, deadline: 5ms}\n"
	    "    workload: {type: periodic, exec: 4ms, period: 5ms}\n"), NULL, 0 },
	{ "priority any case", T("    priority: rtHigh\n"), NULL, 0 },
	{ "timer any case", T("    timer: ABSOLUTE\n    workload: {type: latency, period: 1ms}\n"), NULL, 0 },
	{ "workload type any case", T("    workload: {type: CPU_Yield, yield_after: 1ms}\n"), NULL, 0 },
	{ "fifo 98", T("    priority: {policy: fifo, priority: 98}\n"), NULL, 0 },
	{ "nice -20", T("    priority: {policy: batch, nice: -20}\n"), NULL, 0 },
	{ "idle policy", T("    priority: {policy: idle}\n"), NULL, 0 },
	{ "per_cpu", T("    count: per_cpu\n"), NULL, 0 },
	{ "count 1024 short name", T("    count: 1024\n"), NULL, 0 },
	{ "cpus string", T("    cpus: \"0\"\n"), NULL, 0 },
	{ "quoted values", T("    start: \"0s\"\n    workload: {type: 'periodic', exec: \"1ms\", period: '2ms'}\n"), NULL, 0 },
	{ "period 10us", T("    workload: {type: periodic, exec: 5us, period: 10us}\n"), NULL, 0 },
	{ "default priority with reservation",
	  HEAD "defaults: {priority: RTLOW}\nthreads:\n  - name: rt\n    reservation: {budget: 1ms, period: 5ms}\n",
	  NULL, 0 },
	{ "default param not for this type is ignored",
	  HEAD "defaults: {workload: {yield_after: 1ms}}\nthreads:\n  - name: rt\n    workload: {type: cpu}\n",
	  NULL, 0 },
	{ "default timer on a cpu thread is fine",
	  HEAD "defaults: {timer: sleep}\nthreads:\n  - name: rt\n", NULL, 0 },
	{ "expect min", T("    workload: {type: cpu_scan, working_set: 64B}\nexpect:\n  - {thread: rt, metric: work_units, min: 1}\n"), NULL, 0 },
	{ "expect duration bound", T("    workload: {type: latency, period: 1ms}\nexpect:\n  - {thread: rt, metric: latency_p99_ns, max: 100us}\n"), NULL, 0 },
	{ "expect ratio 0", T("    workload: {type: cpu_periodic, exec: 1ms, period: 2ms}\nexpect:\n  - {thread: rt, metric: deadline_miss_ratio, max: 0}\n"), NULL, 0 },
	{ "sweep duration", T("") "sweep:\n  grid:\n    duration: [1s, 2s]\n  repeat: 3\n", NULL, 0 },
	{ "gap duration", HEAD "trace: {gap: 500ns, records: 10}\nthreads:\n  - name: rt\n", NULL, 0 },
	/* rules */
	{ "exec > period", T("    workload: {type: periodic, exec: 6ms, period: 5ms}\n"), "exec <= period", 6 },
	{ "exec list item > period", T("    workload: {type: cpu_periodic, exec: [1ms, 9ms], period: 5ms}\n"), "exec 9ms", 6 },
	{ "uniform max > period", T("    workload: {type: periodic, exec: {dist: uniform, min: 1ms, max: 6ms}, period: 5ms}\n"), "longer than the period", 6 },
	{ "normal mean > period", T("    workload: {type: periodic, exec: {dist: normal, mean: 6ms, stddev: 1ms}, period: 5ms}\n"), "longer than the period", 6 },
	{ "normal with uniform keys", T("    workload: {type: periodic, exec: {dist: uniform, min: 1ms, max: 2ms, mean: 1ms}, period: 5ms}\n"), "belongs to dist: normal", 6 },
	{ "period zero", T("    workload: {type: periodic, exec: 1ms, period: 0ms}\n"), "at least 10us", 6 },
	{ "latency period zero", T("    workload: {type: latency, period: 0s}\n"), "at least 10us", 6 },
	{ "reservation period zero", T("    reservation: {budget: 1ms, period: 0s}\n"), "at least 1.024us", 6 },
	{ "unused default still checked",
	  HEAD "defaults: {workload: {align: soft}}\nthreads:\n  - name: rt\n", "unknown align 'soft'", 4 },
	{ "unused default exec checked",
	  HEAD "defaults: {workload: {exec: 5}}\nthreads:\n  - name: rt\n", "needs a unit", 4 },
	{ "exec zero", T("    workload: {type: periodic, exec: 0ms, period: 5ms}\n"), "more than 0", 6 },
	{ "finish > duration", T("    finish: 2001ms\n"), "after the end of the run", 6 },
	{ "start == finish", T("    start: 1s\n    finish: 1s\n"), "must come before finish", 6 },
	{ "start default finish", T("    start: 2s\n"), "must come before finish", 6 },
	{ "budget > deadline", T("    reservation: {budget: 4ms, period: 5ms, deadline: 3ms}\n"), "exceeds the deadline", 6 },
	{ "budget tiny", T("    reservation: {budget: 1us, period: 5ms}\n"), "1.024us", 6 },
	{ "reservation + own priority", T("    priority: RTLOW\n    reservation: {budget: 1ms, period: 5ms}\n"), "not both", 6 },
	{ "workload needs", T("    workload: {type: cpu_scan}\n"), "needs 'working_set'", 6 },
	{ "workload takes", T("    workload: {type: cpu, period: 1ms}\n"), "takes no parameters, not 'period'", 6 },
	{ "latency exec", T("    workload: {type: latency, period: 1ms, exec: 1ms}\n"), "takes only period, align", 6 },
	{ "timer on cpu_yield", T("    timer: spin\n    workload: {type: cpu_yield, yield_after: 1ms}\n"), "never sleeps", 6 },
	{ "count 1025", T("    count: 1025\n"), "1..1024 or per_cpu", 6 },
	{ "long name with count", HEAD "threads:\n  - name: abcdefghijklm\n    count: 100\n", "longer than 15", 5 },
	{ "rr without priority", T("    priority: {policy: rr}\n"), "needs 'priority: 1..98'", 6 },
	{ "other with priority", T("    priority: {policy: other, priority: 5}\n"), "no real-time priority", 6 },
	{ "idle with nice", T("    priority: {policy: idle, nice: 1}\n"), "takes no nice", 6 },
	{ "priority key unknown", T("    priority: {policy: fifo, prio: 5}\n"), "did you mean 'priority'", 6 },
	{ "priority as list", T("    priority: [RTHIGH]\n"), "expected a priority name", 6 },
	{ "cpus mapping", T("    cpus: {a: 1}\n"), "expected a list of CPUs", 6 },
	{ "cpus item list", T("    cpus: [[0]]\n"), "expected a CPU number", 6 },
	{ "expect no bound", T("expect:\n  - {thread: rt, metric: gaps}\n"), "exactly one of", 7 },
	{ "expect negative", T("expect:\n  - {thread: rt, metric: gaps, max: -1}\n"), "cannot be negative", 7 },
	{ "expect junk", T("expect:\n  - {thread: rt, metric: gaps, max: lots}\n"), "expected a number", 7 },
	{ "deadline metric on cpu", T("expect:\n  - {thread: rt, metric: deadlines_hit, min: 1}\n"), "has no deadlines", 7 },
	{ "sweep bad path", T("") "sweep:\n  grid:\n    foo.bar: [1]\n", "cannot sweep 'foo.bar'", 8 },
	{ "sweep grid scalar", T("") "sweep:\n  grid: 5\n", "expected a mapping of parameter paths", 7 },
	{ "sweep unknown load", T("") "sweep:\n  grid:\n    loads[x].stop: [1s]\n", "no load is named 'x'", 8 },
	{ "load exec needs command", T("") "loads:\n  - {name: x, type: exec}\n", "needs 'command'", 7 },
	{ "load connect bad", T("") "loads:\n  - {name: x, type: tcp_stream, connect: nowhere}\n", "host:port", 7 },
	{ "load size small", T("") "loads:\n  - {name: x, type: memory, size: 1KiB}\n", "at least 4KiB", 7 },
	{ "load workers junk", T("") "loads:\n  - {name: x, type: cpu, workers: two}\n", "expected an integer", 7 },
	{ "load start == stop", T("") "loads:\n  - {name: x, type: cpu, start: 1s, stop: 1s}\n", "must come before stop", 7 },
	{ "load priority bad", T("") "loads:\n  - {name: x, type: cpu, priority: RTMAX}\n", "unknown priority", 7 },
	{ "duration tiny", "hgrun: 1\nname: t\nduration: 10us\nthreads:\n  - name: rt\n", "at least 1ms", 3 },
	{ "gap zero", HEAD "trace: {gap: 0ns}\nthreads:\n  - name: rt\n", "1ns..1s", 4 },
	{ "description mapping", HEAD "description: {a: 1}\nthreads:\n  - name: rt\n", "expected a single value", 4 },
	{ "empty value", HEAD "lock_memory:\nthreads:\n  - name: rt\n", "empty value", 4 },
	{ "thread missing name", HEAD "threads:\n  - count: 2\n", "missing required key 'name'", 5 },
	{ "key is a list", HEAD "threads:\n  - name: rt\n    [a]: 1\n", "plain name", 6 },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *c = &cases[i];
		struct hg_diags d;
		struct hg_plan *plan = hg_scenario_load_string("t.yaml", c->yaml, &hg_builtin_plugins, &d);
		const char *got = d.count ? d.items[0].message : "";
		bool ok;
		if (!c->error)
			ok = plan != NULL && d.count == 0;
		else
			ok = plan == NULL && d.count > 0 && strstr(got, c->error) &&
			     (!c->line || d.items[0].line == c->line);
		if (ok) {
			passed++;
		} else {
			failed++;
			printf("FAIL %s: want %s%s (line %u), got '%s' (line %u)\n", c->what,
			       c->error ? "error containing " : "valid", c->error ? c->error : "",
			       c->line, got, d.count ? d.items[0].line : 0);
		}
		hg_plan_free(plan);
	}
	return unit_report("test_checks");
}
