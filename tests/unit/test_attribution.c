/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Matching gaps to kernel events (runner/ktrace/attribution.c,
 * runner/ktrace/kernel_segments.c): segments from events (nesting, an
 * exit whose entry came before the trace, the first task named by the
 * first switch or interrupt), a gap with two causes, a gap with none
 * (invisible), events on other CPUs, a gap the trace does not cover,
 * interrupts partly inside a gap, the entry of the interrupt that opens a
 * gap, a switch the kernel did not record, and the recall of involuntary
 * switch-outs; a gap in which the thread blocked (prev_state not
 * runnable) is its own, never the task's that ran meanwhile. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "ktrace/attribution.h"

#define ME 100       /* the measuring thread */
#define OTHER 200    /* another process */
#define KWORKER 300

static enum hg_cause classify(void *ctx, int32_t pid)
{
	(void)ctx;
	return pid == KWORKER ? HG_CAUSE_KTHREAD : HG_CAUSE_PROCESS;
}

static struct hg_kevent sw(int64_t ts, int cpu, int prev, int next, bool runnable)
{
	return (struct hg_kevent){ ts, prev, next, (uint16_t)cpu, HG_KEV_SWITCH,
				   runnable ? HG_KEV_RUNNABLE : 0, 0 };
}

static struct hg_kevent ev(int64_t ts, int cpu, uint8_t kind, int a, uint32_t sub)
{
	return (struct hg_kevent){ ts, a, 0, (uint16_t)cpu, kind, 0, sub };
}

/* CPU 0: ME runs from 0 (named by the first switch at 1000), an IRQ
 * 1100-1110 inside a softirq 1050-1290, switch to OTHER at 1300 (ME
 * runnable), kworker at 1340, back to ME at 1342.  CPU 1: a timer 1000-1500 while ME is
 * on CPU 0 (must not count).  Events sorted by (cpu, ts); times in ns. */
static long build(struct hg_kseg **segs)
{
	static struct hg_kevent e[16];
	size_t n = 0;
	const int64_t us = 1000;
	e[n++] = (struct hg_kevent){ 0, OTHER, 1, 0, HG_KEV_WAKEUP, 0, 0 };   /* trace starts */
	e[n++] = ev(500 * us, 0, HG_KEV_VEC_EXIT, 236, HG_KVEC_LOCAL_TIMER);  /* entry before */
	e[n++] = sw(1000 * us, 0, ME, ME, true);        /* names the first task */
	e[n++] = ev(1050 * us, 0, HG_KEV_SOFTIRQ_ENTRY, 3, 0);
	e[n++] = ev(1100 * us, 0, HG_KEV_IRQ_ENTRY, 11, 0);
	e[n++] = ev(1110 * us, 0, HG_KEV_IRQ_EXIT, 11, 0);
	e[n++] = ev(1290 * us, 0, HG_KEV_SOFTIRQ_EXIT, 3, 0);
	e[n++] = sw(1300 * us, 0, ME, OTHER, true);
	e[n++] = sw(1340 * us, 0, OTHER, KWORKER, false);
	e[n++] = sw(1342 * us, 0, KWORKER, ME, false);
	e[n++] = sw(2000 * us, 0, ME, ME, false);
	e[n++] = ev(900 * us, 1, HG_KEV_VEC_ENTRY, 236, HG_KVEC_LOCAL_TIMER);
	e[n++] = ev(1500 * us, 1, HG_KEV_VEC_EXIT, 236, HG_KVEC_LOCAL_TIMER);
	e[n++] = sw(2000 * us, 1, 0, 0, false);
	return hg_kseg_build(e, n, 0, segs, NULL);
}

