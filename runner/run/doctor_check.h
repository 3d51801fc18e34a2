/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the checks of `hgrun doctor` share (run/doctor.h): what a scenario
 * uses, a check and its severity, filling a check,
 * reading small files of /proc and /sys, and the checks themselves, each in
 * run/doctor_cpu.c or run/doctor_kernel.c, listed in run/doctor.c. */
#ifndef HG_DOCTOR_CHECK_H
#define HG_DOCTOR_CHECK_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"

enum hg_doctor_severity { HG_DOC_OK, HG_DOC_INFO, HG_DOC_WARN, HG_DOC_BAD };

/* What a scenario uses, to weigh each finding; all false without one. */
struct hg_doctor_use {
	bool given;               /* a scenario was given */
	const char *name;         /* its name */
	bool rt;                  /* a FIFO/RR thread or a reservation */
	bool latency;             /* a thread records wake-ups (latency workload) */
	bool sleeps;              /* a thread sleeps on a kernel timer */
	bool spins;               /* a thread never sleeps (it measures gaps while spinning) */
	const char *throttled;    /* a FIFO/RR thread RT throttling would stop (os name), NULL */
	const char *slack_thread; /* a SCHED_OTHER sleeper given a timer.slack, NULL */
	uint64_t slack_ns;        /* its slack */
	bool lock_memory;         /* lock_memory: true */
	bool pmqos;               /* cpu_dma_latency held */
	bool all_cpus;            /* some thread may run on every CPU */
	cpu_set_t cpus;           /* the CPUs its threads may run on (every online one: none given) */
	size_t n_loads;
};

#define HG_DOCTOR_VALUE 256
#define HG_DOCTOR_TEXT 768

struct hg_doctor_check {
	const char *id;           /* rt_throttling, preemption, ... (docs/doctor.md) */
	const char *title;
	enum hg_doctor_severity severity;
	char value[HG_DOCTOR_VALUE];  /* what this machine has */
	char why[HG_DOCTOR_TEXT];     /* why it matters, for this scenario when one is given */
	char fix[HG_DOCTOR_TEXT];     /* how to change it ("" when nothing to change) */
};

/* What `plan` (NULL: none) uses. */
void hg_doctor_use_of(const struct hg_plan *plan, struct hg_doctor_use *u);

/* The first FIFO/RR thread of `plan` that may run longer than RT throttling
 * allows (`share` of each second): one that never sleeps, spins on its
 * timer, or whose periodic load is above the share.  NULL when none can. */
const struct hg_thread_plan *hg_doctor_throttled(const struct hg_plan *plan, double share);


/* Sets the severity and the value, why and fix texts (printf formats; a
 * NULL format leaves that text as it is). */
void hg_doctor_say(struct hg_doctor_check *c, enum hg_doctor_severity s, const char *value, ...)
	__attribute__((format(printf, 3, 4)));
void hg_doctor_why(struct hg_doctor_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void hg_doctor_fix(struct hg_doctor_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The first line of a file into buf; false when it cannot be read. */
bool hg_doctor_line(const char *path, char *buf, size_t size);
/* A whole number from the first line of a file; false when there is none. */
bool hg_doctor_number(const char *path, long long *v);
/* The first CPU of the scenario's set (or 0), for per-CPU files. */
int hg_doctor_first_cpu(const struct hg_doctor_use *u);
/* "the scenario's" when one is given, else "a scenario's". */
const char *hg_doctor_whose(const struct hg_doctor_use *u);

typedef void hg_doctor_fn(const struct hg_doctor_use *u, struct hg_doctor_check *c);

/* run/doctor_cpu.c */
hg_doctor_fn hg_doctor_governor, hg_doctor_boost, hg_doctor_cpuidle, hg_doctor_smt,
	hg_doctor_isolation, hg_doctor_irqs, hg_doctor_clocksource, hg_doctor_tsc,
	hg_doctor_virtual;
/* run/doctor_kernel.c */
hg_doctor_fn hg_doctor_rt_throttling, hg_doctor_preemption, hg_doctor_timer_slack,
	hg_doctor_thp, hg_doctor_swap, hg_doctor_mlock;

#endif
