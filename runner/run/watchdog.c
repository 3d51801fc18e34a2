/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The watchdog thread and RLIMIT_RTTIME. */
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>

#include "base/timeutil.h"
#include "plan/priority.h"
#include "plan/placement.h"
#include "run/scheduling.h"
#include "run/wake.h"
#include "run/watchdog.h"

static void sleep_until_end(struct hg_watchdog *wd)
{
	struct timespec end = hg_ns_to_ts(wd->sync->end_ns);
	while (!atomic_load(&wd->sync->stop) &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
		;
	atomic_store(&wd->sync->stop, 1);
}

/* Wakes every worker not done yet; true when all are done. */
static bool wake_all(struct hg_watchdog *wd)
{
	bool all = true;
	for (size_t i = 0; i < wd->n_workers; i++) {
		struct hg_worker *w = &wd->workers[i];
		if (!w->created || atomic_load(&w->done))
			continue;
		all = false;
		hg_wake_thread(w->thread);
	}
	return all;
}

static void *watchdog_main(void *arg)
{
	struct hg_watchdog *wd = arg;
	pthread_setname_np(pthread_self(), "hgrun-watchdog");
	/* Its timer and its wake-ups at the end then interrupt no measured CPU. */
	hg_placement_off_measured(wd->plan, NULL);
	int rc = hg_sched_fifo_self(HG_WATCHDOG_PRIORITY);
	wd->rt_granted = rc == 0;
	wd->rt_error = -rc;
	sleep_until_end(wd);
	struct timespec tick = hg_ns_to_ts(2000000); /* re-wake every 2 ms */
	while (!wake_all(wd)) {
		if (hg_now_ns() >= wd->hard_ns) {
			atomic_store(&wd->gave_up, 1);
			break;
		}
		clock_nanosleep(CLOCK_MONOTONIC, 0, &tick, NULL);
	}
	atomic_store(&wd->finished, 1);
	pthread_kill(wd->main_thread, hg_done_signal());
	return NULL;
}

int hg_watchdog_start(struct hg_watchdog *wd)
{
	atomic_init(&wd->finished, 0);
	atomic_init(&wd->gave_up, 0);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	int rc = pthread_create(&wd->thread, &attr, watchdog_main, wd);
	pthread_attr_destroy(&attr);
	return -rc;
}

void hg_watchdog_poke(struct hg_watchdog *wd)
{
	atomic_store(&wd->sync->stop, 1);
	hg_wake_thread(wd->thread);
}

void hg_watchdog_join(struct hg_watchdog *wd)
{
	pthread_join(wd->thread, NULL);
}

int hg_watchdog_rttime(uint64_t duration_ns)
{
	uint64_t soft_us = duration_ns / 1000 + 2000000;
	struct rlimit rl = { .rlim_cur = soft_us, .rlim_max = soft_us + 1000000 };
	return setrlimit(RLIMIT_RTTIME, &rl) < 0 ? -errno : 0;
}