static void test_segments(const struct hg_kseg *s, long n)
{
	CHECK(n >= 9, "segments %ld", n);
	CHECK(s[0].cpu == 0 && s[0].start == 0 && s[0].end == 500000 &&
	      s[0].kind == HG_SEG_TIMER, "an exit without entry: the time before was the timer");
	CHECK(s[1].kind == HG_SEG_TASK && s[1].id == ME, "first task named by the first switch "
	      "(id %d)", s[1].id);
	bool irq = false, soft_split = false;
	int soft = 0;
	for (long i = 0; i < n; i++) {
		if (s[i].kind == HG_SEG_IRQ && s[i].start == 1100000 && s[i].end == 1110000)
			irq = true;
		if (s[i].kind == HG_SEG_SOFTIRQ)
			soft++;
		if (s[i].kind == HG_SEG_SOFTIRQ && s[i].start == 1110000 && s[i].end == 1290000)
			soft_split = true;
	}
	CHECK(irq && soft == 2 && soft_split, "an irq nested in a softirq splits it");
	for (long i = 1; i < n; i++)
		if (s[i].cpu == s[i - 1].cpu)
			CHECK(s[i].start == s[i - 1].end, "contiguous at %ld", i);
	bool preempted = false;
	for (long i = 0; i < n; i++)
		if (s[i].kind == HG_SEG_TASK && s[i].id == ME && s[i].end == 1300000)
			preempted = (s[i].flags & HG_SEG_PREEMPTED) != 0;
	CHECK(preempted, "the switch-out while runnable is marked");
}

static void test_matching(const struct hg_kseg *s, long n)
{
	const int64_t us = 1000;
	struct hg_gap gaps[] = {
		/* irq 10 us inside the softirq, then OTHER 40 us + kworker 2 us */
		{ 1095 * us, 1345 * us, ME, 0, 0 },
		/* nothing but ME itself: invisible to the kernel */
		{ 1500 * us, 1560 * us, ME, 0, 0 },
		/* the timer of CPU 1 overlaps in time, not in CPU */
		{ 1400 * us, 1450 * us, ME, 0, 1 },
		/* past the end of the trace */
		{ 1990 * us, 2100 * us, ME, 0, 0 },
	};
	struct hg_gap_attr out[4];
	struct hg_attr_item *items = NULL;
	struct hg_attr_input in = { s, (size_t)n, gaps, 4, classify, NULL, NULL, 0 };
	long ni = hg_attribute(&in, out, &items);
	CHECK(ni > 0, "items %ld", ni);
	CHECK(out[0].cause == HG_CAUSE_SOFTIRQ, "two causes: the softirq dominates (%s)",
	      hg_cause_names[out[0].cause]);
	CHECK(out[0].n_causes >= 3, "softirq, irq, process, kthread (%u)", out[0].n_causes);
	CHECK(out[0].who == 3, "softirq vec 3 (%d)", out[0].who);
	CHECK(out[1].cause == HG_CAUSE_INVISIBLE && out[1].explained_ns == 0 &&
	      out[1].n_causes == 1, "no kernel event: invisible (%s)", hg_cause_names[out[1].cause]);
	CHECK(out[2].cause == HG_CAUSE_INVISIBLE, "events of CPU 1 do not explain a CPU 0 gap");
	CHECK(out[3].cause == HG_CAUSE_UNATTRIBUTED, "not covered: unattributed (%s)",
	      hg_cause_names[out[3].cause]);
	int64_t proc = 0, irq = 0, kth = 0;
	for (long i = 0; i < ni; i++) {
		if (items[i].cause == HG_CAUSE_PROCESS && items[i].who == OTHER)
			proc += items[i].ns;
		if (items[i].cause == HG_CAUSE_IRQ)
			irq += items[i].ns;
		if (items[i].cause == HG_CAUSE_KTHREAD)
			kth += items[i].ns;
	}
	CHECK(proc == 40000 && irq == 10000 && kth == 2000, "process %lld irq %lld kthread %lld",
	      (long long)proc, (long long)irq, (long long)kth);
	for (long i = 1; i < ni; i++)
		if (items[i - 1].thread == items[i].thread)
			CHECK(items[i - 1].ns >= items[i].ns, "items sorted by time");
	free(items);

	/* a gap made only of a switch: the process dominates */
	struct hg_gap g2 = { 1300 * us, 1342 * us, ME, 0, 0 };
	struct hg_attr_input in2 = { s, (size_t)n, &g2, 1, classify, NULL, NULL, 0 };
	ni = hg_attribute(&in2, out, &items);
	CHECK(out[0].cause == HG_CAUSE_PROCESS && out[0].who == OTHER && out[0].n_causes == 2,
	      "switch to OTHER then kworker: process %d (%s, %u causes)", out[0].who,
	      hg_cause_names[out[0].cause], out[0].n_causes);
	free(items);
}

