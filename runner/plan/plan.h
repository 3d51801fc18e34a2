/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The resolved scenario ("plan"): every default filled in, units in ns and
 * bytes, thread sets expanded into instances.  This is the only thing the
 * runner sees; it never sees YAML.  Built by resolve.c, echoed as JSON by
 * plan_json.c, freed with hg_plan_free(). */
#ifndef HG_PLAN_H
#define HG_PLAN_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/param.h"

struct hg_workload_ops;
struct hg_timer_ops;
struct hg_load_ops;

enum hg_policy {
	HG_POLICY_OTHER,
	HG_POLICY_BATCH,
	HG_POLICY_IDLE,
	HG_POLICY_FIFO,
	HG_POLICY_RR,
	HG_POLICY_DEADLINE, /* only ever granted, through a reservation */
};

/* A scheduling request: a named level (RTHIGH, ...) or an explicit form. */
struct hg_priority {
	const char *level;    /* "RTHIGH" etc. (static string) or NULL when explicit */
	enum hg_policy policy;
	int rt_priority;      /* FIFO/RR: 1..99; otherwise 0 */
	int nice;             /* OTHER/BATCH: -20..19; otherwise 0 */
};

enum hg_reservation_mode { HG_RES_HARD, HG_RES_SOFT };

struct hg_reservation {
	bool enabled;
	uint64_t budget_ns, period_ns, deadline_ns;
	enum hg_reservation_mode mode;
};

struct hg_workload_spec {
	const struct hg_workload_ops *ops;
	void *params;           /* ops->params.size bytes, laid out by the workload */
};

/* One thread instance (a thread set of count N gives N of these). */
struct hg_thread_plan {
	char *name;             /* set name, as written: "audio" */
	char os_name[16];       /* OS thread name: "audio" or "audio.3" (15 chars) */
	unsigned instance;      /* 0..count-1 */
	unsigned set_index;     /* index in the scenario's threads: list */
	bool cpus_all;          /* no affinity given: every online CPU */
	cpu_set_t cpus;         /* affinity when !cpus_all */
	int pinned_cpu;         /* per_cpu sets: the CPU of this instance, else -1 */
	bool priority_explicit; /* priority given (thread or defaults), not the default */
	struct hg_priority priority;
	struct hg_reservation reservation;
	const struct hg_timer_ops *timer;
	bool timer_explicit;    /* the thread itself names its timer (not defaults) */
	void *timer_params;     /* timer->params.size bytes: tick, slack (timers/common.h) */
	uint64_t start_ns, finish_ns;
	struct hg_workload_spec workload;
};

struct hg_load_plan {
	char *name;
	const struct hg_load_ops *ops;
	uint64_t start_ns, stop_ns;
	bool priority_given;
	struct hg_priority priority;
	bool cpus_all;
	cpu_set_t cpus;
	bool optional;           /* a run without its program leaves it out (docs/loads.md) */
	void *params;            /* ops->params.size bytes, laid out by the load */
};

enum hg_expect_bound { HG_EXPECT_MAX, HG_EXPECT_MIN };

struct hg_expect_plan {
	char *thread;            /* thread set name */
	const char *metric;      /* static string from the metric table */
	enum hg_expect_bound bound;
	double limit;            /* in the metric's unit: ns for *_ns, ratio, count */
	char *limit_text;        /* the bound as written ("200us"), for messages */
};

struct hg_sweep_axis {
	char *path;              /* "threads[audio].workload.exec" */
	char **values;           /* raw scalar values as written: "2ms" */
	size_t n_values;
};

struct hg_sweep_plan {
	bool present;
	struct hg_sweep_axis *axes;
	size_t n_axes;
	unsigned repeat;
};

/* trace: what the streaming writer keeps (docs/scenario.md#trace). */
enum hg_trace_mode { HG_TRACE_FULL, HG_TRACE_OUTLIERS, HG_TRACE_NONE };

struct hg_trace_plan {
	enum hg_trace_mode mode;
	uint64_t series_ns;          /* one series line per thread per series_ns */
	uint64_t outlier_gap_ns;     /* outliers: a longer gap opens a window */
	uint64_t outlier_latency_ns; /* outliers: a later wake-up opens a window */
	uint64_t late_wakeup_ns;     /* kernel trace: later wake-ups are explained */
	uint64_t before_ns, after_ns;/* outliers: the window around the trigger */
	uint64_t budget_bytes;       /* trace.bin + latency.bin at most; 0 = no budget */
};

const char *hg_trace_mode_name(enum hg_trace_mode mode);

struct hg_plan {
	char *source_path;
	char *name;
	char *description;       /* NULL when absent */
	uint64_t duration_ns;
	uint64_t trace_records;  /* per thread: the ring between the thread and the writer */
	struct hg_trace_plan trace;
	bool gap_auto;
	uint64_t gap_ns;         /* when !gap_auto */
	bool lock_memory;
	bool kernel_trace;       /* trace.kernel or --kernel-trace (docs/kernel-trace.md) */
	bool cpu_dma_latency_set;     /* hold /dev/cpu_dma_latency during the run */
	uint64_t cpu_dma_latency_ns;  /* whole microseconds */
	struct hg_thread_plan *threads;
	size_t n_threads;        /* instances */
	size_t n_thread_sets;
	struct hg_load_plan *loads;
	size_t n_loads;
	struct hg_expect_plan *expects;
	size_t n_expects;
	struct hg_sweep_plan sweep;
};

void hg_plan_free(struct hg_plan *plan);

/* --duration: ends at the old duration move to the new one, later ends are
 * cut to it.  Returns how many threads and loads now never start. */
size_t hg_plan_set_duration(struct hg_plan *plan, uint64_t duration_ns);

/* A CPU the plan names that is not online here (scenarios are often
 * validated on another machine; running needs the CPUs). */
struct hg_missing_cpu {
	char path[48];          /* threads[i].cpus or loads[i].cpus */
	int cpu;
	cpu_set_t online;
};
bool hg_plan_missing_cpu(const struct hg_plan *plan, struct hg_missing_cpu *m);

/* The CPUs the scenario's threads may run on (pinned CPUs, affinities;
 * every online CPU when a thread has none). */
void hg_plan_cpus(const struct hg_plan *plan, cpu_set_t *cpus);

const char *hg_policy_name(enum hg_policy policy);

#endif
