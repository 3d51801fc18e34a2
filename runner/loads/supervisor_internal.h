/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to the load supervisor: supervisor.c (lifecycle, timeline
 * thread), process.c (fork, kill, reap), supervisor_json.c (results). */
#ifndef HG_SUPERVISOR_INTERNAL_H
#define HG_SUPERVISOR_INTERNAL_H

#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "plan/load.h"
#include "plan/plan.h"

/* One process of a load: the leader of its own process group. */
struct hg_lproc {
	pid_t pid;              /* 0: not started */
	int pidfd;              /* readable when it exits; -1 when none */
	bool reaped;
	bool group_gone;        /* no member of its process group is left */
	bool killed;            /* needed SIGKILL */
	int status;             /* wait status, when reaped */
	int64_t started, ended; /* CLOCK_MONOTONIC ns; 0 = not yet */
	struct rusage ru;
	struct hg_load_slot *slot;
};

enum hg_lstate { HG_L_PENDING, HG_L_RUNNING, HG_L_STOPPING, HG_L_DONE };

struct hg_lsup {
	struct hg_load_run run;
	const struct hg_load_ops *ops;
	enum hg_lstate state;
	bool prepared;
	struct hg_lproc *procs;
	int64_t started, term_at, kill_at, stopped;   /* CLOCK_MONOTONIC ns; 0 = not */
	bool sigkill_sent;
	bool ended_early;       /* every process ended before the stop time */
	unsigned stragglers;    /* group members still there at SIGKILL time */
	atomic_bool counted;    /* ops->ended has set the counters (counts_at_end) */
	int64_t late_start_ns, late_stop_ns;   /* started, stopped late by this much (> 5 ms) */
	char left[NAME_MAX + 1];  /* what ops->tidy could not remove, when left_set */
	atomic_bool left_set;
	json_t *warnings;
};

struct hg_loadrun {
	const struct hg_plan *plan;
	char *result_dir;
	int result_dir_fd;              /* borrowed from the run */
	struct hg_lsup *loads;
	size_t n_loads;
	struct hg_load_slot *slots;     /* shared mapping */
	size_t slots_bytes;
	cpu_set_t all_cpus;             /* "cpus: all" */
	int64_t t0;
	int64_t grace_ns;
	pthread_t thread;
	bool thread_running;
	bool stopped;
	int evfd, tfd;                  /* stop request, absolute timer */
	atomic_bool was_stopped;        /* hgrun was SIGSTOPped during the run */
	atomic_bool stop_req;
	bool subreaper_set;
	int prev_subreaper;
	unsigned orphans_killed;
	json_t *warnings;
};

/* process.c */
/* Forks process i of load s; the child never returns.  Returns 0 or -errno. */
int hg_loadproc_spawn(struct hg_loadrun *lr, struct hg_lsup *s, unsigned i);
/* Signals each unreaped process group of s (or whose group still exists). */
void hg_loadproc_signal(struct hg_lsup *s, int sig);
/* Reaps what has exited, without blocking; returns true when every process
 * of s and every member of its groups is gone. */
bool hg_loadproc_reap(struct hg_lsup *s, int64_t now);
/* Kills and reaps children of hgrun that are not load processes (orphans
 * reparented to the subreaper).  Returns how many. */
unsigned hg_loadproc_sweep_orphans(void);

#endif