static void test_recall(const struct hg_kseg *s, long n)
{
	const int64_t us = 1000;
	uint64_t outs, matched;
	struct hg_gap hit = { 1299 * us, 1343 * us, ME, 0, 0 };
	hg_switch_recall(s, (size_t)n, ME, 0, 3000 * us, 5000, &hit, 1, &outs, &matched);
	CHECK(outs == 1 && matched == 1, "one switch-out of 42 us, matched (%llu/%llu)",
	      (unsigned long long)matched, (unsigned long long)outs);
	struct hg_gap miss = { 1500 * us, 1510 * us, ME, 0, 0 };
	hg_switch_recall(s, (size_t)n, ME, 0, 3000 * us, 5000, &miss, 1, &outs, &matched);
	CHECK(outs == 1 && matched == 0, "a gap elsewhere does not match");
	hg_switch_recall(s, (size_t)n, ME, 0, 3000 * us, 50000, &hit, 1, &outs, &matched);
	CHECK(outs == 0, "shorter than min_ns: not counted");
}

/* An interrupt event that names the task it interrupted. */
static struct hg_kevent evp(int64_t ts, int cpu, uint8_t kind, int a, uint32_t sub, int pid)
{
	return (struct hg_kevent){ ts, a, pid, (uint16_t)cpu, kind, HG_KEV_PID, sub };
}

static struct hg_gap_attr attr_one(const struct hg_kseg *s, long n, struct hg_gap g,
				   struct hg_attr_item **items, long *ni)
{
	struct hg_gap_attr out;
	struct hg_attr_input in = { s, (size_t)n, &g, 1, classify, NULL, NULL, 0 };
	*ni = hg_attribute(&in, &out, items);
	return out;
}

static int64_t item_ns(const struct hg_attr_item *it, long n, uint8_t cause)
{
	int64_t ns = 0;
	for (long i = 0; i < n; i++)
		ns += it[i].cause == cause ? it[i].ns : 0;
	return ns;
}

/* CPU 0, ME running: a timer 100-114 us, its softirq 114-127; an IRQ
 * 200-230; a timer 400-410; a switch to OTHER at 600, back at 650. */
