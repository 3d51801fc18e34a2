/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run's signals, taken by its main thread: SIGINT/SIGTERM/SIGHUP/SIGQUIT
 * (run/wake.h's stop signals; each ends the run with a result),
 * SIGUSR1 (a status line), SIGTSTP/SIGTTIN/SIGTTOU (refused: a stopped hgrun
 * would leave its loads running and its threads unmeasured), SIGCONT (after
 * a SIGSTOP nobody can refuse), SIGXCPU and the done signal are blocked in
 * every thread and taken by main with sigtimedwait; the timer signal is
 * blocked (the signal timer waits for it); the wake signal has a no-op
 * handler.  SIGPIPE is ignored by main() (cli/main.c): a closed stdout costs
 * the summary, not the run. */
#ifndef HG_SIGNALS_H
#define HG_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

struct hg_run_state;

/* From the very start of hg_run: blocks every signal above in the calling
 * thread (threads it starts inherit the mask) and installs the wake
 * handler; *waited is what hg_run_wait_end takes, *old the mask to restore. */
void hg_run_block_signals(sigset_t *waited, sigset_t *old);
/* Main waits for the watchdog's done signal; a stop signal ends the run
 * early, SIGXCPU (RLIMIT_RTTIME soft limit) too; SIGUSR1 prints a status
 * line; SIGTSTP/SIGTTIN/SIGTTOU are refused. */
void hg_run_wait_end(struct hg_run_state *rs, const sigset_t *waited);
/* After the measuring: a stop signal that arrived since (they stay
 * blocked) ends what is left.  Takes it, records it (signal, complete
 * false, a warning naming `stage`, "during kernel attribution") and
 * returns true; false when none is pending.  Main thread only. */
bool hg_run_take_signal(struct hg_run_state *rs, const char *stage);
/* Consumes the run's own signals still pending once it is over. */
void hg_run_drain_signals(void);

#endif
