/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduling of measuring threads: affinity, policy, reservation.
 *
 * A reservation is SCHED_DEADLINE set with sched_setattr (runtime = budget,
 * deadline, period); mode soft adds SCHED_FLAG_RECLAIM (GRUB).  Order: the
 * affinity first, then the reservation, so that the kernel judges the
 * thread as the scenario pins it (it refuses SCHED_DEADLINE to a thread
 * whose affinity is narrower than its root domain, and refuses to narrow a
 * deadline thread's affinity afterwards).  Every refusal is explained
 * (docs/reservations.md): what was asked, why the kernel said no, the fix,
 * and what the thread runs under instead. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The kernel's declarations of struct sched_attr, SCHED_DEADLINE and
 * SCHED_FLAG_RECLAIM.  <linux/sched/types.h> also declares a struct
 * sched_param, which glibc's <sched.h> already did: rename the kernel's. */
#define sched_param hg_kernel_sched_param
#include <linux/sched/types.h>
#undef sched_param
#include <linux/capability.h>
#include <linux/sched.h>

#include "base/cpuset.h"
#include "base/fsutil.h"
#include "base/units.h"
#include "run/scheduling.h"

#define PROC_K "/proc/sys/kernel/"

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

static long read_long(const char *path, long fallback)
{
	char line[64];
	if (hg_read_first_line(path, line, sizeof(line)) <= 0)
		return fallback;
	char *end;
	long v = strtol(line, &end, 10);
	return end == line ? fallback : v;
}

/* ---- what the kernel offers ---------------------------------------------- */

/* Every online CPU: the root domain of an unpartitioned machine. */
static void online_cpus(cpu_set_t *set)
{
	char line[1024], err[HG_ERRLEN];
	if (hg_read_first_line("/sys/devices/system/cpu/online", line, sizeof(line)) <= 0 ||
	    hg_cpuset_parse(line, set, err) < 0)
		hg_cpuset_online(set);
}

static bool has_cap_sys_nice(void)
{
	char line[256];
	unsigned long long caps;
	bool found = false, cap = geteuid() == 0;
	FILE *f = fopen("/proc/thread-self/status", "r");
	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			found = true;
	if (f)
		fclose(f);
	return found ? (caps >> CAP_SYS_NICE) & 1 : cap;
}

/* Per-CPU share of the fair server (the deadline server that keeps
 * SCHED_OTHER alive, Linux >= 6.12); it is taken from the same pool as
 * reservations.  Its parameters are in debugfs; without access, the
 * default 50 ms / 1 s. */
static double fair_server_share(void)
{
	long rt = read_long("/sys/kernel/debug/sched/fair_server/cpu0/runtime", -1);
	long per = read_long("/sys/kernel/debug/sched/fair_server/cpu0/period", -1);
	if (rt >= 0 && per > 0)
		return (double)rt / (double)per;
	struct utsname u;
	int major = 0, minor = 0;
	if (uname(&u) == 0 && sscanf(u.release, "%d.%d", &major, &minor) == 2 &&
	    (major > 6 || (major == 6 && minor >= 12)))
		return 0.05;
	return 0;
}

/* ---- bandwidth held by this process's reservations -------------------------
 * In parts per billion of one CPU.  A thread adds its share when the kernel
 * admits it; a key destructor gives it back when the thread exits. */
static atomic_ullong held_ppb;
static pthread_key_t held_key;
static bool held_key_ok;
static pthread_once_t held_once = PTHREAD_ONCE_INIT;

static void held_release(void *v)
{
	atomic_fetch_sub(&held_ppb, (unsigned long long)(uintptr_t)v);
}

static void held_init(void)
{
	held_key_ok = pthread_key_create(&held_key, held_release) == 0;
}

static unsigned long long share_ppb(const struct hg_reservation *res)
{
	double ppb = (double)res->budget_ns / (double)res->period_ns * 1e9;
	return ppb < 1 ? 1 : (unsigned long long)ppb;
}

static void held_add(const struct hg_reservation *res)
{
	pthread_once(&held_once, held_init);
	if (!held_key_ok || pthread_getspecific(held_key))
		return;
	unsigned long long ppb = share_ppb(res);
	if (pthread_setspecific(held_key, (void *)(uintptr_t)ppb) == 0)
		atomic_fetch_add(&held_ppb, ppb);
}

static double pct(unsigned long long ppb)
{
	return (double)ppb / 1e7;
}

/* ---- texts ----------------------------------------------------------------- */

/* "3.1ms/8ms (39% of a CPU)" */
static const char *res_text(const struct hg_reservation *res, char *buf, size_t size)
{
	char b[32], p[32];
	snprintf(buf, size, "%s/%s (%.3g%% of a CPU)", hg_format_duration(res->budget_ns, b),
		 hg_format_duration(res->period_ns, p), pct(share_ppb(res)));
	return buf;
}

/* What the calling thread runs under now: "SCHED_OTHER (nice 0)". */
static const char *current_policy(char *buf, size_t size)
{
	struct hg_sched_granted g;
	hg_sched_read(&g);
	switch (g.policy) {
	case HG_POLICY_OTHER: snprintf(buf, size, "SCHED_OTHER (nice %d)", g.nice); break;
	case HG_POLICY_BATCH: snprintf(buf, size, "SCHED_BATCH (nice %d)", g.nice); break;
	case HG_POLICY_IDLE: snprintf(buf, size, "SCHED_IDLE"); break;
	case HG_POLICY_FIFO: snprintf(buf, size, "SCHED_FIFO %d", g.priority); break;
	case HG_POLICY_RR: snprintf(buf, size, "SCHED_RR %d", g.priority); break;
	case HG_POLICY_DEADLINE: snprintf(buf, size, "SCHED_DEADLINE"); break;
	}
	return buf;
}

/* A refused reservation: the explanation, then what the thread gets. */
static void refused(struct hg_sched_report *r, const struct hg_thread_plan *tp,
		    const char *why)
{
	char pol[48];
	note(r, true, "%s; without it, %s runs under %s", why, tp->os_name,
	     current_policy(pol, sizeof(pol)));
}

/* ---- explanations of refusals ---------------------------------------------- */

static void explain_busy(struct hg_sched_report *r, const struct hg_thread_plan *tp)
{
	char why[1024], rt[32], fair[64] = "";
	const struct hg_reservation *res = &tp->reservation;
	long runtime = read_long(PROC_K "sched_rt_runtime_us", -2);
	long period = read_long(PROC_K "sched_rt_period_us", -2);
	cpu_set_t on;
	online_cpus(&on);
	int cpus = CPU_COUNT(&on);
	double fs = fair_server_share();
	double per_cpu = period > 0 && runtime >= 0 ? (double)runtime / (double)period - fs : 1;
	double held = pct(atomic_load(&held_ppb)), mine = pct(share_ppb(res));
	if (fs > 0)
		snprintf(fair, sizeof(fair), " - %.3g%% for each CPU's fair server", fs * 100);
	snprintf(why, sizeof(why), "%s: reservation %s refused by SCHED_DEADLINE admission "
		 "control (EBUSY): this run's reservations would hold %.4g%% of a CPU "
		 "(%.4g%% admitted + %.4g%%), and the kernel admits at most %.4g%% "
		 "(%d CPUs x (%ld/%ld from sched_rt_runtime_us/sched_rt_period_us%s)) less "
		 "other deadline tasks; lower the budgets, reserve fewer threads, or "
		 "raise " PROC_K "sched_rt_runtime_us", tp->os_name, res_text(res, rt, sizeof(rt)),
		 held + mine, held, mine, per_cpu * cpus * 100, cpus, runtime, period, fair);
	refused(r, tp, why);
}

#define DL_AFFINITY_RULE "Linux gives SCHED_DEADLINE only to a thread allowed on every " \
	"CPU of its root domain (all online CPUs, %s, unless cpusets partition them)"
#define DL_ISOLATE "isolate those CPUs into their own root domain (an exclusive cpuset " \
	"partition, or isolcpus=)"

/* EPERM with CAP_SYS_NICE: the affinity rule, or no deadline bandwidth. */
static void explain_affinity(struct hg_sched_report *r, const struct hg_thread_plan *tp)
{
	char why[1024], rt[32], on_s[64], aff_s[64];
	cpu_set_t on, aff;
	online_cpus(&on);
	if (pthread_getaffinity_np(pthread_self(), sizeof(aff), &aff) != 0)
		aff = on;
	const char *name = tp->os_name, *rs = res_text(&tp->reservation, rt, sizeof(rt));
	hg_cpuset_format(&on, on_s, sizeof(on_s));
	hg_cpuset_format(&aff, aff_s, sizeof(aff_s));
	bool asked = tp->pinned_cpu >= 0 || !tp->cpus_all;
	if (CPU_EQUAL(&aff, &on))
		snprintf(why, sizeof(why), "%s: reservation %s refused (EPERM) although hgrun "
			 "has CAP_SYS_NICE and the thread may run on every CPU: the kernel admits "
			 "no deadline bandwidth (" PROC_K "sched_rt_runtime_us = %ld) or hgrun's "
			 "cpuset is not a whole root domain; set sched_rt_runtime_us > 0 (default "
			 "950000) or run hgrun in the root cpuset", name, rs,
			 read_long(PROC_K "sched_rt_runtime_us", -2));
	else if (asked)
		snprintf(why, sizeof(why), "%s: reservation %s refused (EPERM): " DL_AFFINITY_RULE
			 ", but its cpus: limit it to CPUs %s; remove cpus: from this thread, or "
			 DL_ISOLATE, name, rs, on_s, aff_s);
	else
		snprintf(why, sizeof(why), "%s: reservation %s refused (EPERM): " DL_AFFINITY_RULE
			 ", but hgrun itself was started on CPUs %s only (taskset or a cpuset); "
			 "start hgrun on every CPU, or " DL_ISOLATE, name, rs, on_s, aff_s);
	refused(r, tp, why);
}

static void explain_privilege(struct hg_sched_report *r, const struct hg_thread_plan *tp)
{
	char why[1024], rt[32];
	snprintf(why, sizeof(why), "%s: reservation %s not granted: SCHED_DEADLINE needs root "
		 "or CAP_SYS_NICE (EPERM); run hgrun as root (sudo) or give it CAP_SYS_NICE "
		 "(setcap cap_sys_nice+ep hgrun)", tp->os_name,
		 res_text(&tp->reservation, rt, sizeof(rt)));
	refused(r, tp, why);
}

static void explain_unsupported(struct hg_sched_report *r, const struct hg_thread_plan *tp,
				int err, unsigned long long flags)
{
	char why[1024], rt[32];
	const char *rs = res_text(&tp->reservation, rt, sizeof(rt));
	if (err == ENOSYS)
		snprintf(why, sizeof(why), "%s: reservation %s not granted: this kernel has no "
			 "sched_setattr (ENOSYS): SCHED_DEADLINE needs Linux >= 3.14, and no "
			 "seccomp filter in the way (containers)", tp->os_name, rs);
	else
		snprintf(why, sizeof(why), "%s: reservation %s not granted: this kernel does not "
			 "accept SCHED_DEADLINE with these attributes (%s, flags 0x%llx): it needs "
			 "Linux >= 3.14, and >= 4.13 for mode: soft (SCHED_FLAG_RECLAIM); use a newer "
			 "kernel", tp->os_name, rs, strerror(err), flags);
	refused(r, tp, why);
}

static void explain(struct hg_sched_report *r, const struct hg_thread_plan *tp, int err,
		    unsigned long long flags)
{
	if (err == EBUSY)
		explain_busy(r, tp);
	else if ((err == EPERM || err == EACCES) && has_cap_sys_nice())
		explain_affinity(r, tp);
	else if (err == EPERM || err == EACCES)
		explain_privilege(r, tp);
	else
		explain_unsupported(r, tp, err, flags);
}

/* ---- applying ------------------------------------------------------------- */

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

/* The kernel's period limits (sched_deadline_period_{min,max}_us), checked
 * before asking: its EINVAL would not say which limit.  Returns true when
 * the period is inside them. */
static bool period_allowed(const struct hg_thread_plan *tp, struct hg_sched_report *r)
{
	long min_us = read_long(PROC_K "sched_deadline_period_min_us", -1);
	long max_us = read_long(PROC_K "sched_deadline_period_max_us", -1);
	uint64_t p = tp->reservation.period_ns;
	bool low = min_us >= 0 && p < (uint64_t)min_us * 1000;
	bool high = max_us >= 0 && p > (uint64_t)max_us * 1000;
	if (!low && !high)
		return true;
	char why[1024], ps[32];
	snprintf(why, sizeof(why), "%s: reservation period %s is %s this kernel's %s "
		 "SCHED_DEADLINE period, %ldus (" PROC_K "sched_deadline_period_%s_us); %s the "
		 "period, or (as root) %s that limit", tp->os_name, hg_format_duration(p, ps),
		 low ? "below" : "above", low ? "shortest" : "longest", low ? min_us : max_us,
		 low ? "min" : "max", low ? "lengthen" : "shorten", low ? "lower" : "raise");
	refused(r, tp, why);
	return false;
}

static int set_deadline(const struct hg_reservation *res, unsigned long long flags)
{
	struct sched_attr a;
	memset(&a, 0, sizeof(a));
	a.size = SCHED_ATTR_SIZE_VER0;  /* every kernel since 3.14 knows this much */
	a.sched_policy = SCHED_DEADLINE;
	a.sched_flags = flags;
	a.sched_runtime = res->budget_ns;
	a.sched_deadline = res->deadline_ns ? res->deadline_ns : res->period_ns;
	a.sched_period = res->period_ns;
	return sys_sched_setattr(&a) < 0 ? errno : 0;
}

/* A kernel without SCHED_FLAG_RECLAIM (< 4.13) refuses soft with EINVAL:
 * a hard reservation is then the closest grant. */
static int soft_as_hard(const struct hg_thread_plan *tp, struct hg_sched_report *r)
{
	int err = set_deadline(&tp->reservation, 0);
	if (err)
		return err;
	char rt[32];
	note(r, true, "%s: soft reservation %s granted as hard: this kernel refuses "
	     "SCHED_FLAG_RECLAIM (EINVAL; it needs Linux >= 4.13), so the thread cannot use "
	     "spare CPU time beyond its budget; use mode: hard, or a newer kernel",
	     tp->os_name, res_text(&tp->reservation, rt, sizeof(rt)));
	return 0;
}

static void apply_reservation(const struct hg_thread_plan *tp, struct hg_sched_report *r)
{
	const struct hg_reservation *res = &tp->reservation;
	if (!period_allowed(tp, r))
		return;
	unsigned long long flags = res->mode == HG_RES_SOFT ? SCHED_FLAG_RECLAIM : 0;
	int err = set_deadline(res, flags);
	if (err == EINVAL && flags)
		err = soft_as_hard(tp, r);
	if (err)
		explain(r, tp, err, flags);
	else
		held_add(res);
}

/* The kernel may round what it grants; say so when it differs. */
static void check_granted(const struct hg_thread_plan *tp, struct hg_sched_report *r)
{
	const struct hg_reservation *res = &tp->reservation;
	const struct hg_sched_granted *g = &r->granted;
	uint64_t dl = res->deadline_ns ? res->deadline_ns : res->period_ns;
	if (!g->reservation || (g->runtime_ns == res->budget_ns && g->period_ns == res->period_ns &&
				g->deadline_ns == dl))
		return;
	char b[32], p[32], d[32];
	note(r, false, "%s: reservation granted as budget %s, period %s, deadline %s",
	     tp->os_name, hg_format_duration(g->runtime_ns, b),
	     hg_format_duration(g->period_ns, p), hg_format_duration(g->deadline_ns, d));
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
		     hg_policy_name(p->policy), p->rt_priority, strerror(rc),
		     rc == EPERM ? " (needs root or CAP_SYS_NICE)" : "");
	if ((p->policy == HG_POLICY_OTHER || p->policy == HG_POLICY_BATCH) &&
	    setpriority(PRIO_PROCESS, (id_t)gettid(), p->nice) < 0) {
		int e = errno;
		note(r, p->nice < 0, "%s: nice %d not granted: %s%s", tp->os_name, p->nice,
		     strerror(e), p->nice < 0 && e == EACCES ? " (needs root or CAP_SYS_NICE)"
							     : "");
	}
}

