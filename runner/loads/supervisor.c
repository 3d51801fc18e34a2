/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load supervisor: prepares the loads, then one thread ("hg-loads")
 * starts and stops them on the run's timeline.  It sleeps in poll() on an
 * absolute CLOCK_MONOTONIC timerfd (the next start, stop or SIGKILL time),
 * an eventfd (hg_loadrun_stop_all) and the pidfds of the load processes (a
 * process that exits is reaped at once), so it reacts promptly to all three
 * and never polls while nothing happens. */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "base/jsonfmt.h"
#include "base/timeutil.h"
#include "loads/supervisor.h"
#include "loads/supervisor_internal.h"
#include "plan/keys.h"
#include "plan/placement.h"

#define GIVE_UP_NS 10000000000LL        /* after SIGKILL: a process stuck in D state */
#define GROUP_TICK_NS 5000000LL         /* polling groups whose leader is gone */

/* ---- timeline ----------------------------------------------------------- */

static void start_load(struct hg_loadrun *lr, struct hg_lsup *s)
{
	unsigned started = 0;
	for (unsigned i = 0; i < s->run.n_procs; i++) {
		int rc = hg_loadproc_spawn(lr, s, i);
		if (rc < 0) {
			hg_json_appendf(s->warnings, "fork of process %u failed: %s", i, strerror(-rc));
			break;
		}
		started++;
	}
	s->started = started ? s->procs[0].started : 0;
	s->state = started ? HG_L_RUNNING : HG_L_DONE;
	/* A shorter --duration can move the stop before a staggered worker's
	 * start (validation sees the scenario's own stop): say so. */
	const struct hg_load_plan *p = s->run.plan;
	uint64_t stagger = hg_load_stagger(p);
	if (stagger && started > 1 && p->stop_ns > p->start_ns) {
		uint64_t first_idle = (p->stop_ns - p->start_ns + stagger - 1) / stagger;
		char which[48];
		if (first_idle + 1 == started)
			snprintf(which, sizeof(which), "worker %u starts", started - 1);
		else
			snprintf(which, sizeof(which), "workers %llu..%u start",
				 (unsigned long long)first_idle, started - 1);
		if (first_idle < started)
			hg_json_appendf(s->warnings, "%s after the stop (stagger %.3f s): did not run",
					which, (double)stagger / 1e9);
	}
}

static void begin_stop(struct hg_loadrun *lr, struct hg_lsup *s, int64_t now)
{
	s->term_at = now;
	s->kill_at = now + (s->ops->grace_ns && lr->grace_ns == HG_LOADRUN_GRACE_NS
			    ? s->ops->grace_ns : lr->grace_ns);
	hg_loadproc_signal(s, SIGTERM);
	s->state = HG_L_STOPPING;
}

static void send_sigkill(struct hg_lsup *s, int64_t now)
{
	for (unsigned i = 0; i < s->run.n_procs; i++) {
		struct hg_lproc *pr = &s->procs[i];
		if (pr->pid > 0 && !pr->reaped)
			pr->killed = true;
		else if (pr->pid > 0 && !pr->group_gone)
			s->stragglers++;
	}
	hg_loadproc_signal(s, SIGKILL);
	s->sigkill_sent = true;
	s->kill_at = now + GIVE_UP_NS;
}

static void finish(struct hg_lsup *s, int64_t now)
{
	s->stopped = 0;
	for (unsigned i = 0; i < s->run.n_procs; i++)
		if (s->procs[i].ended > s->stopped)
			s->stopped = s->procs[i].ended;
	if (!s->stopped)
		s->stopped = now;
	s->state = HG_L_DONE;
	if (s->ops->ended && s->started && s->ops->ended(&s->run, s->procs[0].slot))
		atomic_store(&s->counted, true);
}

static bool leaders_watched(const struct hg_lsup *s)
{
	for (unsigned i = 0; i < s->run.n_procs; i++)
		if (s->procs[i].pid > 0 && !s->procs[i].reaped && s->procs[i].pidfd < 0)
			return false;
	for (unsigned i = 0; i < s->run.n_procs; i++)
		if (s->procs[i].pid > 0 && !s->procs[i].reaped)
			return true;
	return false;   /* only groups left: poll them */
}

static void stopping(struct hg_lsup *s, int64_t now, int64_t *next)
{
	if (hg_loadproc_reap(s, now)) {
		finish(s, now);
		return;
	}
	if (now >= s->kill_at) {
		if (s->sigkill_sent) {
			hg_json_appendf(s->warnings,
					"processes still there %llds after SIGKILL (uninterruptible sleep?); given up",
					GIVE_UP_NS / HG_NS_PER_SEC);
			s->state = HG_L_DONE;
			s->stopped = now;
			return;
		}
		send_sigkill(s, now);
	}
	int64_t at = leaders_watched(s) ? s->kill_at : now + GROUP_TICK_NS;
	if (at > s->kill_at)
		at = s->kill_at;
	if (at < *next)
		*next = at;
}