static void test_entry_and_partial(void)
{
	const int64_t us = 1000;
	struct hg_kevent e[] = {
		sw(0, 0, ME, ME, false),
		ev(100 * us, 0, HG_KEV_VEC_ENTRY, 236, HG_KVEC_LOCAL_TIMER),
		ev(114 * us, 0, HG_KEV_VEC_EXIT, 236, HG_KVEC_LOCAL_TIMER),
		ev(114 * us, 0, HG_KEV_SOFTIRQ_ENTRY, 9, 0),
		ev(127 * us, 0, HG_KEV_SOFTIRQ_EXIT, 9, 0),
		ev(200 * us, 0, HG_KEV_IRQ_ENTRY, 11, 0),
		ev(230 * us, 0, HG_KEV_IRQ_EXIT, 11, 0),
		ev(400 * us, 0, HG_KEV_VEC_ENTRY, 236, HG_KVEC_LOCAL_TIMER),
		ev(410 * us, 0, HG_KEV_VEC_EXIT, 236, HG_KVEC_LOCAL_TIMER),
		sw(600 * us, 0, ME, OTHER, true),
		sw(650 * us, 0, OTHER, ME, false),
		sw(1000 * us, 0, ME, ME, false),
	};
	struct hg_kseg *s = NULL;
	long n = hg_kseg_build(e, sizeof(e) / sizeof(e[0]), 0, &s, NULL);
	struct hg_attr_item *it = NULL;
	long ni;
	/* the gap began 24 us before the timer's first event: 20 us of it are
	 * the timer's entry, 4 us stay invisible */
	struct hg_gap_attr a = attr_one(s, n, (struct hg_gap){ 76 * us, 128 * us, ME, 0, 0 },
					&it, &ni);
	CHECK(a.cause == HG_CAUSE_TIMER && a.entry_ns == 20 * us,
	      "timer with its entry dominates (%s, entry %lld)", hg_cause_names[a.cause],
	      (long long)a.entry_ns);
	CHECK(a.explained_ns == 47 * us && item_ns(it, ni, HG_CAUSE_TIMER) == 34 * us &&
	      item_ns(it, ni, HG_CAUSE_SOFTIRQ) == 13 * us &&
	      item_ns(it, ni, HG_CAUSE_INVISIBLE) == 5 * us,
	      "timer 14 + 20 us, softirq 13 us, invisible 5 us (explained %lld)",
	      (long long)a.explained_ns);
	free(it);
	/* 8 us before it: all entry */
	a = attr_one(s, n, (struct hg_gap){ 92 * us, 127 * us, ME, 0, 0 }, &it, &ni);
	CHECK(a.entry_ns == 8 * us && a.explained_ns == 35 * us && a.n_causes == 2,
	      "entry 8 us, nothing invisible (%lld, %u causes)", (long long)a.entry_ns,
	      a.n_causes);
	free(it);
	/* an IRQ partly inside: it began before the gap, ends inside */
	a = attr_one(s, n, (struct hg_gap){ 210 * us, 240 * us, ME, 0, 0 }, &it, &ni);
	CHECK(a.cause == HG_CAUSE_IRQ && a.entry_ns == 0 && a.explained_ns == 20 * us,
	      "irq clipped to the gap: 20 us, no entry (%s %lld %lld)", hg_cause_names[a.cause],
	      (long long)a.explained_ns, (long long)a.entry_ns);
	free(it);
	/* ... and one that outlasts the gap on both sides */
	a = attr_one(s, n, (struct hg_gap){ 205 * us, 215 * us, ME, 0, 0 }, &it, &ni);
	CHECK(a.cause == HG_CAUSE_IRQ && a.explained_ns == 10 * us, "irq covering the gap");
	free(it);
	/* a gap opened by a switch: no entry, the process dominates */
	a = attr_one(s, n, (struct hg_gap){ 590 * us, 651 * us, ME, 0, 0 }, &it, &ni);
	CHECK(a.cause == HG_CAUSE_PROCESS && a.who == OTHER && a.entry_ns == 0,
	      "a switch has no entry (%s, entry %lld)", hg_cause_names[a.cause],
	      (long long)a.entry_ns);
	free(it);
	/* two gaps: the timer's at 400 and, on CPU 1, nothing of CPU 0 */
	struct hg_gap two[] = { { 395 * us, 411 * us, ME, 0, 0 }, { 395 * us, 411 * us, ME, 1, 0 } };
	struct hg_gap_attr out[2];
	struct hg_attr_input in = { s, (size_t)n, two, 2, classify, NULL, NULL, 0 };
	ni = hg_attribute(&in, out, &it);
	CHECK(out[0].cause == HG_CAUSE_TIMER && out[0].entry_ns == 5 * us &&
	      out[1].cause == HG_CAUSE_UNATTRIBUTED,
	      "timer on CPU 0; CPU 1 has no trace (%s, %s)", hg_cause_names[out[0].cause],
	      hg_cause_names[out[1].cause]);
	free(it);
	free(s);
}

/* The kernel records a switch ME -> OTHER at 100 us and nothing of OTHER
 * after it; a timer at 300 us interrupts ME (its common_pid). */
