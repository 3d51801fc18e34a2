/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Late wake-ups split over the kernel's segments (runner/ktrace/wakeup_attr.c):
 * the timer's delivery (bounded, the rest invisible and named after the task
 * the CPU ran), its handler, a softirq at its exit, the task that held the
 * CPU and the switch, an interrupt after the switch, a timer programmed
 * late, a thread already running at its intended time, an idle CPU, and a
 * wake-up the trace does not cover. */
#include <string.h>

#include "unit.h"
#include "ktrace/wakeup_attr.h"

#define ME 100
#define OTHER 200
#define US 1000

static enum hg_cause classify(void *ctx, int32_t pid)
{
	(void)ctx;
	return pid == OTHER ? HG_CAUSE_PROCESS : HG_CAUSE_THREAD;
}

static struct hg_kseg seg(int64_t a, int64_t b, uint8_t kind, int32_t id)
{
	return (struct hg_kseg){ a * US, b * US, id, 0, kind, 0 };
}

/* CPU 0: OTHER runs; the timer interrupt comes at 1030 (wakes ME at 1032),
 * RCU softirq 1035-1040, OTHER again until the switch to ME at 1100, an
 * irq 1105-1107 while ME returns; ME reads the clock at 1110. */
static size_t scene(struct hg_kseg *s, int32_t holder)
{
	size_t n = 0;
	s[n++] = seg(0, 1030, HG_SEG_TASK, holder);
	s[n++] = seg(1030, 1035, HG_SEG_TIMER, 236);
	s[n++] = seg(1035, 1040, HG_SEG_SOFTIRQ, 9);
	s[n++] = seg(1040, 1100, HG_SEG_TASK, holder);
	s[n++] = seg(1100, 1105, HG_SEG_TASK, ME);
	s[n++] = seg(1105, 1107, HG_SEG_IRQ, 11);
	s[n++] = seg(1107, 2000, HG_SEG_TASK, ME);
	return n;
}

static struct hg_wake_facts facts(void)
{
	return (struct hg_wake_facts){ .intended = 1000 * US, .actual = 1110 * US,
		.switched = 1100 * US, .woken = 1032 * US, .expired = 1031 * US,
		.programmed = 1000 * US, .tid = ME, .cpu_switched = 0, .cpu_woken = 0,
		.flags = HG_WF_SWITCHED | HG_WF_WOKEN | HG_WF_EXPIRED | HG_WF_PROGRAMMED };
}

static int64_t sum(const struct hg_wake_attr *a)
{
	int64_t t = 0;
	for (int c = 0; c < HG_WC_N; c++)
		t += a->comp[c];
	return t;
}

static void test_held_by_a_task(void)
{
	struct hg_kseg s[8];
	size_t n = scene(s, OTHER);
	struct hg_wake_facts f = facts();
	struct hg_wake_attr a;
	hg_wake_attribute(s, n, &f, classify, NULL, &a);
	CHECK(a.attributed && !a.awake, "attributed");
	CHECK(a.comp[HG_WC_PROGRAMMED] == 0, "programmed on time: %lld",
	      (long long)a.comp[HG_WC_PROGRAMMED]);
	CHECK(a.comp[HG_WC_TIMER_DELAY] == HG_WAKE_DELIVERY_MAX_NS &&
	      a.comp[HG_WC_INVISIBLE] == 30 * US - HG_WAKE_DELIVERY_MAX_NS,
	      "delivery 30 us: bounded, the rest invisible (%lld, %lld)",
	      (long long)a.comp[HG_WC_TIMER_DELAY], (long long)a.comp[HG_WC_INVISIBLE]);
	CHECK(a.comp[HG_WC_TIMER_IRQ] == 5 * US, "the timer's handler, before and after the "
	      "wake-up: %lld", (long long)a.comp[HG_WC_TIMER_IRQ]);
	CHECK(a.comp[HG_WC_SOFTIRQ] == 5 * US, "the softirq at its exit");
	CHECK(a.comp[HG_WC_SCHED] == HG_WAKE_SWITCH_MAX_NS &&
	      a.comp[HG_WC_TASK] == 60 * US - HG_WAKE_SWITCH_MAX_NS,
	      "the holder's last stretch: the switch up to its bound, the rest the task's");
	CHECK(a.comp[HG_WC_IRQ] == 2 * US, "an irq after the switch delays the clock read");
	CHECK(a.residual_ns == 8 * US, "the thread's own return: %lld", (long long)a.residual_ns);
	CHECK(sum(&a) + a.residual_ns == f.actual - f.intended, "the parts sum to the lateness");
	CHECK(a.n_parts >= 1 && a.part[0].comp == HG_WC_TASK && a.part[0].who == OTHER &&
	      a.part[0].cause == HG_CAUSE_PROCESS, "the largest part: the task that held the CPU");
	bool named = false;
	for (size_t i = 0; i < a.n_parts; i++)
		named |= a.part[i].comp == HG_WC_INVISIBLE && a.part[i].who == OTHER;
	CHECK(named, "the invisible part names the task the CPU ran");
}

