/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The main thread's signals during a run (run/signals.h). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/timeutil.h"
#include "loads/supervisor.h"
#include "run/runstate.h"
#include "run/signals.h"
#include "run/wake.h"

void hg_run_block_signals(sigset_t *waited, sigset_t *old)
{
	hg_stop_signals(waited);
	sigaddset(waited, SIGUSR1);
	sigaddset(waited, SIGTSTP);
	sigaddset(waited, SIGTTIN);
	sigaddset(waited, SIGTTOU);
	sigaddset(waited, SIGCONT);
	sigaddset(waited, SIGXCPU);
	sigaddset(waited, hg_done_signal());
	sigset_t all = *waited;
	sigaddset(&all, hg_timer_signal_number());
	pthread_sigmask(SIG_BLOCK, &all, old);
	hg_wake_install();
}

bool hg_run_take_signal(struct hg_run_state *rs, const char *stage)
{
	sigset_t stops;
	struct timespec now = { 0, 0 };
	hg_stop_signals(&stops);
	int sig = sigtimedwait(&stops, NULL, &now);
	if (sig <= 0)
		return false;
	if (!rs->signal)
		rs->signal = sig;
	hg_run_warn(rs, "SIG%s arrived after the measuring ended, %s: the measurements are "
		    "whole, what hgrun had left to do there was cut short", sigabbrev_np(sig),
		    stage);
	rs->complete = false;
	rs->cut_short = true;
	return true;
}

/* Ctrl-Z (and a background read or write of the terminal): refused, said
 * once on stderr and recorded, since stopping hgrun would stop neither its
 * loads (their own process groups) nor the clock its threads measure. */
static void refuse_stop(struct hg_run_state *rs, int sig)
{
	if (rs->stop_refused++)
		return;
	FILE *err = rs->opt->err ? rs->opt->err : stderr;
	double at = (double)(hg_now_ns() - rs->sync->t0_ns) / 1e9;
	fprintf(err, "\nhgrun: SIG%s at %.1f s refused: a run does not stop (its loads would run "
		"on); Ctrl-C ends it and keeps a partial result\n", sigabbrev_np(sig), at);
	fflush(err);
	hg_run_warn(rs, "SIG%s at %.1f s was refused (docs/cli.md): the run went on", sigabbrev_np(sig),
		    at);
}

/* A SIGSTOP nobody can refuse: said when its SIGCONT comes. */
static void note_continued(struct hg_run_state *rs)
{
	hg_run_warn(rs, "hgrun was stopped (SIGSTOP) and continued before %.1f s: its threads "
		    "were not measured while it was stopped and its loads ran on; gaps around then "
		    "are the stop's", (double)(hg_now_ns() - rs->sync->t0_ns) / 1e9);
	hg_loadrun_note_stopped(rs->loads);
}

/* A SIGCONT already pending, taken without waiting; else 0. */
static int take_pending_cont(void)
{
	sigset_t cont;
	struct timespec now = { 0, 0 };
	sigemptyset(&cont);
	sigaddset(&cont, SIGCONT);
	return sigtimedwait(&cont, NULL, &now);
}

/* Main waits for the watchdog's done signal; SIGINT/SIGTERM stop the run
 * early, SIGXCPU (RLIMIT_RTTIME soft limit) too.  Every signal wakes it at
 * once; the timeout only re-pokes a watchdog that may have missed the
 * first poke (every 100 ms once the run is stopping) and gives up on one
 * that never answers (each second before: a wake-up on some CPU, a
 * measured one when the plan uses them all). */
void hg_run_wait_end(struct hg_run_state *rs, const sigset_t *waited)
{
	int64_t give_up = rs->wd.hard_ns + HG_NS_PER_SEC;
	sigset_t stops;
	hg_stop_signals(&stops);
	for (;;) {
		bool stopping = atomic_load(&rs->sync->stop);
		struct timespec tmo = { stopping ? 0 : 1, stopping ? 100000000 : 0 };
		int sig = sigtimedwait(waited, NULL, &tmo);
		/* The signal first, then the end: a SIGSTOP across the run's end
		 * continues hgrun with its SIGCONT and the watchdog's done signal
		 * both pending, in either order. */
		if (sig == hg_done_signal() || atomic_load(&rs->wd.finished)) {
			if (sig == SIGCONT || (sig = take_pending_cont()) == SIGCONT)
				note_continued(rs);
			return;
		}
		if (sig > 0 && sigismember(&stops, sig) == 1) {
			if (!rs->signal)
				rs->signal = sig;
			hg_watchdog_poke(&rs->wd);
		} else if (sig == SIGUSR1) {
			FILE *err = rs->opt->err ? rs->opt->err : stderr;
			fprintf(err, "hgrun: %s: %.1f s of %.1f s, results in %s\n", rs->plan->name,
				(double)(hg_now_ns() - rs->sync->t0_ns) / 1e9,
				(double)rs->plan->duration_ns / 1e9, rs->dir);
			fflush(err);
		} else if (sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
			refuse_stop(rs, sig);
		} else if (sig == SIGCONT) {
			note_continued(rs);
		} else if (sig == SIGXCPU) {
			hg_run_warn(rs, "RLIMIT_RTTIME soft limit reached: a real-time thread ran "
				    "too long without blocking; the run was stopped");
			rs->complete = false;
			hg_watchdog_poke(&rs->wd);
		} else if (atomic_load(&rs->sync->stop)) {
			hg_watchdog_poke(&rs->wd); /* in case the first poke raced */
		}
		if (hg_now_ns() > give_up)
			return;
	}
}

/* The run's own signals still pending once it is over (the watchdog's
 * "done" after a Ctrl-C ended the wait, a late SIGXCPU) are consumed here:
 * unblocked, their default action would kill the process (a sweep, or the
 * exit code 130 of an interrupted run). */
void hg_run_drain_signals(void)
{
	sigset_t own;
	struct timespec now = { 0, 0 };
	sigemptyset(&own);
	sigaddset(&own, hg_done_signal());
	sigaddset(&own, hg_timer_signal_number());
	sigaddset(&own, SIGXCPU);
	sigaddset(&own, SIGUSR1);        /* a status request that came too late */
	while (sigtimedwait(&own, NULL, &now) > 0)
		;
}
