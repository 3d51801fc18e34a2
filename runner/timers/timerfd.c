/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Timer 'timerfd': a timerfd on CLOCK_MONOTONIC, armed at each absolute release */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "base/timeutil.h"
#include "plan/timer.h"
#include "timers/common.h"

struct hg_timer { int fd; };

static int timerfd_open(struct hg_timer **t)
{
	struct hg_timer *tm = calloc(1, sizeof(*tm));
	if (!tm)
		return -ENOMEM;
	tm->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (tm->fd < 0) {
		int e = errno;
		free(tm);
		return -e;
	}
	*t = tm;
	return 0;
}

static bool timerfd_supported(char *why, size_t size)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (fd < 0) {
		snprintf(why, size, "timerfd_create: %s", strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

static int timerfd_sleep_until(struct hg_timer *t, int64_t deadline_ns)
{
	struct itimerspec its = {
		.it_interval = { 0, 0 },
		.it_value = hg_ns_to_ts(deadline_ns),
	};
	if (deadline_ns <= 0)
		return 0;
	if (timerfd_settime(t->fd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		return -errno;
	uint64_t expirations;
	ssize_t n = read(t->fd, &expirations, sizeof(expirations));
	if (n < 0)
		return -errno;
	return 0;
}

static void timerfd_close(struct hg_timer *t)
{
	if (!t)
		return;
	close(t->fd);
	free(t);
}

const struct hg_timer_ops hg_timer_timerfd = {
	.name = "timerfd",
	.summary = "a timerfd on CLOCK_MONOTONIC, armed at each absolute release",
	.params = HG_TIMER_TICK,
	.check = hg_timer_check,
	.supported = timerfd_supported,
	.open = timerfd_open,
	.sleep_until = timerfd_sleep_until,
	.close = timerfd_close,
};
