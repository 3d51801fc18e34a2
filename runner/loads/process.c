/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load processes: fork one with its lifetime guarantees set up, signal its
 * process group, reap it and whatever is left of its group, and sweep up
 * orphans reparented to hgrun (the child subreaper). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/procstat.h"
#include "base/timeutil.h"
#include "loads/supervisor_internal.h"
#include "plan/keys.h"

int hg_load_fail(struct hg_load_slot *s, const char *fmt, ...)
{
	if (s->error[0])
		return 1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
	return 1;
}

/* ---- in the child ------------------------------------------------------- */

/* Default dispositions and an empty mask: hgrun's threads may block or
 * catch SIGTERM, and a load must die of it. */
static void child_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);   /* EINVAL for libc's own: fine */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static int sched_policy(enum hg_policy p)
{
	switch (p) {
	case HG_POLICY_FIFO: return SCHED_FIFO;
	case HG_POLICY_RR: return SCHED_RR;
	case HG_POLICY_BATCH: return SCHED_BATCH;
	case HG_POLICY_IDLE: return SCHED_IDLE;
	default: return SCHED_OTHER;
	}
}

/* The load's priority, or SCHED_OTHER if the supervisor's was real-time. */
static void child_priority(const struct hg_load_plan *p, struct hg_load_slot *s)
{
	struct sched_param sp = { .sched_priority = 0 };
	if (!p->priority_given) {
		int cur = sched_getscheduler(0);
		if (cur != SCHED_OTHER && cur != SCHED_BATCH && cur != SCHED_IDLE &&
		    sched_setscheduler(0, SCHED_OTHER, &sp) != 0)
			s->sched_error = errno;
		return;
	}
	int policy = sched_policy(p->priority.policy);
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		sp.sched_priority = p->priority.rt_priority;
	if (sched_setscheduler(0, policy, &sp) != 0)
		s->sched_error = errno;
	if ((policy == SCHED_OTHER || policy == SCHED_BATCH) &&
	    setpriority(PRIO_PROCESS, 0, p->priority.nice) != 0)
		s->nice_error = errno;
}

static void child_setup(struct hg_loadrun *lr, struct hg_lsup *s, unsigned i, pid_t parent)
{
	const struct hg_load_plan *p = s->run.plan;
	struct hg_load_slot *slot = s->procs[i].slot;
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)        /* hgrun died before prctl */
		_exit(127);
	child_signals();
	char name[16];
	if (s->run.n_procs > 1)
		snprintf(name, sizeof(name), "%.10s.%u", p->name, i);
	else
		snprintf(name, sizeof(name), "%s", p->name);
	prctl(PR_SET_NAME, name);
	child_priority(p, slot);
	if (sched_setaffinity(0, sizeof(cpu_set_t), p->cpus_all ? &lr->all_cpus : &p->cpus) != 0)
		slot->affinity_error = errno;
	/* Staggered workers (docs/loads.md): worker i waits until start + i *
	 * stagger; the stop's SIGTERM (default action here) ends the wait too. */
	uint64_t stagger = hg_load_stagger(p);
	if (stagger && i) {
		struct timespec at = hg_ns_to_ts(lr->t0 + (int64_t)(p->start_ns + i * stagger));
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR)
			;
	}
	slot->working_from = hg_now_ns();
	atomic_store(&slot->working, 1);
}

/* ---- in hgrun ----------------------------------------------------------- */

int hg_loadproc_spawn(struct hg_loadrun *lr, struct hg_lsup *s, unsigned i)
{
	struct hg_lproc *pr = &s->procs[i];
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		child_setup(lr, s, i, parent);
		_exit(s->ops->run(&s->run, i, pr->slot));
	}
	setpgid(pid, pid);      /* both sides: whichever runs first */
	pr->pid = pid;
	pr->started = hg_now_ns();
	pr->pidfd = pidfd_open(pid, 0);
	return 0;
}

void hg_loadproc_signal(struct hg_lsup *s, int sig)
{
	for (unsigned i = 0; i < s->run.n_procs; i++) {
		struct hg_lproc *pr = &s->procs[i];
		if (pr->pid > 0 && !pr->group_gone)
			killpg(pr->pid, sig);
	}
}

