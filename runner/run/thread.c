/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A measuring thread's life: set up (name, slack, scheduling, buffers,
 * timer), meet the others on the barriers, wait for its start time, run its
 * workload until its finish or the run's stop.  Nothing prints here: every
 * problem is recorded in the worker for main to report after join. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "base/timeutil.h"
#include "plan/keys.h"
#include "plan/timer.h"
#include "plan/workload.h"
#include "run/thread.h"

uint64_t hg_worker_ticks(const struct hg_worker *w, uint64_t ns)
{
	return (uint64_t)((double)ns * w->cal->hz / 1e9);
}

uint64_t hg_worker_tick_at(const struct hg_worker *w, int64_t mono_ns)
{
	double d = (double)(mono_ns - w->ref_ns) * w->cal->hz / 1e9;
	if (d < 0 && -d > (double)w->ref_tick)
		return 0;
	return (uint64_t)((double)w->ref_tick + d);
}

int64_t hg_worker_rel_ns(const struct hg_worker *w, int64_t mono_ns)
{
	return mono_ns - w->sync->t0_ns;
}

void hg_worker_publish(struct hg_worker *w)
{
	atomic_store_explicit(&w->pub.releases, w->st.releases, memory_order_relaxed);
	atomic_store_explicit(&w->pub.hits, w->st.deadlines_hit, memory_order_relaxed);
	atomic_store_explicit(&w->pub.misses, w->st.deadlines_missed, memory_order_relaxed);
}

enum hg_gap_result hg_worker_run_cpu(struct hg_worker *w, uint64_t cpu_ns)
{
	hg_worker_publish(w);
	uint64_t target = hg_gap_received(&w->gt) + hg_worker_ticks(w, cpu_ns);
	return hg_gap_run_until(&w->gt, target, w->finish_tick, w->stop);
}

/* Ends the open interval before the thread gives up its CPU: one last
 * step first, so a preemption since the last loop iteration is a gap, not
 * CPU received, and the interval ends at the last counter value seen. */
static void close_interval(struct hg_worker *w, enum hg_gap_end why)
{
	hg_gap_step(&w->gt, hg_counter_read());
	hg_gap_close(&w->gt, w->gt.last, why);
}

int hg_worker_sleep_until(struct hg_worker *w, int64_t mono_ns, int64_t *woke_ns)
{
	/* A tick timer wakes on the first tick at or after the release; the
	 * caller still measures against mono_ns, so the tick is lateness. */
	int64_t wake = hg_round_up_ns(mono_ns, w->tick_ns);
	if (wake >= w->finish_abs_ns || hg_worker_stopping(w))
		return 1;
	if (w->spin_timer) {
		enum hg_gap_result r = hg_gap_run_until(&w->gt, UINT64_MAX,
							hg_worker_tick_at(w, wake), w->stop);
		if (woke_ns)
			*woke_ns = hg_now_ns();
		return r == HG_GAP_STOPPED;
	}
	close_interval(w, HG_END_BLOCKED);
	int rc;
	do
		rc = w->plan->timer->sleep_until(w->timer, wake);
	while (rc == -EINTR && !hg_worker_stopping(w));
	if (woke_ns)
		*woke_ns = hg_now_ns();
	hg_gap_open(&w->gt, hg_counter_read());
	return rc == -EINTR || hg_worker_stopping(w);
}

void hg_worker_yield(struct hg_worker *w)
{
	close_interval(w, HG_END_YIELDED);
	sched_yield();
	hg_gap_open(&w->gt, hg_counter_read());
	w->st.yields++;
}

static int fail(struct hg_worker *w, int err, const char *what)
{
	w->setup_err = err;
	snprintf(w->setup_msg, sizeof(w->setup_msg), "%s: %s: %s", w->plan->os_name, what,
		 strerror(-err));
	return err;
}

/* Runs the measuring paths once before time zero: binds lazily resolved
 * symbols (clock_gettime, sched_getcpu) and warms caches, so the first
 * interval does not start with a spurious gap. */
static void warm_up(struct hg_worker *w)
{
	atomic_int never = 0;
	hg_now_ns();
	hg_gap_open(&w->gt, hg_counter_read());
	hg_gap_run_until(&w->gt, UINT64_MAX, hg_counter_read() + hg_worker_ticks(w, 20000),
			 &never);
	w->gt.open = false;
	w->gt.intervals = w->gt.gaps = w->gt.handed = w->gt.closed_ticks = 0;
	hg_ring_reset(&w->gt.ring);   /* the writer has not started yet */
}

