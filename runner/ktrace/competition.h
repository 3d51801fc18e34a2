/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Competition from outside the scenario, measured with or without a kernel
 * trace (docs/kernel-trace.md): /proc/stat (steal, irq, softirq time per
 * CPU), /proc/interrupts (interrupts per CPU) and every process's CPU time
 * (/proc/<pid>/stat) at the start and the end of the run. */
#ifndef HG_COMPETITION_H
#define HG_COMPETITION_H

#include <jansson.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct hg_competition;
struct hg_forks;

/* Takes the first snapshot; cpus are the scenario's CPUs.  With `loads`
 * (the scenario has some), also follows hgrun's process tree
 * (ktrace/forks.h) so that what the loads start is known as theirs.  NULL
 * only when out of memory. */
struct hg_competition *hg_competition_begin(const cpu_set_t *cpus, bool loads);
/* Takes the second snapshot (idempotent). */
void hg_competition_end(struct hg_competition *c);
/* hgrun's process tree during the run (ktrace/forks.h), NULL without loads. */
const struct hg_forks *hg_competition_forks(const struct hg_competition *c);
void hg_competition_free(struct hg_competition *c);

/* A process that took CPU time during the run. */
struct hg_outsider {
	pid_t pid;
	char comm[40];           /* a comm, or a threaded handler's whole name (HG_KNAME_LEN) */
	bool kthread;
	uint64_t cpu_ns;
};

/* Processes other than hgrun (and `exclude`, e.g. the loads' pids) whose
 * last CPU at either snapshot is one of the scenario's, with the CPU time
 * they took (all CPUs: /proc/<pid>/stat does not split it), largest first.
 * Returns the count (malloc'ed *out) or -1. */
long hg_competition_outsiders(const struct hg_competition *c, const pid_t *exclude,
			      size_t n_exclude, struct hg_outsider **out);

/* {"window_ns", "cpus": [{cpu, steal_ns, irq_ns, softirq_ns, interrupts,
 * interrupts_per_s}], "steal_ns", "steal_share"}.  New reference. */
json_t *hg_competition_cpus_json(const struct hg_competition *c);
/* Steal time on the scenario's CPUs as a share of their time (0..1). */
double hg_competition_steal_share(const struct hg_competition *c);
int64_t hg_competition_window_ns(const struct hg_competition *c);
int hg_competition_n_cpus(const struct hg_competition *c);

/* Parsers of /proc/stat (per CPU: irq, softirq, steal, in clock ticks)
 * and /proc/interrupts (per CPU: the sum of the rows that have one count
 * per CPU), into arrays of CPU_SETSIZE. */
void hg_proc_stat_parse(FILE *f, uint64_t *steal, uint64_t *irq, uint64_t *softirq);
void hg_proc_interrupts_parse(FILE *f, uint64_t *intr);

#endif