void hg_sched_pin(const struct hg_thread_plan *tp, struct hg_sched_report *r)
{
	memset(r, 0, sizeof(*r));
	apply_affinity(tp, r);
}

void hg_sched_apply(const struct hg_thread_plan *tp, struct hg_sched_report *r)
{
	if (tp->reservation.enabled)
		apply_reservation(tp, r);
	else
		apply_priority(tp, r);
	hg_sched_read(&r->granted);
	if (tp->reservation.enabled)
		check_granted(tp, r);
}

/* ---- reading back ---------------------------------------------------------- */

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

static void read_with_getattr(struct hg_sched_granted *g, const struct sched_attr *a)
{
	g->policy = policy_from_native(a->sched_policy & ~(unsigned)SCHED_RESET_ON_FORK);
	g->priority = (int)a->sched_priority;
	g->nice = a->sched_nice;
	g->reservation = g->policy == HG_POLICY_DEADLINE;
	if (!g->reservation)
		return;  /* for SCHED_OTHER, sched_runtime is the EEVDF slice */
	g->runtime_ns = a->sched_runtime;
	g->deadline_ns = a->sched_deadline;
	g->period_ns = a->sched_period;
	g->reclaim = (a->sched_flags & SCHED_FLAG_RECLAIM) != 0;
}

void hg_sched_read(struct hg_sched_granted *g)
{
	memset(g, 0, sizeof(*g));
	struct sched_attr a;
	memset(&a, 0, sizeof(a));
	if (sys_sched_getattr(&a) == 0) {
		read_with_getattr(g, &a);
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