static void test_programmed_late(void)
{
	struct hg_kseg s[8];
	size_t n = scene(s, OTHER);
	struct hg_wake_facts f = facts();
	f.programmed = 1015 * US;   /* slack, a tick, a relative sleep's own start */
	struct hg_wake_attr a;
	hg_wake_attribute(s, n, &f, classify, NULL, &a);
	CHECK(a.comp[HG_WC_PROGRAMMED] == 15 * US && a.comp[HG_WC_TIMER_DELAY] == 15 * US &&
	      a.comp[HG_WC_INVISIBLE] == 0, "programmed 15 us late: the delivery is 15 us");
	f.programmed = 5000 * US;   /* past the interrupt: cut at its first event */
	hg_wake_attribute(s, n, &f, classify, NULL, &a);
	CHECK(a.comp[HG_WC_PROGRAMMED] == 30 * US && a.comp[HG_WC_TIMER_DELAY] == 0,
	      "programmed no later than the interrupt that fired it");
}

static void test_idle_cpu(void)
{
	struct hg_kseg s[8];
	size_t n = scene(s, 0);
	struct hg_wake_facts f = facts();
	struct hg_wake_attr a;
	hg_wake_attribute(s, n, &f, classify, NULL, &a);
	CHECK(a.comp[HG_WC_TASK] == 0 && a.comp[HG_WC_SCHED] == 60 * US,
	      "an idle CPU: the time to the switch is the scheduler's");
}

static void test_woken_by_a_task(void)
{
	struct hg_kseg s[4];
	size_t n = 0;
	s[n++] = seg(0, 1050, HG_SEG_TASK, OTHER);   /* wakes ME from task context at 1040 */
	s[n++] = seg(1050, 1060, HG_SEG_TASK, 0);
	s[n++] = seg(1060, 2000, HG_SEG_TASK, ME);
	struct hg_wake_facts f = { .intended = 1000 * US, .actual = 1062 * US,
		.switched = 1060 * US, .woken = 1040 * US, .tid = ME,
		.flags = HG_WF_SWITCHED | HG_WF_WOKEN };
	struct hg_wake_attr a;
	hg_wake_attribute(s, n, &f, classify, NULL, &a);
	CHECK(a.attributed && a.comp[HG_WC_TIMER_DELAY] == 0 && a.comp[HG_WC_INVISIBLE] == 0,
	      "no interrupt woke it: no timer part");
	CHECK(a.comp[HG_WC_TASK] == 50 * US, "the task that ran until the wake-up and after it, "
	      "then idled: %lld", (long long)a.comp[HG_WC_TASK]);
	CHECK(a.comp[HG_WC_SCHED] == 10 * US, "the idle time before the switch: %lld",
	      (long long)a.comp[HG_WC_SCHED]);
}

static void test_awake_and_uncovered(void)
{
	struct hg_kseg s[4];
	size_t n = 0;
	s[n++] = seg(0, 900, HG_SEG_TASK, OTHER);
	s[n++] = seg(900, 1002, HG_SEG_TASK, ME);
	s[n++] = seg(1002, 1004, HG_SEG_IRQ, 11);
	s[n++] = seg(1004, 2000, HG_SEG_TASK, ME);
	struct hg_wake_facts f = { .intended = 1000 * US, .actual = 1010 * US,
				   .switched = 900 * US, .tid = ME, .flags = HG_WF_SWITCHED };
	struct hg_wake_attr a;
	hg_wake_attribute(s, n, &f, classify, NULL, &a);
	CHECK(a.attributed && a.awake && a.comp[HG_WC_IRQ] == 2 * US &&
	      a.comp[HG_WC_INVISIBLE] == 0 && a.residual_ns == 8 * US,
	      "running at its intended time: the irq, and its own time as the residual");
	f.actual = 3000 * US;
	hg_wake_attribute(s, n, &f, classify, NULL, &a);
	CHECK(!a.attributed && sum(&a) == 0, "beyond the trace: not attributed");
	f = facts();
	f.flags = 0;
	hg_wake_attribute(s, n, &f, classify, NULL, &a);
	CHECK(!a.attributed, "no switch to the thread: not attributed");
}

int main(void)
{
	test_held_by_a_task();
	test_programmed_late();
	test_idle_cpu();
	test_woken_by_a_task();
	test_awake_and_uncovered();
	return unit_report("test_wakeup_attr");
}