static int setup(struct hg_worker *w)
{
	const struct hg_thread_plan *tp = w->plan;
	pthread_setname_np(pthread_self(), tp->os_name);
	/* 1 ns unless timer.slack asks for more (0 would mean the default, 50us);
	 * the kernel gives real-time threads none whatever is set here. */
	unsigned long slack = (unsigned long)hg_timer_slack(tp);
	prctl(PR_SET_TIMERSLACK, slack ? slack : 1UL, 0, 0, 0);
	w->tick_ns = hg_timer_tick(tp);
	w->tid = gettid();
	hg_sched_pin(tp, &w->sched);
	/* buffers after pinning, so first touch places them near the CPU */
	int rc = hg_gap_init(&w->gt, w->trace_records, w->gap_ticks);
	if (rc)
		return fail(w, rc, "cannot allocate the trace buffer");
	w->spin_timer = tp->timer->spins;
	if (tp->workload.ops->blocks && tp->timer->open) {
		rc = tp->timer->open(&w->timer);
		if (rc)
			return fail(w, rc, "cannot open its timer");
	}
	if (tp->workload.ops->prepare) {
		rc = tp->workload.ops->prepare(w);
		if (rc)
			return fail(w, rc, "cannot prepare its workload");
	}
	hg_sched_apply(tp, &w->sched);
	warm_up(w);
	return 0;
}

/* Sleeps until mono_ns; returns false when the run stopped first. */
static bool wait_start(struct hg_worker *w, int64_t mono_ns)
{
	struct timespec ts = hg_ns_to_ts(mono_ns);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (hg_worker_stopping(w))
			return false;
	return !hg_worker_stopping(w);
}

static void measure(struct hg_worker *w)
{
	struct hg_sync *s = w->sync;
	int64_t finish = s->t0_ns + (int64_t)w->plan->finish_ns;
	w->start_abs_ns = s->t0_ns + (int64_t)w->plan->start_ns;
	w->finish_abs_ns = finish < s->end_ns ? finish : s->end_ns;
	if (w->start_abs_ns >= w->finish_abs_ns || !wait_start(w, w->start_abs_ns))
		return;
	w->ref_tick = hg_counter_read();
	w->ref_ns = hg_now_ns();
	w->finish_tick = hg_worker_tick_at(w, w->finish_abs_ns);
	/* Atomic: the streaming writer's checkpoints read them during the run. */
	__atomic_store_n(&w->st.started_ns, hg_worker_rel_ns(w, w->ref_ns), __ATOMIC_RELAXED);
	hg_gap_open(&w->gt, hg_counter_read());
	w->plan->workload.ops->run(w);
	if (w->gt.open)
		hg_gap_step(&w->gt, hg_counter_read()); /* a last gap is still a gap */
	hg_gap_close(&w->gt, w->gt.last, HG_END_FINISHED);
	__atomic_store_n(&w->st.stopped_ns, hg_worker_rel_ns(w, hg_now_ns()), __ATOMIC_RELAXED);
	hg_worker_publish(w);
}

static void pass_gate(struct hg_sync *s)
{
	pthread_mutex_lock(&s->lock);
	s->arrived++;
	pthread_cond_broadcast(&s->cond);
	while (!s->go)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

void *hg_worker_main(void *arg)
{
	struct hg_worker *w = arg;
	w->stop = &w->sync->stop;
	__atomic_store_n(&w->st.started_ns, -1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->st.stopped_ns, -1, __ATOMIC_RELAXED);
	setup(w);
	pass_gate(w->sync);
	if (!w->setup_err && !atomic_load(&w->sync->abort))
		measure(w);
	atomic_store(&w->done, 1);
	return NULL;
}

void hg_worker_cleanup(struct hg_worker *w)
{
	const struct hg_thread_plan *tp = w->plan;
	if (tp->workload.ops->cleanup)
		tp->workload.ops->cleanup(w);
	if (w->timer && tp->timer->close)
		tp->timer->close(w->timer);
	w->timer = NULL;
	hg_gap_free(&w->gt);
	hg_wakeups_free(&w->wk);
}
