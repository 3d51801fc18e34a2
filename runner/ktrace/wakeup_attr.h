/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a timer wake-up was late (docs/kernel-trace.md, "Late wake-ups"):
 * the time from the intended wake-up to the thread's return split over
 * what the kernel did on its CPU meanwhile.  Pure functions over the
 * segments of ktrace/attribution.h and the few events of the wake-up
 * (ktrace/kernel_wakeups.c finds them). */
#ifndef HG_WAKEUP_ATTR_H
#define HG_WAKEUP_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktrace/attribution.h"

/* The components of a late wake-up, in the order of the time line. */
enum hg_wcomp {
	HG_WC_PROGRAMMED,    /* the kernel's timer was set later than intended */
	HG_WC_TIMER_DELAY,   /* the timer interrupt's delivery, before its first event */
	HG_WC_TIMER_IRQ,     /* the timer interrupt's handler */
	HG_WC_IRQ,           /* other hardware interrupts */
	HG_WC_SOFTIRQ,
	HG_WC_LOCAL_TIMER,   /* other local timer interrupts (ticks) */
	HG_WC_IPI,
	HG_WC_TASK,          /* another task held the CPU after the wake-up */
	HG_WC_SCHED,         /* the switch to the thread */
	HG_WC_INVISIBLE,     /* nothing the kernel saw: hypervisor, SMI */
	HG_WC_N
};
extern const char *const hg_wcomp_names[HG_WC_N];

/* Whether a part of this component names a task (pid) rather than an
 * interrupt (id). */
static inline bool hg_wcomp_names_task(unsigned comp)
{
	return comp == HG_WC_TIMER_DELAY || comp == HG_WC_TASK || comp == HG_WC_SCHED ||
	       comp == HG_WC_INVISIBLE;
}

/* Delivery of the timer interrupt, before its first event, up to this is
 * timer_delay (the entry rule of attribution.h); beyond it, invisible. */
#define HG_WAKE_DELIVERY_MAX_NS HG_ENTRY_MAX_NS
/* The last stretch of the task the CPU ran before switching to the thread:
 * this much is the scheduler's switch, the rest the task's (it held the
 * CPU: a non-preemptible section, or a higher priority). */
#define HG_WAKE_SWITCH_MAX_NS 10000

/* What the kernel's events say about one wake-up, on the segments'
 * timeline.  Times are valid when their flag is set. */
struct hg_wake_facts {
	int64_t intended, actual;   /* hgrun's: lateness = actual - intended */
	int64_t switched;           /* the last switch to the thread at or before actual */
	int64_t woken;              /* sched_waking (else sched_wakeup) after its last switch-out */
	int64_t expired;            /* hrtimer_expire_entry of the timer that woke it */
	int64_t programmed;         /* that timer's expires (hrtimer_start) */
	int32_t tid;
	int16_t cpu_switched, cpu_woken;
	uint8_t flags;
};
#define HG_WF_SWITCHED 1
#define HG_WF_WOKEN 2
#define HG_WF_EXPIRED 4
#define HG_WF_PROGRAMMED 8

/* One (component, who) of a wake-up; cause is the hg_cause of a task (for
 * naming it), of the interrupt kind otherwise.  An invisible part names
 * the task the CPU was running (idle: 0; the thread itself: invisible). */
struct hg_wake_part {
	int64_t ns;
	int32_t who;                /* pid, irq, softirq vector, vector; -1 none */
	uint8_t comp, cause;
};
#define HG_WAKE_PARTS 6

struct hg_wake_attr {
	bool attributed;            /* the trace covered the wake-up and saw the switch */
	bool awake;                 /* the thread was running at the intended time */
	int64_t comp[HG_WC_N];      /* sum: switched - intended (or actual - intended when awake) */
	int64_t residual_ns;        /* actual - switched less the interrupts between:
				       the thread's own return to user space */
	struct hg_wake_part part[HG_WAKE_PARTS];   /* the largest, largest first */
	size_t n_parts;
};

/* Attributes one wake-up over segs (sorted by (cpu, start)).  Not
 * attributed (zeros) when the switch is unknown or the trace does not
 * cover [intended, actual) on the CPUs involved. */
void hg_wake_attribute(const struct hg_kseg *segs, size_t n_segs,
		       const struct hg_wake_facts *f, hg_task_class_fn classify, void *ctx,
		       struct hg_wake_attr *out);

#endif