static void test_missed_switch(void)
{
	const int64_t us = 1000;
	struct hg_kevent e[] = {
		evp(0, 0, HG_KEV_VEC_ENTRY, 236, HG_KVEC_LOCAL_TIMER, ME),   /* names ME */
		evp(5 * us, 0, HG_KEV_VEC_EXIT, 236, HG_KVEC_LOCAL_TIMER, ME),
		sw(100 * us, 0, ME, OTHER, true),
		evp(300 * us, 0, HG_KEV_VEC_ENTRY, 236, HG_KVEC_LOCAL_TIMER, ME),
		evp(310 * us, 0, HG_KEV_VEC_EXIT, 236, HG_KVEC_LOCAL_TIMER, ME),
		evp(400 * us, 0, HG_KEV_IRQ_ENTRY, 11, 0, ME),   /* consistent: no new miss */
		evp(402 * us, 0, HG_KEV_IRQ_EXIT, 11, 0, ME),
		sw(500 * us, 0, ME, ME, false),
	};
	struct hg_kseg *s = NULL;
	struct hg_kseg_stats st;
	long n = hg_kseg_build(e, sizeof(e) / sizeof(e[0]), 0, &s, &st);
	CHECK(n > 0 && s[0].kind == HG_SEG_TIMER && s[1].id == ME,
	      "the first task named by an interrupt (%d)", n > 1 ? s[1].id : -2);
	CHECK(st.missed_switches == 1, "one missed switch (%llu)",
	      (unsigned long long)st.missed_switches);
	bool unconf = false, me_after = false;
	for (long i = 0; i < n; i++) {
		if (s[i].id == OTHER)
			unconf = s[i].start == 100 * us && s[i].end == 300 * us &&
				 (s[i].flags & HG_SEG_UNCONFIRMED);
		if (s[i].kind == HG_SEG_TASK && s[i].start == 310 * us)
			me_after = s[i].id == ME && !(s[i].flags & HG_SEG_UNCONFIRMED);
	}
	CHECK(unconf, "OTHER's 100-300 us unconfirmed");
	CHECK(me_after, "ME runs after the timer that interrupted it");

	/* ME's trace says it ran 150-280 us: that part is ME's again */
	struct hg_ran ran[] = { { 20 * us, 99 * us, ME, 0 }, { 150 * us, 280 * us, ME, 0 },
				{ 150 * us, 280 * us, ME + 1, 1 } };
	int64_t left = -1;
	long m = hg_kseg_confirm(&s, (size_t)n, ran, 3, &left);
	CHECK(m == n + 2 && left == 70 * us, "split in three, 70 us left unconfirmed (%ld, %lld)",
	      m, (long long)left);
	int64_t other = 0, me = 0;
	for (long i = 0; i < m; i++) {
		if (s[i].id == OTHER)
			other += s[i].end - s[i].start;
		if (s[i].kind == HG_SEG_TASK && s[i].id == ME && s[i].start >= 150 * us &&
		    s[i].end <= 280 * us)
			me += s[i].end - s[i].start;
		if (i && s[i].cpu == s[i - 1].cpu)
			CHECK(s[i].start == s[i - 1].end, "still contiguous at %ld", i);
	}
	CHECK(other == 70 * us && me == 130 * us, "OTHER 70 us, ME 130 us (%lld, %lld)",
	      (long long)other, (long long)me);
	/* a gap of ME 100-150: OTHER (unconfirmed, the most plausible); 280-300
	 * the same; the gap of the timer at 300 has no OTHER in it */
	struct hg_attr_item *it = NULL;
	long ni;
	struct hg_gap_attr a = attr_one(s, m, (struct hg_gap){ 100 * us, 150 * us, ME, 0, 0 },
					&it, &ni);
	CHECK(a.cause == HG_CAUSE_PROCESS && a.who == OTHER, "the switch's gap is OTHER's");
	free(it);
	a = attr_one(s, m, (struct hg_gap){ 295 * us, 311 * us, ME, 0, 0 }, &it, &ni);
	CHECK(a.cause == HG_CAUSE_TIMER, "the timer's gap (%s)", hg_cause_names[a.cause]);
	free(it);
	long same = hg_kseg_confirm(&s, (size_t)m, ran, 0, &left);
	CHECK(same == m && left == 70 * us, "nothing to give back: unchanged");
	free(s);
}

#define LOAD 400

/* CPU 0: ME runs, then blocks at 100 us (prev_state D: it waits for I/O);
 * LOAD runs 50 ms; the disk's interrupt 50000-50010 us wakes ME at 50005;
 * ME preempts LOAD at 50040.  Then ME is preempted (runnable) by LOAD at
 * 60000 and runs again at 60500; at 70000 it blocks again, is woken at
 * 70100 and LOAD keeps the CPU until 80100 (a non-preemptible section). */
