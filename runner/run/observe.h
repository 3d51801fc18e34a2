/* What a run observes beside its own threads (docs/kernel-trace.md): the
 * kernel's events through run/ktrace.h when the plan asks for them, and
 * the competition of run/competition.h always. */
#ifndef HG_OBSERVE_H
#define HG_OBSERVE_H

#include <sched.h>
#include <stdio.h>

struct hg_run_state;

/* The CPUs the scenario's threads may run on (pinned CPUs, affinities;
 * every online CPU when a thread has none). */
void hg_observe_cpus(const struct hg_run_state *rs, cpu_set_t *cpus);

/* Before the result directory and the threads: starts the kernel trace
 * (when asked) and the competition's first snapshot.  Returns 0, or
 * HG_EXIT_PRIVILEGE with a message on err when the trace cannot start under
 * --strict (else a warning). */
int  hg_observe_start(struct hg_run_state *rs, FILE *err);
/* After the threads are joined and the loads stopped: warns when the
 * kernel trace is incomplete.  Called once. */
void hg_observe_stop(struct hg_run_state *rs);
void hg_observe_free(struct hg_run_state *rs);

#endif