static void reap_leader(struct hg_lproc *pr, int64_t now)
{
	int st;
	struct rusage ru;
	pid_t r = wait4(pr->pid, &st, WNOHANG, &ru);
	if (r == 0 || (r < 0 && errno != ECHILD))
		return;
	pr->reaped = true;
	pr->ended = now;
	if (r == pr->pid) {
		pr->status = st;
		pr->ru = ru;
	} else {
		pr->status = -1;        /* reaped elsewhere (SIGCHLD ignored) */
	}
	if (pr->pidfd >= 0)
		close(pr->pidfd);
	pr->pidfd = -1;
}

static void timeval_add(struct timeval *a, const struct timeval *b)
{
	a->tv_sec += b->tv_sec;
	a->tv_usec += b->tv_usec;
	if (a->tv_usec >= 1000000) {
		a->tv_sec++;
		a->tv_usec -= 1000000;
	}
}

/* Members left in the leader's group (a shell's children, a fork storm's
 * last child): reap those reparented to us, counting their usage with the
 * leader's, then ask whether any remain. */
static void reap_group(struct hg_lproc *pr, int64_t now)
{
	struct rusage ru;
	while (wait4(-pr->pid, NULL, WNOHANG, &ru) > 0) {
		timeval_add(&pr->ru.ru_utime, &ru.ru_utime);
		timeval_add(&pr->ru.ru_stime, &ru.ru_stime);
		pr->ru.ru_minflt += ru.ru_minflt;
		pr->ru.ru_majflt += ru.ru_majflt;
		pr->ru.ru_nvcsw += ru.ru_nvcsw;
		pr->ru.ru_nivcsw += ru.ru_nivcsw;
	}
	if (killpg(pr->pid, 0) != 0 && errno == ESRCH) {
		pr->group_gone = true;
		if (pr->ended < now)
			pr->ended = now;
	}
}

bool hg_loadproc_reap(struct hg_lsup *s, int64_t now)
{
	bool all_gone = true;
	for (unsigned i = 0; i < s->run.n_procs; i++) {
		struct hg_lproc *pr = &s->procs[i];
		if (pr->pid <= 0)
			continue;
		if (!pr->reaped)
			reap_leader(pr, now);
		if (pr->reaped && !pr->group_gone)
			reap_group(pr, now);
		if (!pr->reaped || !pr->group_gone)
			all_gone = false;
	}
	return all_gone;
}

/* The parent pid of process pid, from /proc/pid/stat; -1 if unknown. */
static pid_t parent_of(const char *pid)
{
	char buf[512];
	const char *fields = hg_proc_stat_fields(pid, buf, sizeof(buf));
	char state;
	int ppid;
	if (!fields || sscanf(fields, "%c %d", &state, &ppid) != 2)
		return -1;
	return ppid;
}

/* One pass over /proc: SIGKILL every child of ours; returns their pids. */
static size_t kill_children(pid_t *pids, size_t max)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	pid_t self = getpid();
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (parent_of(e->d_name) != self)
			continue;
		pid_t pid = (pid_t)atoi(e->d_name);
		kill(pid, SIGKILL);
		pids[n++] = pid;
	}
	closedir(d);
	return n;
}

static void reap_within(pid_t pid, int64_t deadline)
{
	while (waitpid(pid, NULL, WNOHANG) == 0 && hg_now_ns() < deadline) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}

unsigned hg_loadproc_sweep_orphans(void)
{
	unsigned total = 0;
	pid_t pids[256];
	int64_t deadline = hg_now_ns() + 2000000000LL;
	/* Killing an orphan orphans its own children, which come to us next. */
	for (int round = 0; round < 32 && hg_now_ns() < deadline; round++) {
		size_t n = kill_children(pids, sizeof(pids) / sizeof(pids[0]));
		if (n == 0)
			break;
		for (size_t i = 0; i < n; i++)
			reap_within(pids[i], deadline);
		total += (unsigned)n;
	}
	return total;
}
