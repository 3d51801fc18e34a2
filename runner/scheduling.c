/* Scheduling of measuring threads: affinity, policy, reservation. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "scheduling.h"

/* struct sched_attr of the kernel ABI (SCHED_ATTR_SIZE_VER0, 48 bytes):
 * <linux/sched/types.h> cannot be used with glibc's <sched.h> (both
 * define struct sched_param) and glibc 2.36 has no wrapper. */
struct sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#ifndef SCHED_FLAG_RECLAIM
#define SCHED_FLAG_RECLAIM 0x02
#endif

static void note(struct hg_sched_report *r, bool privilege, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note(struct hg_sched_report *r, bool privilege, const char *fmt, ...)
{
	if (privilege)
		r->privilege_failed = true;
	if (r->n_msgs == HG_SCHED_MAX_MSGS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->msgs[r->n_msgs++], HG_SCHED_MSG_LEN, fmt, ap);
	va_end(ap);
}

static const char *fix_for(int err)
{
	return err == EPERM || err == EACCES ? " (needs root or CAP_SYS_NICE)" :
	       err == EBUSY ? " (not enough free SCHED_DEADLINE bandwidth: see"
			      " /proc/sys/kernel/sched_rt_runtime_us)" : "";
}

static void apply_affinity(const struct hg_thread_plan *tp, struct hg_sched_report *r)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (tp->pinned_cpu >= 0)
		CPU_SET(tp->pinned_cpu, &set);
	else if (!tp->cpus_all)
		set = tp->cpus;
	else
		return;
	int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc)
		note(r, rc == EPERM, "%s: affinity not set: %s", tp->os_name, strerror(rc));
}

static int sys_sched_setattr(struct sched_attr *a)
{
	return (int)syscall(SYS_sched_setattr, 0, a, 0);
}

static int sys_sched_getattr(struct sched_attr *a)
{
	return (int)syscall(SYS_sched_getattr, 0, a, sizeof(*a), 0);
}

static void apply_reservation(const struct hg_thread_plan *tp, struct hg_sched_report *r)
{
	const struct hg_reservation *res = &tp->reservation;
	struct sched_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_DEADLINE;
	a.sched_flags = res->mode == HG_RES_SOFT ? SCHED_FLAG_RECLAIM : 0;
	a.sched_runtime = res->budget_ns;
	a.sched_deadline = res->deadline_ns ? res->deadline_ns : res->period_ns;
	a.sched_period = res->period_ns;
	if (sys_sched_setattr(&a) < 0) {
		int e = errno;
		note(r, true, "%s: SCHED_DEADLINE reservation %llu/%llu ns not granted: %s%s",
		     tp->os_name, (unsigned long long)res->budget_ns,
		     (unsigned long long)res->period_ns, strerror(e), fix_for(e));
	}
}

static int native_policy(enum hg_policy p)
{
	switch (p) {
	case HG_POLICY_OTHER: return SCHED_OTHER;
	case HG_POLICY_BATCH: return SCHED_BATCH;
	case HG_POLICY_IDLE: return SCHED_IDLE;
	case HG_POLICY_FIFO: return SCHED_FIFO;
	case HG_POLICY_RR: return SCHED_RR;
	case HG_POLICY_DEADLINE: return SCHED_DEADLINE;
	}
	return SCHED_OTHER;
}

static void apply_priority(const struct hg_thread_plan *tp, struct hg_sched_report *r)
{
	const struct hg_priority *p = &tp->priority;
	struct sched_param sp = { .sched_priority = p->rt_priority };
	int rc = pthread_setschedparam(pthread_self(), native_policy(p->policy), &sp);
	if (rc)
		note(r, true, "%s: %s priority %d not granted: %s%s", tp->os_name,
		     hg_policy_name(p->policy), p->rt_priority, strerror(rc), fix_for(rc));
	if ((p->policy == HG_POLICY_OTHER || p->policy == HG_POLICY_BATCH) &&
	    setpriority(PRIO_PROCESS, (id_t)gettid(), p->nice) < 0) {
		int e = errno;
		note(r, p->nice < 0, "%s: nice %d not granted: %s%s", tp->os_name, p->nice,
		     strerror(e), p->nice < 0 ? fix_for(e) : "");
	}
}

void hg_sched_apply(const struct hg_thread_plan *tp, struct hg_sched_report *r)
{
	memset(r, 0, sizeof(*r));
	if (tp->reservation.enabled) {
		/* SCHED_DEADLINE refuses threads whose affinity is narrower than
		 * their root domain: reserve first, then leave affinity alone. */
		apply_reservation(tp, r);
		if (!tp->cpus_all || tp->pinned_cpu >= 0)
			note(r, false, "%s: affinity left to the kernel: SCHED_DEADLINE threads"
			     " must be allowed on every CPU", tp->os_name);
	} else {
		apply_affinity(tp, r);
		apply_priority(tp, r);
	}
	hg_sched_read(&r->granted);
}

static enum hg_policy policy_from_native(unsigned p)
{
	switch (p) {
	case SCHED_BATCH: return HG_POLICY_BATCH;
	case SCHED_IDLE: return HG_POLICY_IDLE;
	case SCHED_FIFO: return HG_POLICY_FIFO;
	case SCHED_RR: return HG_POLICY_RR;
	case SCHED_DEADLINE: return HG_POLICY_DEADLINE;
	default: return HG_POLICY_OTHER;
	}
}

void hg_sched_read(struct hg_sched_granted *g)
{
	memset(g, 0, sizeof(*g));
	struct sched_attr a;
	memset(&a, 0, sizeof(a));
	if (sys_sched_getattr(&a) == 0) {
		g->policy = policy_from_native(a.sched_policy & ~(unsigned)SCHED_RESET_ON_FORK);
		g->priority = (int)a.sched_priority;
		g->nice = a.sched_nice;
		g->reservation = g->policy == HG_POLICY_DEADLINE;
		g->runtime_ns = a.sched_runtime;
		g->deadline_ns = a.sched_deadline;
		g->period_ns = a.sched_period;
		g->reclaim = (a.sched_flags & SCHED_FLAG_RECLAIM) != 0;
	} else {
		int policy;
		struct sched_param sp;
		if (pthread_getschedparam(pthread_self(), &policy, &sp) == 0) {
			g->policy = policy_from_native((unsigned)policy);
			g->priority = sp.sched_priority;
		}
		errno = 0;
		g->nice = getpriority(PRIO_PROCESS, (id_t)gettid());
	}
	pthread_getaffinity_np(pthread_self(), sizeof(g->affinity), &g->affinity);
}

int hg_sched_fifo_self(int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	return -pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}