static void test_blocked(void)
{
	const int64_t us = 1000;
	struct hg_kevent e[] = {
		sw(0, 0, ME, ME, false),
		sw(100 * us, 0, ME, LOAD, false),
		ev(50000 * us, 0, HG_KEV_IRQ_ENTRY, 14, 0),
		ev(50010 * us, 0, HG_KEV_IRQ_EXIT, 14, 0),
		sw(50040 * us, 0, LOAD, ME, true),
		sw(60000 * us, 0, ME, LOAD, true),
		sw(60500 * us, 0, LOAD, ME, true),
		sw(70000 * us, 0, ME, LOAD, false),
		sw(80100 * us, 0, LOAD, ME, true),
		sw(90000 * us, 0, ME, ME, false),
	};
	struct hg_kwake wakes[] = { { 50005 * us, ME }, { 70100 * us, ME }, { 1000 * us, LOAD } };
	struct hg_kwake sorted[] = { wakes[0], wakes[1], wakes[2] };   /* by (pid, ts) */
	struct hg_kseg *s = NULL;
	long n = hg_kseg_build(e, sizeof(e) / sizeof(e[0]), 0, &s, NULL);
	bool flagged = false;
	for (long i = 0; i < n; i++)
		if (s[i].kind == HG_SEG_TASK && s[i].id == ME && s[i].end == 100 * us)
			flagged = (s[i].flags & HG_SEG_BLOCKED) && !(s[i].flags & HG_SEG_PREEMPTED);
	CHECK(flagged, "the switch-out while not runnable marks the segment blocked");
	CHECK(hg_kwake_after(sorted, 3, ME, 100 * us) == 50005 * us &&
	      hg_kwake_after(sorted, 3, ME, 50006 * us) == 70100 * us &&
	      hg_kwake_after(sorted, 3, ME, 70101 * us) == INT64_MAX &&
	      hg_kwake_after(sorted, 3, OTHER, 0) == INT64_MAX, "wake-up lookup");

	struct hg_gap g[] = { { 90 * us, 50041 * us, ME, 0, 0 },
			      { 59990 * us, 60501 * us, ME, 0, 0 },
			      { 69990 * us, 80101 * us, ME, 0, 0 } };
	struct hg_gap_attr out[3];
	struct hg_attr_item *it = NULL;
	struct hg_attr_input in = { s, (size_t)n, g, 3, classify, NULL, sorted, 3 };
	long ni = hg_attribute(&in, out, &it);
	CHECK(out[0].cause == HG_CAUSE_BLOCKED && out[0].who == ME,
	      "a blocked gap is the thread's own, not LOAD's (%s, who %d)",
	      hg_cause_names[out[0].cause], out[0].who);
	int64_t blocked = 0, load0 = 0, irq0 = 0;
	for (long i = 0; i < ni; i++) {
		blocked += it[i].cause == HG_CAUSE_BLOCKED ? it[i].ns : 0;
		if (it[i].cause == HG_CAUSE_PROCESS && it[i].who == LOAD)
			load0 += it[i].ns;
		irq0 += it[i].cause == HG_CAUSE_IRQ ? it[i].ns : 0;
	}
	/* blocked: 100-50005 and 70000-70100 us; LOAD after each wake-up:
	 * 50010-50040, and 59990-60500 preempted, 70100-80100 non-preemptible */
	CHECK(blocked == (49905 + 100) * us, "blocked %lld us", (long long)(blocked / us));
	CHECK(load0 == (30 + 500 + 10000) * us, "LOAD only once the thread was runnable: %lld us",
	      (long long)(load0 / us));
	CHECK(irq0 == 5 * us, "the interrupt after the wake-up: %lld us", (long long)(irq0 / us));
	CHECK(out[1].cause == HG_CAUSE_PROCESS && out[1].who == LOAD,
	      "a preemption stays LOAD's (%s)", hg_cause_names[out[1].cause]);
	CHECK(out[2].cause == HG_CAUSE_PROCESS && out[2].who == LOAD,
	      "woken, then kept off the CPU by LOAD: LOAD's (%s)", hg_cause_names[out[2].cause]);
	free(it);

	/* no wake-up recorded (woken from a CPU outside the trace): blocked
	 * until the thread ran again, never LOAD's */
	struct hg_attr_input none = { s, (size_t)n, g, 1, classify, NULL, NULL, 0 };
	ni = hg_attribute(&none, out, &it);
	CHECK(out[0].cause == HG_CAUSE_BLOCKED && item_ns(it, ni, HG_CAUSE_PROCESS) == 0,
	      "without wake-ups: all blocked (%s, process %lld)", hg_cause_names[out[0].cause],
	      (long long)item_ns(it, ni, HG_CAUSE_PROCESS));
	CHECK(out[0].explained_ns == 49940 * us, "the blocked time is explained (%lld)",
	      (long long)out[0].explained_ns);
	free(it);
	free(s);
}

int main(void)
{
	struct hg_kseg *segs = NULL;
	long n = build(&segs);
	test_segments(segs, n);
	test_matching(segs, n);
	test_recall(segs, n);
	free(segs);
	test_entry_and_partial();
	test_missed_switch();
	test_blocked();
	return unit_report("test_attribution");
}
