/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-thread state of a measuring thread, and the helpers workloads use:
 * run until some CPU has been received, sleep on the timer, yield.  Each
 * worker sits on its own cache lines; the hot gap-trace state comes first. */
#ifndef HG_THREAD_H
#define HG_THREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/stats.h"
#include "base/timeutil.h"
#include "plan/plan.h"
#include "plan/timer.h"
#include "run/counter.h"
#include "run/gaptrace.h"
#include "run/scheduling.h"
#include "run/wakeups.h"

/* What all threads of a run share: the start gate and the timeline.  The
 * gate is a counted barrier that main opens once every thread it managed to
 * create has arrived (so a failed pthread_create cannot deadlock it). */
struct hg_sync {
	_Alignas(64) atomic_int stop;   /* read in every loop iteration */
	_Alignas(64) atomic_int abort;  /* set before `go`: do not measure */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t arrived;                 /* threads waiting at the gate */
	bool go;                        /* the gate is open */
	int64_t t0_ns;                  /* CLOCK_MONOTONIC at the run's time zero */
	uint64_t t0_ticks;              /* the counter at t0 */
	int64_t end_ns;                 /* CLOCK_MONOTONIC at the run's end */
	double hz;
};

struct hg_worker_stats {
	uint64_t releases, deadlines_hit, deadlines_missed;
	uint64_t jobs;             /* jobs completed (periodic, cpu_periodic) */
	uint64_t work_units;       /* cache lines touched (cpu_scan*) */
	uint64_t yields;
	uint64_t overrun_max_ns;   /* periodic: worst completion past a deadline */
	uint64_t grid_skipped;     /* latency, align absolute: wake-ups skipped */
	bool skipped_ignored;      /* the scenario left skipped slots out of the shares
				      (latency's skipped_slots: ignored) */
	int64_t started_ns, stopped_ns;   /* from t0; -1 when never started */
};

/* Counters a running thread publishes for the streaming writer (series,
 * progress): copies of hg_worker_stats, stored with relaxed atomics at
 * each job's start and at the thread's end. */
struct hg_worker_pub {
	_Atomic uint64_t releases, hits, misses;
};

struct hg_worker {
	/* hot: the measuring loop */
	_Alignas(64) struct hg_gaptrace gt;
	const atomic_int *stop;
	uint64_t finish_tick;
	/* the thread's timeline */
	const struct hg_thread_plan *plan;
	const struct hg_calibration *cal;
	struct hg_sync *sync;
	int64_t start_abs_ns, finish_abs_ns;  /* CLOCK_MONOTONIC */
	uint64_t active_ns;                   /* finish - start, for sizing buffers */
	uint64_t trace_records;
	uint64_t gap_ticks;
	int64_t ref_ns;                       /* this thread's (monotonic, counter) pair */
	uint64_t ref_tick;
	struct hg_timer *timer;
	bool spin_timer;                      /* waits spin through the gap loop */
	uint64_t tick_ns;                     /* timer.tick: wake-ups rounded up to it */
	void *priv;                           /* the workload's own state (prepare..cleanup) */
	/* Wake-ups the thread records for the streaming writer and the results
	 * (a ring and a histogram), like gt for intervals: a channel of the
	 * thread's, set up by the workloads that wake on a timer (latency). */
	struct hg_wakeups wk;
	struct hg_worker_stats st;
	_Alignas(64) struct hg_worker_pub pub;
	/* setup and outcome: written by the thread, read by main after join */
	size_t index;
	pid_t tid;
	pthread_t thread;
	bool created, joined;
	struct hg_sched_report sched;
	int setup_err;                        /* 0 or -errno */
	char setup_msg[192];
	_Alignas(64) atomic_int done;
};

/* The thread function (arg: struct hg_worker *). */
void *hg_worker_main(void *arg);
/* After join: frees buffers, closes the timer, runs the workload's cleanup. */
void hg_worker_cleanup(struct hg_worker *w);

/* Helpers for workloads. */
uint64_t hg_worker_tick_at(const struct hg_worker *w, int64_t mono_ns);
uint64_t hg_worker_ticks(const struct hg_worker *w, uint64_t ns);
int64_t  hg_worker_rel_ns(const struct hg_worker *w, int64_t mono_ns); /* from t0 */
static inline bool hg_worker_stopping(const struct hg_worker *w)
{
	return atomic_load_explicit(w->stop, memory_order_relaxed) != 0;
}
/* Runs (tracing) until `cpu_ns` more CPU has been received, the thread's
 * finish or the run's stop. */
enum hg_gap_result hg_worker_run_cpu(struct hg_worker *w, uint64_t cpu_ns);
/* Closes the interval as blocked, sleeps on the timer until mono_ns (the
 * spin timer keeps polling in the gap loop instead), reopens.  A tick
 * timer (timer.tick) wakes at the first tick at or after mono_ns instead.
 * Returns 0, or 1 when the thread must end (stop, or the wake-up at/after
 * its finish).
 * *woke_ns (may be NULL): CLOCK_MONOTONIC read first thing after waking. */
int hg_worker_sleep_until(struct hg_worker *w, int64_t mono_ns, int64_t *woke_ns);
/* Closes the interval as yielded, sched_yield(), reopens. */
void hg_worker_yield(struct hg_worker *w);
/* Publishes st's releases, hits and misses to pub. */
void hg_worker_publish(struct hg_worker *w);

#endif
