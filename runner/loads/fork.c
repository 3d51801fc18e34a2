/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load 'fork': the fork stress of the Abeni study (page tables copied in
 * non-preemptible sections, a busier scheduler).  Without population, a
 * fork/exit storm; with population N, the load's processes keep N children
 * alive between them, each sleeping out a short life, and fork a
 * replacement for each one that exits (Abeni's test forked 512 processes). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "loads/rows.h"
#include "plan/load.h"
#include "plan/plan.h"

/* The cap on load processes of scenario/resolve_loads.c: a population
 * alone may not exceed it either. */
#define POPULATION_MAX 4096

struct params {
	uint64_t workers, stagger_ns;
	uint64_t population;    /* 0: a fork/exit storm */
};

static const struct hg_param params[] = {
	HG_LOAD_ROW_WORKERS(struct params, workers),
	HG_LOAD_ROW_STAGGER(struct params, stagger_ns),
	{ .name = "population", .kind = HG_PARAM_UINT, .offset = offsetof(struct params, population),
	  .min = 1, .max = POPULATION_MAX,
	  .help = "children kept alive between the workers (each sleeps 50-150 ms, exits and is "
		  "replaced at once); none: a fork/exit storm" },
	HG_PARAMS_END
};

/* A population child's life: 50..150 ms, 100 ms on average, long enough for
 * hundreds to be alive at once, short enough that the load keeps forking
 * (at most about population * 10 forks/s).  Spread, so that children forked
 * together do not all exit together and leave the population short while
 * their replacements are forked one by one. */
#define CHILD_LIFE_MIN_NS 50000000L
#define CHILD_LIFE_SPREAD_NS 100000000L

static void back_off(void)
{
	struct timespec ts = { 0, 1000000 };
	nanosleep(&ts, NULL);
}

static int storm(struct hg_load_slot *slot)
{
	for (;;) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0 && errno != EAGAIN)
			return hg_load_fail(slot, "fork: %s", strerror(errno));
		if (pid < 0) {          /* process limit: back off a little */
			back_off();
			continue;
		}
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		hg_load_add(slot, 0, 1);
	}
	return 0;
}

/* A child dies with its parent (which dies with hgrun, loads/process.c):
 * a SIGKILLed run leaves no child behind.  It is in the load's process
 * group, so the stop signal reaches it too. */
static void child(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)        /* the parent died before prctl */
		_exit(0);
	uint64_t h = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull;
	struct timespec life = { 0, CHILD_LIFE_MIN_NS + (long)((h >> 32) % CHILD_LIFE_SPREAD_NS) };
	nanosleep(&life, NULL);
	_exit(0);
}

static int population(unsigned n, struct hg_load_slot *slot)
{
	pid_t self = getpid();
	unsigned alive = 0;
	for (;;) {
		while (alive < n) {
			pid_t pid = fork();
			if (pid == 0)
				child(self);
			if (pid < 0 && errno != EAGAIN)
				return hg_load_fail(slot, "fork: %s", strerror(errno));
			if (pid < 0)
				break;          /* process limit: wait for one to exit */
			alive++;
			hg_load_add(slot, 0, 1);
		}
		if (alive == 0) {
			back_off();
			continue;
		}
		pid_t r = waitpid(-1, NULL, 0);
		if (r > 0)
			alive--;
		else if (errno == ECHILD)
			alive = 0;
	}
	return 0;
}

static int fork_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	const struct params *p = l->plan->params;
	unsigned total = (unsigned)p->population, procs = l->n_procs ? l->n_procs : 1;
	if (!total)
		return storm(slot);
	/* the population shared among the workers (population >= workers) */
	return population(total / procs + (proc < total % procs), slot);
}

static uint64_t fork_extra_processes(const struct hg_load_plan *lp)
{
	return ((const struct params *)lp->params)->population;
}

static void fork_check(const void *values, struct hg_param_errors *e)
{
	const struct params *p = values;
	if (p->population && p->workers > p->population)
		hg_param_error(e, "population",
			       "population %llu is shared among %llu workers: give at least one "
			       "child per worker (population >= workers), or fewer workers",
			       (unsigned long long)p->population, (unsigned long long)p->workers);
}

const struct hg_load_ops hg_load_fork = {
	.name = "fork",
	.summary = "a fork/exit storm, or `population` children kept alive",
	.params = { params, sizeof(struct params) },
	.check = fork_check,
	.extra_processes = fork_extra_processes,
	.counters = { "forks" },
	.run = fork_run,
};