/* Advances one load; lowers *next to the time it next needs attention. */
/* A start or stop more than this late is reported: the load did not run in
 * the window the scenario gave it. */
#define LATE_NS 5000000

static void step(struct hg_loadrun *lr, struct hg_lsup *s, int64_t now, bool stop, int64_t *next)
{
	const struct hg_load_plan *p = s->run.plan;
	if (s->state == HG_L_PENDING) {
		if (stop) {
			s->state = HG_L_DONE;
			return;
		}
		if (now < lr->t0 + (int64_t)p->start_ns) {
			if (lr->t0 + (int64_t)p->start_ns < *next)
				*next = lr->t0 + (int64_t)p->start_ns;
			return;
		}
		int64_t late = now - (lr->t0 + (int64_t)p->start_ns);
		if (late > LATE_NS)
			s->late_start_ns = late;    /* said, with why, by hg_loadrun_warnings */
		start_load(lr, s);
	}
	if (s->state == HG_L_RUNNING) {
		int64_t stop_at = lr->t0 + (int64_t)p->stop_ns;
		if (hg_loadproc_reap(s, now)) {
			s->ended_early = true;  /* every process ended on its own */
			finish(s, now);
			return;
		}
		if (!stop && now - stop_at > LATE_NS)
			s->late_stop_ns = now - stop_at;
		if (stop || now >= stop_at)
			begin_stop(lr, s, now);
		else if (!leaders_watched(s) && now + GROUP_TICK_NS < stop_at)
			*next = *next < now + GROUP_TICK_NS ? *next : now + GROUP_TICK_NS;
		else if (stop_at < *next)
			*next = stop_at;
	}
	if (s->state == HG_L_STOPPING)
		stopping(s, now, next);
}

/* Sleeps until `next` (absolute), a stop request or a process exit. */
static void wait_event(struct hg_loadrun *lr, int64_t next, struct pollfd *fds)
{
	nfds_t n = 0;
	fds[n++] = (struct pollfd){ .fd = lr->evfd, .events = POLLIN };
	fds[n++] = (struct pollfd){ .fd = lr->tfd, .events = POLLIN };
	for (size_t i = 0; i < lr->n_loads; i++) {
		struct hg_lsup *s = &lr->loads[i];
		for (unsigned j = 0; s->procs && j < s->run.n_procs; j++)
			if (s->procs[j].pid > 0 && !s->procs[j].reaped && s->procs[j].pidfd >= 0)
				fds[n++] = (struct pollfd){ .fd = s->procs[j].pidfd, .events = POLLIN };
	}
	struct itimerspec its = { .it_value = { 0, 0 } };
	if (next != INT64_MAX) {
		its.it_value = hg_ns_to_ts(next);
	}
	timerfd_settime(lr->tfd, TFD_TIMER_ABSTIME, &its, NULL);
	if (poll(fds, n, -1) < 0)
		return;         /* EINTR: just look again */
	uint64_t v;
	if (fds[0].revents & POLLIN)
		(void)!read(lr->evfd, &v, sizeof(v));
	if (fds[1].revents & POLLIN)
		(void)!read(lr->tfd, &v, sizeof(v));
}

static size_t total_procs(const struct hg_loadrun *lr)
{
	size_t n = 0;
	for (size_t i = 0; i < lr->n_loads; i++)
		n += lr->loads[i].run.n_procs;
	return n;
}

/* Above every process of the run: SCHED_OTHER ones (the loads by default)
 * and the scenario's own FIFO/RR threads and loads, so that real-time
 * threads spinning on every CPU cannot hold back a load's start or stop.
 * It sleeps between events; its work at a start or stop is the load's. */
static void raise_priority(const struct hg_plan *plan)
{
	int prio = HG_LOADRUN_RT_PRIORITY;
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_priority *p = &plan->threads[i].priority;
		if ((p->policy == HG_POLICY_FIFO || p->policy == HG_POLICY_RR) && p->rt_priority >= prio)
			prio = p->rt_priority + 1;
	}
	for (size_t i = 0; i < plan->n_loads; i++) {
		const struct hg_load_plan *l = &plan->loads[i];
		if (l->priority_given && (l->priority.policy == HG_POLICY_FIFO ||
					  l->priority.policy == HG_POLICY_RR) &&
		    l->priority.rt_priority >= prio)
			prio = l->priority.rt_priority + 1;
	}
	struct sched_param sp = { .sched_priority = prio > 99 ? 99 : prio };
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}


