/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel events as hgrun keeps them: decoded from the binary pages of a
 * tracefs instance's per_cpu/cpuN/trace_pipe_raw, with the layout of each
 * event read from its events/<system>/<event>/format file.  Pure functions
 * over bytes and text: no file access here (ktrace/ktrace.c reads the files). */
#ifndef HG_KTRACE_PARSE_H
#define HG_KTRACE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hg_kev_kind {
	HG_KEV_SWITCH,          /* a: prev_pid, b: next_pid, flags: HG_KEV_RUNNABLE */
	HG_KEV_WAKEUP,          /* a: pid, b: target_cpu */
	/* the interrupts: b is the task they interrupted (common_pid) when
	 * flags has HG_KEV_PID */
	HG_KEV_IRQ_ENTRY,       /* a: irq (its name goes to the name table) */
	HG_KEV_IRQ_EXIT,        /* a: irq */
	HG_KEV_SOFTIRQ_ENTRY,   /* a: vec (0 HI .. 9 RCU) */
	HG_KEV_SOFTIRQ_EXIT,
	HG_KEV_VEC_ENTRY,       /* a: vector, sub: enum hg_kvec */
	HG_KEV_VEC_EXIT,
	/* the timers and the start of a wake-up (docs/kernel-trace.md, "Late
	 * wake-ups"); b is not a task for these */
	HG_KEV_WAKING,          /* a: pid, b: target_cpu (sched_waking: the wake-up begins) */
	HG_KEV_HRT_START,       /* sub: the hrtimer (low 32 bits of its address); a: its
				   softexpires - ts, b: expires - softexpires (ns, both clamped
				   to int32: HG_KEV_CLAMPED) */
	HG_KEV_HRT_EXPIRE,      /* sub: the hrtimer; a: the handler's `now` - ts */
	HG_KEV_HRT_EXPIRE_EXIT, /* sub: the hrtimer */
	HG_KEV_N
};

/* The interrupt kinds, whose b names the task they interrupted. */
static inline int hg_kev_is_interrupt(unsigned kind)
{
	return kind >= HG_KEV_IRQ_ENTRY && kind <= HG_KEV_VEC_EXIT;
}

/* The x86 interrupt vectors traced (irq_vectors/<name>_entry/_exit). */
enum hg_kvec {
	HG_KVEC_LOCAL_TIMER, HG_KVEC_RESCHEDULE, HG_KVEC_CALL_FUNCTION,
	HG_KVEC_CALL_FUNCTION_SINGLE, HG_KVEC_IRQ_WORK, HG_KVEC_N
};

#define HG_KEV_RUNNABLE 1       /* sched_switch: prev_state R (involuntary) */
#define HG_KEV_PID 2            /* an interrupt's b is the task it interrupted */
#define HG_KEV_CLAMPED 4        /* hrtimer_start: a or b did not fit in int32 */

struct hg_kevent {
	int64_t ts;             /* ns on the instance's clock (mono: CLOCK_MONOTONIC) */
	int32_t a, b;
	uint16_t cpu;
	uint8_t kind;           /* enum hg_kev_kind */
	uint8_t flags;
	uint32_t sub;
};

/* One traced event type: its id and the offsets of the fields hgrun reads
 * (-1 when absent). */
struct hg_kformat {
	int id;
	uint8_t kind, sub;
	int off[4], size[4];
	int next_comm_off;      /* sched_switch only: offset of next_comm */
	int pid_off;            /* common_pid, -1 when the format has none */
};

/* The event names hgrun enables, "system/event", in a table the reader
 * walks: kind, sub, and the fields to read (in the order of off[]). */
struct hg_kevent_spec {
	const char *path;
	uint8_t kind, sub;
	const char *fields[4];
	bool wakeups;           /* only for the late wake-ups of latency threads */
};
extern const struct hg_kevent_spec hg_kevent_specs[];
extern const size_t hg_n_kevent_specs;

/* Fills f from the text of a format file for the spec.  Returns 0, or -1
 * when the ID or a required field is missing. */
int hg_kformat_parse(const char *text, const struct hg_kevent_spec *spec, struct hg_kformat *f);

/* Names seen in the events: the last comm of each pid, the name of each
 * irq (open addressing; pids beyond the table are counted, not kept).  A
 * comm is at most 15 characters; a threaded handler's may be made whole
 * (hg_knames_full_irq_threads), hence the room. */
#define HG_KNAMES_TASKS 8192
#define HG_KNAMES_IRQS 256
#define HG_KNAME_LEN 40
struct hg_knames {
	struct { int32_t pid; char comm[HG_KNAME_LEN]; } task[HG_KNAMES_TASKS];
	char irq[HG_KNAMES_IRQS][24];
	uint64_t tasks_not_kept;
};
void hg_knames_init(struct hg_knames *n);
const char *hg_knames_task(const struct hg_knames *n, int32_t pid);  /* NULL if unknown */
const char *hg_knames_irq(const struct hg_knames *n, int32_t irq);   /* NULL if unknown */
void hg_knames_set_task(struct hg_knames *n, int32_t pid, const char *comm, size_t len);
void hg_knames_set_irq(struct hg_knames *n, int32_t irq, const char *name, size_t len);
/* Threaded interrupt handlers are named "irq/N-<action>" by the kernel,
 * cut to 15 characters ("irq/28-virtio1-"); where irq N's name is known
 * (irq_handler_entry) and begins with what is left, the whole name is put
 * back ("irq/28-virtio1-requests"; "irq/N-s-" of a secondary thread too).
 * Returns how many were renamed. */
size_t hg_knames_full_irq_threads(struct hg_knames *n);

/* Receives each decoded event; returns 0 to go on. */
typedef int (*hg_kevent_fn)(void *ctx, const struct hg_kevent *ev);

struct hg_kdecoder {
	const struct hg_kformat *formats;
	size_t n_formats;
	struct hg_knames *names;   /* may be NULL */
	hg_kevent_fn emit;
	void *ctx;
	uint64_t unknown;          /* records of types not in formats */
	uint64_t malformed;        /* pages or records that did not fit */
	uint64_t missed;           /* pages flagged: the kernel lost events before them */
};

/* Decodes one ring-buffer page (header: u64 timestamp, u64 commit; then
 * the compressed event headers of events/header_event).  Returns the number
 * of events emitted. */
size_t hg_kpage_decode(struct hg_kdecoder *d, const unsigned char *page, size_t len, int cpu);

#endif
