/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Timer 'signal': a POSIX timer delivering a signal to the thread (Abeni's itimer) */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/timeutil.h"
#include "plan/timer.h"
#include "timers/common.h"
#include "run/wake.h"

/* One POSIX timer per thread, created in the thread (SIGEV_THREAD_ID) and
 * armed one-shot at each absolute deadline; the signal is blocked and taken
 * with sigwaitinfo(), so no handler runs. */
struct hg_timer {
	timer_t id;
	int sig;
	sigset_t set;
};

/* A POSIX timer on CLOCK_MONOTONIC can be created here (no signal sent). */
static bool signal_supported(char *why, size_t size)
{
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	timer_t id;
	if (timer_create(CLOCK_MONOTONIC, &sev, &id) < 0) {
		snprintf(why, size, "timer_create: %s", strerror(errno));
		return false;
	}
	timer_delete(id);
	return true;
}

static int signal_open(struct hg_timer **t)
{
	struct hg_timer *tm = calloc(1, sizeof(*tm));
	if (!tm)
		return -ENOMEM;
	tm->sig = hg_timer_signal_number();
	sigemptyset(&tm->set);
	sigaddset(&tm->set, tm->sig);
	int rc = pthread_sigmask(SIG_BLOCK, &tm->set, NULL);
	if (rc) {
		free(tm);
		return -rc;
	}
	struct sigevent sev;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = tm->sig;
	sev._sigev_un._tid = gettid();
	if (timer_create(CLOCK_MONOTONIC, &sev, &tm->id) < 0) {
		int e = errno;
		free(tm);
		return -e;
	}
	*t = tm;
	return 0;
}

/* Takes expirations left over from a wait the stop path interrupted. */
static void drain(struct hg_timer *t)
{
	struct timespec zero = { 0, 0 };
	while (sigtimedwait(&t->set, NULL, &zero) == t->sig)
		;
}

static int signal_sleep_until(struct hg_timer *t, int64_t deadline_ns)
{
	if (deadline_ns <= 0)
		return 0;
	drain(t);
	struct itimerspec its = {
		.it_interval = { 0, 0 },
		.it_value = hg_ns_to_ts(deadline_ns),
	};
	if (timer_settime(t->id, TIMER_ABSTIME, &its, NULL) < 0)
		return -errno;
	siginfo_t si;
	if (sigwaitinfo(&t->set, &si) < 0)
		return -errno;
	return 0;
}

static void signal_close(struct hg_timer *t)
{
	if (!t)
		return;
	timer_delete(t->id);
	drain(t);
	free(t);
}

const struct hg_timer_ops hg_timer_signal = {
	.name = "signal",
	.summary = "a POSIX timer delivering a signal to the thread (Abeni's itimer)",
	.params = HG_TIMER_TICK,
	.check = hg_timer_check,
	.supported = signal_supported,
	.open = signal_open,
	.sleep_until = signal_sleep_until,
	.close = signal_close,
};