static void *supervise(void *arg)
{
	struct hg_loadrun *lr = arg;
	/* Off the measured CPUs when some CPU is left over: at its FIFO
	 * priority, above every measuring thread's, each of its wake-ups (a
	 * load's start or stop, a child's exit, the series' samples) would
	 * otherwise preempt a measuring thread there.  The loads it forks set
	 * their own CPUs (loads/process.c), from main's affinity (lr->all_cpus). */
	hg_placement_off_measured(lr->plan, NULL);
	raise_priority(lr->plan);
	struct pollfd *fds = calloc(2 + total_procs(lr), sizeof(*fds));
	for (;;) {
		int64_t now = hg_now_ns(), next = INT64_MAX;
		bool stop = atomic_load(&lr->stop_req), all_done = true;
		for (size_t i = 0; i < lr->n_loads; i++) {
			step(lr, &lr->loads[i], now, stop, &next);
			all_done &= lr->loads[i].state == HG_L_DONE;
		}
		if (stop && all_done)
			break;
		if (fds)
			wait_event(lr, next, fds);
	}
	free(fds);
	if (lr->subreaper_set)
		lr->orphans_killed = hg_loadproc_sweep_orphans();
	if (lr->orphans_killed)
		hg_json_appendf(lr->warnings,
				"%u processes started by loads had left their process group (setsid?) and were killed at the end",
				lr->orphans_killed);
	return NULL;
}

/* ---- lifecycle ---------------------------------------------------------- */

static int prepare_load(struct hg_loadrun *lr, size_t i, char *err, size_t errlen)
{
	struct hg_lsup *s = &lr->loads[i];
	const struct hg_load_plan *p = &lr->plan->loads[i];
	char msg[256] = "";
	s->run.plan = p;
	s->run.result_dir = lr->result_dir;
	s->run.result_dir_fd = lr->result_dir_fd;
	s->run.n_procs = (unsigned)hg_load_workers(p);
	if (!s->run.n_procs)
		s->run.n_procs = 1;   /* prepare decides (cpu: one per CPU) */
	s->ops = p->ops;
	s->warnings = json_array();
	s->prepared = true;     /* cleanup undoes a failed prepare too */
	if (s->ops->prepare) {
		int rc = s->ops->prepare(&s->run, msg, sizeof(msg));
		if (rc < 0) {
			snprintf(err, errlen, "load '%s' (%s): %s", p->name, s->ops->name,
				 msg[0] ? msg : strerror(-rc));
			return rc;
		}
	}
	if (s->run.n_procs == 0)
		s->run.n_procs = 1;
	return 0;
}

static int map_slots(struct hg_loadrun *lr, char *err, size_t errlen)
{
	size_t n = total_procs(lr);
	if (n == 0)
		return 0;
	lr->slots_bytes = n * sizeof(struct hg_load_slot);
	void *m = mmap(NULL, lr->slots_bytes, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		int e = errno;
		snprintf(err, errlen, "loads: mmap of %zu bytes of shared statistics: %s",
			 lr->slots_bytes, strerror(e));
		lr->slots_bytes = 0;
		return -e;
	}
	lr->slots = m;
	size_t k = 0;
	for (size_t i = 0; i < lr->n_loads; i++) {
		struct hg_lsup *s = &lr->loads[i];
		s->procs = calloc(s->run.n_procs, sizeof(*s->procs));
		if (!s->procs) {
			snprintf(err, errlen, "loads: out of memory");
			return -ENOMEM;
		}
		for (unsigned j = 0; j < s->run.n_procs; j++) {
			s->procs[j].pidfd = -1;
			s->procs[j].slot = &lr->slots[k++];
		}
	}
	return 0;
}

static int open_fds(struct hg_loadrun *lr, char *err, size_t errlen)
{
	lr->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	lr->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (lr->evfd < 0 || lr->tfd < 0) {
		int e = errno;
		snprintf(err, errlen, "loads: eventfd/timerfd: %s", strerror(e));
		return -e;
	}
	if (lr->n_loads && prctl(PR_GET_CHILD_SUBREAPER, &lr->prev_subreaper) == 0 &&
	    prctl(PR_SET_CHILD_SUBREAPER, 1) == 0)
		lr->subreaper_set = true;
	else if (lr->n_loads)
		hg_json_appendf(lr->warnings,
				"PR_SET_CHILD_SUBREAPER failed (%s): processes that leave a load's process group are not tracked",
				strerror(errno));
	return 0;
}

