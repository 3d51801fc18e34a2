/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Background load generators: one file per load under loads/, each ending
 * in one `const struct hg_load_ops`, listed in HG_LOAD_LIST (loads/registry.h).
 *
 * A load is one or more processes that hgrun forks at the load's start
 * time and kills (by process group) at its stop time; loads/supervisor.c does the
 * forking, priorities, affinity, killing and reaping.  A load only says how
 * many processes it wants and what each one does. */
#ifndef HG_LOAD_H
#define HG_LOAD_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/param.h"

struct hg_load_plan;

#define HG_LOAD_NCOUNTERS 4

/* One load process's statistics, in memory shared with hgrun
 * (MAP_SHARED|MAP_ANONYMOUS, mapped before any fork).  The process adds
 * with relaxed atomics; hgrun reads after the process is gone. */
struct hg_load_slot {
	_Alignas(64) _Atomic uint64_t counters[HG_LOAD_NCOUNTERS];
	_Alignas(64) int sched_error;   /* errno of applying the priority, 0 = granted */
	int nice_error;
	int affinity_error;
	_Atomic int working;            /* set up, about to run the load */
	int64_t working_from;           /* CLOCK_MONOTONIC ns it began (after its stagger) */
	int status_valid;               /* exec: the command's wait status is known
					   (2: it ended by itself before the stop) */
	int status;
	char error[256];                /* why the process gave up, "" if it did not */
	/* exec: its stdout [0] and stderr [1] kept and discarded (output_max),
	 * when the first byte was discarded (CLOCK_MONOTONIC ns, 0 = never), and
	 * descendants killed at the stop for having left the process group */
	uint64_t out_kept[2], out_discarded[2];
	int64_t out_cut_at[2];
	unsigned escaped_killed;
};

/* What a load sees of its run. */
struct hg_load_run {
	const struct hg_load_plan *plan;
	const char *result_dir;     /* its name, for messages */
	int result_dir_fd;          /* the result directory: files are made relative to it */
	unsigned n_procs;       /* processes; prepare may set it (default: workers, 0 -> 1) */
	void *priv;             /* the load's own state, from prepare to cleanup */
};

/* A program a load runs, which a host may lack (docs/loads.md, "Programs
 * a load runs"): `hgrun validate` notes it, a run stops before it measures
 * (exit 4) unless the load is optional, `hgrun list` shows the load as
 * unsupported here (its supported()). */
struct hg_load_tool {
	const char *program;    /* looked up on PATH */
	const char *package;    /* the Debian package that has it */
	/* Whether a load with these parameters runs it.  May be NULL: always. */
	bool (*used)(const void *params);
};

struct hg_load_ops {
	const char *name;
	const char *summary;
	/* The keys it takes besides name, type, start, stop, priority and cpus
	 * (plan/param.h), resolved into plan->params.  A `workers` key is the
	 * number of processes (0: prepare decides; none: one). */
	struct hg_params params;
	/* Rules across its own keys, after every key resolved.  May be NULL. */
	void (*check)(const void *params, struct hg_param_errors *e);
	/* Whether it works on this host; false with the reason in why (for
	 * `hgrun list`).  May be NULL: always. */
	bool (*supported)(char *why, size_t size);
	/* The programs it runs, ended by { NULL }.  May be NULL: none. */
	const struct hg_load_tool *tools;
	/* What it does beyond loading the machine that a user must trust
	 * (docs/security.md): one line into buf ("runs a shell command as
	 * USER: ..."), or false.  May be NULL. */
	bool (*trust_note)(const struct hg_load_plan *p, const char *user, char *buf,
			   size_t size);
	/* Bytes of memory its processes take, for the run's footprint check.
	 * May be NULL (small). */
	uint64_t (*footprint)(const struct hg_load_plan *p);
	/* Processes it may run at once beyond its workers (a fork population),
	 * for the scenario's cap on load processes.  May be NULL: none. */
	uint64_t (*extra_processes)(const struct hg_load_plan *p);
	/* Names of the slot counters ([0] is the load's "op"; NULL = unused). */
	const char *counters[HG_LOAD_NCOUNTERS];
	/* The counters are known only when the load has ended (`ended` sets
	 * them): series.jsonl gets one line for the whole window then, none
	 * before (docs/results.md). */
	bool counts_at_end;
	/* SIGTERM to SIGKILL at its stop; 0: HG_LOADRUN_GRACE_NS. */
	int64_t grace_ns;
	/* In hgrun, before the run and before any fork: create what the
	 * processes share (sockets, temp dirs, files) and set n_procs.
	 * Returns 0 or a negative errno with a message in err.  May be NULL. */
	int (*prepare)(struct hg_load_run *l, char *err, size_t errlen);
	/* In load process `proc` (0..n_procs-1), after its process group,
	 * parent-death signal, priority and affinity are set: works until
	 * killed.  Returns an exit status (after hg_load_fail on errors). */
	int (*run)(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot);
	/* In hgrun, after every process is gone (or after a failed prepare):
	 * close, unlink, free priv.  May be NULL. */
	void (*cleanup)(struct hg_load_run *l);
	/* In hgrun's main thread, once every load has stopped and before
	 * result.json: removes what the load made beside its files (a scratch
	 * directory).  What it could not remove it says in a warning (into
	 * warnings) and returns by its plain name in the result directory, for
	 * result.json's files ("load.NAME.left"); NULL when nothing is left.
	 * May be NULL. */
	const char *(*tidy)(struct hg_load_run *l, json_t *warnings);
	/* In hgrun (the supervisor thread), once every process of the load and
	 * of its groups is gone: reads what the processes left (files) into
	 * process 0's slot counters; false when it could not (they stay
	 * unknown: no series line).  May be NULL. */
	bool (*ended)(struct hg_load_run *l, struct hg_load_slot *slot);
	/* In hgrun, after the stop, from process 0's slot: adds its own keys to
	 * the load's result.json object (`load`, NULL when only warnings are
	 * wanted) and its own warnings.  t0: CLOCK_MONOTONIC ns of time zero.
	 * May be NULL. */
	void (*report)(const struct hg_load_run *l, const struct hg_load_slot *slot, int64_t t0,
		       json_t *load, json_t *warnings);
	/* The files it writes into the result directory, added to result.json's
	 * `files` ({"load.NAME.out": "load-NAME.out"}); from the plan alone, so
	 * that checkpoints name them too.  May be NULL. */
	void (*files)(const struct hg_load_plan *p, json_t *files);
};

static inline void hg_load_add(struct hg_load_slot *s, unsigned counter, uint64_t n)
{
	atomic_fetch_add_explicit(&s->counters[counter], n, memory_order_relaxed);
}

/* In a load process: records why it gives up (first message wins) and
 * returns 1, the exit status to return from run. */
int hg_load_fail(struct hg_load_slot *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The first program of its tools that load lp runs and that is not on PATH
 * here, or NULL. */
const struct hg_load_tool *hg_load_missing_tool(const struct hg_load_plan *lp);

struct hg_plan;
/* Takes out of the plan each optional load whose program is not on PATH
 * here (hg_load_missing_tool), appending a line for result.json's
 * warnings to note ("load 'net' (flood_ping, optional) was left out: ping
 * is not on PATH here (Debian package iputils-ping)").  Returns how many
 * loads that are not optional lack theirs: the run must not start (exit 4,
 * docs/loads.md). */
size_t hg_load_leave_out_missing(struct hg_plan *plan, char *note, size_t size);

#endif
