/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why each gap happened (docs/kernel-trace.md): the kernel's events of a
 * run turned into per-CPU segments of one context each (a task, an IRQ, a
 * softirq, the local timer, an IPI), then each gap of a measuring thread
 * matched against the segments of its CPU.  Pure functions over arrays:
 * no files, no result state (ktrace/kernel_json.c feeds them). */
#ifndef HG_ATTRIBUTION_H
#define HG_ATTRIBUTION_H

#include <stddef.h>
#include <stdint.h>

#include "ktrace/ktrace_parse.h"

/* Gap cause codes: the `cause` of trace.bin records and the index into
 * result.json kernel_trace.causes (names in hg_cause_names). */
enum hg_cause {
	HG_CAUSE_UNATTRIBUTED,   /* no kernel trace covers the gap */
	HG_CAUSE_INVISIBLE,      /* the kernel saw the thread itself: hypervisor, SMI */
	HG_CAUSE_THREAD,         /* another thread of the scenario */
	HG_CAUSE_HGRUN,          /* hgrun's own helper threads (main, watchdog, loads, reader) */
	HG_CAUSE_LOAD,           /* a load process of the scenario */
	HG_CAUSE_PROCESS,        /* any other process */
	HG_CAUSE_KTHREAD,        /* a kernel thread */
	HG_CAUSE_IDLE,           /* the CPU idled: the thread was elsewhere (migrated) */
	HG_CAUSE_IRQ,
	HG_CAUSE_SOFTIRQ,
	HG_CAUSE_TIMER,          /* the local timer interrupt */
	HG_CAUSE_IPI,            /* reschedule, call-function, irq-work vectors */
	HG_CAUSE_IRQ_THREAD,     /* a kernel thread serving interrupts: irq/N-name, ktimers/N,
				    rcuc/N, ksoftirqd/N (every interrupt's on PREEMPT_RT) */
	HG_CAUSE_BLOCKED,        /* the thread itself blocked (left the CPU not runnable: I/O,
				    a page fault, a lock) until it was woken */
	HG_CAUSE_N
};
extern const char *const hg_cause_names[HG_CAUSE_N];

enum hg_seg_kind { HG_SEG_TASK, HG_SEG_IRQ, HG_SEG_SOFTIRQ, HG_SEG_TIMER, HG_SEG_IPI };
#define HG_SEG_PREEMPTED 1   /* a task segment that ended with a switch-out while runnable */
/* A task segment after the last event that showed the task running, when a
 * later interrupt found another task running: the kernel recorded the
 * switch to this task but not the switch away from it (docs/kernel-trace.md). */
#define HG_SEG_UNCONFIRMED 2
/* A task segment that ended with a switch-out while not runnable (prev_state
 * S, D, ...): the task blocked, nobody took the CPU from it. */
#define HG_SEG_BLOCKED 4

/* [start, end) of one CPU spent in one context. */
struct hg_kseg {
	int64_t start, end;      /* ns, on the events' clock minus the caller's offset */
	int32_t id;              /* task: pid (0 idle, -1 unknown); irq; softirq vec; vector */
	uint16_t cpu;
	uint8_t kind;            /* enum hg_seg_kind */
	uint8_t flags;
};

/* [lo, hi) of the segments of one CPU in segments sorted by (cpu, start). */
static inline void hg_kseg_cpu_range(const struct hg_kseg *s, size_t n, int cpu, size_t *lo,
				     size_t *hi)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (s[mid].cpu < cpu) a = mid + 1; else b = mid;
	}
	*lo = a;
	b = n;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (s[mid].cpu <= cpu) a = mid + 1; else b = mid;
	}
	*hi = a;
}