struct hg_loadrun *hg_loadrun_create(const struct hg_plan *plan, int dir_fd,
				     const char *result_dir, char *err, size_t errlen)
{
	struct hg_loadrun *lr = calloc(1, sizeof(*lr));
	if (!lr) {
		snprintf(err, errlen, "loads: out of memory");
		return NULL;
	}
	lr->plan = plan;
	lr->evfd = lr->tfd = -1;
	lr->grace_ns = HG_LOADRUN_GRACE_NS;
	lr->warnings = json_array();
	lr->result_dir = strdup(result_dir ? result_dir : ".");
	lr->result_dir_fd = dir_fd;
	lr->n_loads = plan->n_loads;
	lr->loads = calloc(lr->n_loads ? lr->n_loads : 1, sizeof(*lr->loads));
	if (!lr->result_dir || !lr->loads) {
		snprintf(err, errlen, "loads: out of memory");
		hg_loadrun_destroy(lr);
		return NULL;
	}
	if (sched_getaffinity(0, sizeof(lr->all_cpus), &lr->all_cpus) != 0)
		CPU_ZERO(&lr->all_cpus);
	int rc = 0;
	for (size_t i = 0; i < lr->n_loads && rc == 0; i++)
		rc = prepare_load(lr, i, err, errlen);
	if (rc == 0)
		rc = map_slots(lr, err, errlen);
	if (rc == 0)
		rc = open_fds(lr, err, errlen);
	if (rc != 0) {
		lr->stopped = true;     /* nothing was started */
		hg_loadrun_destroy(lr);
		return NULL;
	}
	return lr;
}

int hg_loadrun_start(struct hg_loadrun *lr, int64_t t0_monotonic_ns)
{
	lr->t0 = t0_monotonic_ns;
	if (lr->n_loads == 0 || lr->thread_running || lr->stopped)
		return 0;
	int rc = pthread_create(&lr->thread, NULL, supervise, lr);
	if (rc != 0)
		return -rc;
	pthread_setname_np(lr->thread, "hg-loads");
	lr->thread_running = true;
	return 0;
}

void hg_loadrun_stop_all(struct hg_loadrun *lr)
{
	if (!lr || lr->stopped)
		return;
	atomic_store(&lr->stop_req, true);
	uint64_t one = 1;
	if (lr->evfd >= 0)
		(void)!write(lr->evfd, &one, sizeof(one));
	if (lr->thread_running)
		pthread_join(lr->thread, NULL);
	lr->thread_running = false;
	lr->stopped = true;
	/* Every load process is gone: what they made beside their files goes
	 * now, in this thread (not the real-time supervisor's), and what stays
	 * is said before result.json is written. */
	for (size_t i = 0; i < lr->n_loads; i++) {
		struct hg_lsup *s = &lr->loads[i];
		const char *left = s->prepared && s->ops->tidy ? s->ops->tidy(&s->run, s->warnings)
							       : NULL;
		if (left) {
			snprintf(s->left, sizeof(s->left), "%s", left);
			atomic_store_explicit(&s->left_set, true, memory_order_release);
		}
	}
}

void hg_loadrun_destroy(struct hg_loadrun *lr)
{
	if (!lr)
		return;
	hg_loadrun_stop_all(lr);
	for (size_t i = 0; i < lr->n_loads; i++) {
		struct hg_lsup *s = &lr->loads[i];
		if (s->prepared && s->ops->cleanup)
			s->ops->cleanup(&s->run);
		free(s->procs);
		json_decref(s->warnings);
	}
	if (lr->slots)
		munmap(lr->slots, lr->slots_bytes);
	if (lr->evfd >= 0)
		close(lr->evfd);
	if (lr->tfd >= 0)
		close(lr->tfd);
	if (lr->subreaper_set)
		prctl(PR_SET_CHILD_SUBREAPER, lr->prev_subreaper);
	json_decref(lr->warnings);
	free(lr->loads);
	free(lr->result_dir);
	free(lr);
}

void hg_loadrun_note_stopped(struct hg_loadrun *lr)
{
	if (lr)
		atomic_store(&lr->was_stopped, true);
}

bool hg_loadrun_sample(const struct hg_loadrun *lr, size_t i,
		       uint64_t counters[HG_LOAD_NCOUNTERS])
{
	memset(counters, 0, HG_LOAD_NCOUNTERS * sizeof(*counters));
	if (!lr || i >= lr->n_loads || !lr->loads[i].procs)
		return false;
	const struct hg_lsup *s = &lr->loads[i];
	if (s->ops->counts_at_end && !atomic_load(&s->counted))
		return false;
	for (unsigned p = 0; p < s->run.n_procs; p++)
		for (unsigned c = 0; c < HG_LOAD_NCOUNTERS; c++)
			counters[c] += atomic_load_explicit(&s->procs[p].slot->counters[c],
							    memory_order_relaxed);
	return true;
}

bool hg_loadrun_window(const struct hg_loadrun *lr, size_t i, int64_t *from_ns, int64_t *to_ns)
{
	if (!lr || i >= lr->n_loads || !lr->loads[i].started)
		return false;
	const struct hg_lsup *s = &lr->loads[i];
	*from_ns = s->started - lr->t0;
	*to_ns = (s->term_at ? s->term_at : s->stopped) - lr->t0;
	return true;
}
