/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wake signal: a no-op handler without SA_RESTART. */
#include <errno.h>
#include <string.h>

#include "run/wake.h"

int hg_wake_signal(void) { return SIGRTMIN + 1; }
int hg_timer_signal_number(void) { return SIGRTMIN + 2; }
int hg_done_signal(void) { return SIGRTMIN + 3; }

static void on_wake(int sig)
{
	(void)sig;      /* interrupting the sleep is all it is for */
}

int hg_wake_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: sleeping calls return EINTR */
	if (sigaction(hg_wake_signal(), &sa, NULL) < 0)
		return -errno;
	return 0;
}

int hg_wake_thread(pthread_t t)
{
	return -pthread_kill(t, hg_wake_signal());
}

void hg_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);       /* a dropped ssh session */
	sigaddset(set, SIGQUIT);
}