/* The first segment of [lo, hi) whose end is after t (segments of one CPU). */
static inline size_t hg_kseg_first_ending_after(const struct hg_kseg *s, size_t lo, size_t hi,
						int64_t t)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* What the building found: switches the kernel did not record (an
 * interrupt's task, HG_KEV_PID, was not the one switched to last). */
struct hg_kseg_stats {
	uint64_t missed_switches;
};

/* Segments of events sorted by (cpu, ts), times minus offset_ns; sorted by
 * (cpu, start), contiguous per CPU from its first event to its last.
 * Returns the count (malloc'ed *out), or -1 when out of memory; stats may
 * be NULL. */
long hg_kseg_build(const struct hg_kevent *ev, size_t n, int64_t offset_ns,
		   struct hg_kseg **out, struct hg_kseg_stats *stats);

/* A wake-up of a task (sched_waking or sched_wakeup), sorted by (pid, ts). */
struct hg_kwake {
	int64_t ts;              /* on the segments' timeline */
	int32_t pid;
};

/* The first wake-up of pid at or after t in wakes sorted by (pid, ts), or
 * INT64_MAX when none was recorded. */
int64_t hg_kwake_after(const struct hg_kwake *wakes, size_t n, int32_t pid, int64_t t);

/* A measuring thread's interval (from its gap trace) on a CPU: it ran. */
struct hg_ran {
	int64_t start, end;
	int32_t tid;
	int16_t cpu;
};

/* Unconfirmed task segments give way to the measuring threads' intervals
 * that overlap them on their CPU (those threads ran then, whatever the
 * kernel's last recorded switch said): the overlapping parts become task
 * segments of the thread.  ran sorted by (cpu, start).  Replaces *segs
 * (same order and contiguity); returns the new count, or -1 (out of
 * memory, *segs unchanged).  *unconfirmed_ns: what is left unconfirmed. */
long hg_kseg_confirm(struct hg_kseg **segs, size_t n, const struct hg_ran *ran, size_t n_ran,
		     int64_t *unconfirmed_ns);

/* A gap: the time between two intervals of one thread, seen from the CPU
 * of the interval it ended. */
struct hg_gap {
	int64_t start, end;      /* ns, same timeline as the segments */
	int32_t tid;
	int16_t cpu;
	uint32_t thread;         /* index of the thread (instance) */
};

/* An interrupt (irq, local timer, IPI) whose first event comes after the
 * gap's start, with nothing else before it in the gap, also has the time
 * from the gap's start to that event, up to this bound: its entry (in a
 * virtual machine the hypervisor delivers it, and acknowledges it, before
 * the kernel's first event: 8-13 us on the guest of docs/kernel-trace.md). */
#define HG_ENTRY_MAX_NS 20000

/* Per gap: the dominant cause (the most time in the gap), who (pid, irq,
 * vec or vector of its largest part), how many causes had time in it, the
 * time the kernel explains (everything but invisible), and how much of it
 * is the entry of the interrupt that opened the gap. */
struct hg_gap_attr {
	uint8_t cause, n_causes;
	int32_t who;
	int64_t explained_ns;
	int64_t entry_ns;
};

/* One (thread, cause, who) with its total time in gaps, the gaps it had
 * time in, and those where it dominated. */
struct hg_attr_item {
	uint32_t thread;
	uint8_t cause;
	int32_t who;
	int64_t ns;
	uint64_t gaps, dominant;
};

/* Classifies a task of a segment (pid != the gap's own thread) as one of
 * THREAD, HGRUN, LOAD, PROCESS, KTHREAD, IDLE. */
typedef enum hg_cause (*hg_task_class_fn)(void *ctx, int32_t pid);

struct hg_attr_input {
	const struct hg_kseg *segs;
	size_t n_segs;
	const struct hg_gap *gaps;
	size_t n_gaps;
	hg_task_class_fn classify;
	void *ctx;
	/* the wake-ups of the gaps' threads, sorted by (pid, ts); may be
	 * empty: a block then lasts until the thread ran again */
	const struct hg_kwake *wakes;
	size_t n_wakes;
};

/* A gap in which the thread blocked (its own task segment ended with a
 * switch-out while not runnable, HG_SEG_BLOCKED) is BLOCKED from that
 * switch until the thread was woken (or ran again when no wake-up was
 * recorded): whatever ran on the CPU meanwhile did not take it from the
 * thread.  Only what follows the wake-up is the others'.
 *
 * Fills out[n_gaps] and the aggregated items (malloc'ed, sorted by thread,
 * then time, largest first).  Gaps on a CPU without segments covering them
 * are UNATTRIBUTED.  Returns the number of items, or -1 (out of memory). */
long hg_attribute(const struct hg_attr_input *in, struct hg_gap_attr *out,
		  struct hg_attr_item **items);

/* Recall of the gap trace: the kernel's involuntary switch-outs of `tid`
 * (off the CPU for at least min_ns, within [from, to]) and how many of
 * them overlap a gap of that thread (gaps of the thread, sorted by start). */
void hg_switch_recall(const struct hg_kseg *segs, size_t n_segs, int32_t tid, int64_t from,
		      int64_t to, int64_t min_ns, const struct hg_gap *gaps, size_t n_gaps,
		      uint64_t *switch_outs, uint64_t *matched);

#endif
