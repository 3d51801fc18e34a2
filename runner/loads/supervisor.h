/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load supervisor: runs a plan's loads on the run's timeline.
 *
 *   struct hg_loadrun *lr = hg_loadrun_create(plan, dir_fd, result_dir, err, sizeof err);
 *   hg_loadrun_start(lr, t0);           // t0: CLOCK_MONOTONIC ns of the run's zero
 *   ... the run ...
 *   hg_loadrun_stop_all(lr);            // end of run, SIGINT/SIGTERM, failure
 *   json_object_set_new(result, "loads", hg_loadrun_to_json(lr));
 *   hg_loadrun_destroy(lr);
 *
 * Guarantee: no load outlives the run.  Every load process runs in its own
 * process group with PR_SET_PDEATHSIG(SIGKILL) tied to the supervisor thread;
 * stopping sends SIGTERM to the group, SIGKILL after a grace period, and
 * reaps everything.  hgrun becomes a child subreaper while loads exist, so
 * processes that leave their group (setsid, setpgid) are reparented to it
 * when their parent dies, and hg_loadrun_stop_all kills and reaps every
 * child process of hgrun that is still there: hgrun must start no other
 * child processes of its own between create and stop_all (the runner uses
 * threads only), and must not set SIGCHLD to SIG_IGN.
 *
 * Not async-signal-safe: a signal handler sets a flag, the runner's control
 * thread calls hg_loadrun_stop_all. */
#ifndef HG_SUPERVISOR_H
#define HG_SUPERVISOR_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/load.h"
#include "loads/supervisor_json.h"
#include "plan/plan.h"

struct hg_loadrun;

#define HG_LOADRUN_GRACE_NS 500000000LL    /* SIGTERM -> SIGKILL */
#define HG_LOADRUN_RT_PRIORITY 1            /* the supervisor thread: SCHED_FIFO 1, or one
					       above the run's highest FIFO/RR priority */

/* Before the run, before the runner pins or raises its own threads (the
 * CPUs the caller may use are "all CPUs" for loads without `cpus`): prepares
 * every load (shared statistics, listening sockets, temp dirs, output files
 * in the result directory: dir_fd, borrowed until hg_loadrun_destroy,
 * result_dir its name for messages).  Returns NULL with a message in err on
 * failure.  A plan without loads gives a valid, empty supervisor. */
struct hg_loadrun *hg_loadrun_create(const struct hg_plan *plan, int dir_fd,
				     const char *result_dir, char *err, size_t errlen);

/* Starts the supervisor thread "hg-loads", which starts each load at
 * t0 + start and stops it at t0 + stop.  It inherits the caller's
 * scheduling, raised to SCHED_FIFO HG_LOADRUN_RT_PRIORITY when that is not
 * real-time (where permitted), so that SCHED_OTHER loads cannot delay it;
 * start it from a higher real-time thread if real-time loads must not
 * either.  Load processes never inherit it.  Returns 0 or a negative errno. */
int hg_loadrun_start(struct hg_loadrun *lr, int64_t t0_monotonic_ns);

/* hgrun was stopped (SIGSTOP) and continued during the run: a load that
 * started or stopped late was late for that, not for want of a CPU. */
void hg_loadrun_note_stopped(struct hg_loadrun *lr);

/* Stops every load still running (SIGTERM, grace, SIGKILL), reaps them,
 * kills stray descendants, joins the thread.  Idempotent.  Returns within
 * about the grace period plus the time the kernel takes to kill. */
void hg_loadrun_stop_all(struct hg_loadrun *lr);

/* While the loads run (from any thread): load i's slot counters summed
 * over its processes so far (plan/load.h names them).  False (and zeros)
 * when unknown: not started, or a counts_at_end load not yet ended. */
bool hg_loadrun_sample(const struct hg_loadrun *lr, size_t i,
		       uint64_t counters[HG_LOAD_NCOUNTERS]);

/* Load i's window as it ran: from its first process's start to its stop
 * (SIGTERM, or its end if it ended by itself), ns from t0; false when it
 * has not run.  From the supervisor thread's records: call after the load
 * is done (hg_loadrun_sample returned true for a counts_at_end load). */
bool hg_loadrun_window(const struct hg_loadrun *lr, size_t i, int64_t *from_ns, int64_t *to_ns);

/* Stops everything if not yet done, runs each load's cleanup (temp files),
 * frees. NULL is fine. */
void hg_loadrun_destroy(struct hg_loadrun *lr);

#endif
