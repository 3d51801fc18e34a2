/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Waking sleeping threads when the run stops.  A no-op handler for one
 * real-time signal is installed without SA_RESTART, so a thread sleeping
 * in clock_nanosleep, read() on a timerfd or sigtimedwait() returns EINTR
 * when hg_wake_thread() targets it; the stop path re-sends it every few ms
 * until the thread is done (closing the race with a thread that checked
 * the stop flag just before it went to sleep). */
#ifndef HG_WAKE_H
#define HG_WAKE_H

#include <pthread.h>
#include <signal.h>

/* The signal that wakes sleepers (unblocked in every thread). */
int hg_wake_signal(void);
/* The signal POSIX timers of the `signal` timer deliver (blocked). */
int hg_timer_signal_number(void);
/* The signal the watchdog sends the main thread when the run is over. */
int hg_done_signal(void);
/* The signals that end a run with a result: SIGINT, SIGTERM, SIGHUP (a
 * dropped ssh session) and SIGQUIT.  hg_run blocks them and its main
 * thread takes them (run/signals.h); cli/ and sweep/ keep them blocked
 * until hgrun exits. */
void hg_stop_signals(sigset_t *set);

/* Installs the handler; process-wide, idempotent. Returns 0 or -errno. */
int hg_wake_install(void);
int hg_wake_thread(pthread_t t);

#endif
