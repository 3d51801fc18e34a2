/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's timekeeper and safety net: a thread at SCHED_FIFO 99 (above
 * every scenario priority) that sleeps until the run's end, or until main
 * pokes it (SIGINT/SIGTERM), then sets the stop flag and keeps waking the
 * workers until all are done or a hard deadline passes; then it tells the
 * main thread (hg_done_signal()).  RLIMIT_RTTIME is the second net. */
#ifndef HG_WATCHDOG_H
#define HG_WATCHDOG_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "run/thread.h"

/* How long after the end the watchdog waits for threads to stop. */
#define HG_WATCHDOG_GRACE_NS 2000000000LL

struct hg_watchdog {
	const struct hg_plan *plan;  /* its CPUs: off the measured ones (plan/placement.h) */
	struct hg_sync *sync;
	struct hg_worker *workers;
	size_t n_workers;
	pthread_t main_thread;    /* receives hg_done_signal() at the end */
	int64_t hard_ns;          /* CLOCK_MONOTONIC: give up waiting */
	/* outcome */
	pthread_t thread;
	bool rt_granted;          /* got SCHED_FIFO 99 */
	int rt_error;             /* errno when not */
	atomic_int finished;      /* every worker done, or gave up */
	atomic_int gave_up;       /* some worker did not stop by hard_ns */
};

/* Starts the watchdog (sync->end_ns must be set).  Returns 0 or -errno. */
int  hg_watchdog_start(struct hg_watchdog *wd);
/* From main: the run must stop now (a signal arrived). */
void hg_watchdog_poke(struct hg_watchdog *wd);
void hg_watchdog_join(struct hg_watchdog *wd);

/* RLIMIT_RTTIME for RT threads: soft (SIGXCPU) at duration + 2 s of CPU
 * without blocking, hard (SIGKILL) a second later.  Returns 0 or -errno. */
int hg_watchdog_rttime(uint64_t duration_ns);

#endif
