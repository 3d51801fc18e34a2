/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hg_run(): the story of one run.  Check the CPUs, calibrate, lock memory,
 * start one thread per instance, meet them on the start gate, let the
 * watchdog end the run on time, join, and hand the state to the sink
 * (results/: result files, expectations, summary). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "base/cpuset.h"
#include "base/dirlock.h"
#include "base/exitcodes.h"
#include "base/fsutil.h"
#include "base/timeutil.h"
#include "base/units.h"
#include "loads/supervisor.h"
#include "plan/timer.h"
#include "plan/workload.h"
#include "run/footprint.h"
#include "run/host.h"
#include "plan/placement.h"
#include "run/pmqos.h"
#include "run/run.h"
#include "run/run_env.h"
#include "run/runstate.h"
#include "run/signals.h"
#include "run/wake.h"

#define HG_CALIBRATE_MS 100
#define HG_LEAD_NS 5000000LL            /* from `go` to time zero */
#define HG_WORKER_STACK (256 * 1024)

static void utc_now(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	if (n + 6 <= size)
		snprintf(buf + n, size - n, ".%03dZ", (int)(ts.tv_nsec / 1000000) % 1000);
}

/* A CPU of the plan that this machine lacks: an error before anything runs. */
static int check_cpus(const struct hg_plan *plan, FILE *err)
{
	struct hg_missing_cpu m;
	char buf[256];
	if (!hg_plan_missing_cpu(plan, &m))
		return 0;
	fprintf(err, "error: %s: CPU %d is not online here (online: %s)\n", m.path, m.cpu,
		hg_cpuset_format(&m.online, buf, sizeof(buf)));
	return HG_EXIT_INVALID;
}

static struct hg_worker *alloc_workers(const struct hg_run_state *rs)
{
	size_t size = rs->n_workers * sizeof(struct hg_worker);
	struct hg_worker *w = aligned_alloc(64, size ? size : 64);
	if (!w)
		return NULL;
	memset(w, 0, size);
	for (size_t i = 0; i < rs->n_workers; i++) {
		const struct hg_thread_plan *tp = &rs->plan->threads[i];
		uint64_t finish = tp->finish_ns < rs->plan->duration_ns ? tp->finish_ns
									: rs->plan->duration_ns;
		w[i].plan = tp;
		w[i].index = i;
		w[i].cal = &rs->cal;
		w[i].sync = rs->sync;
		w[i].active_ns = finish > tp->start_ns ? finish - tp->start_ns : 0;
		w[i].trace_records = rs->plan->trace_records;
		w[i].gap_ticks = hg_ns_to_ticks(&rs->cal, rs->gap_ns);
		atomic_init(&w[i].done, 0);
	}
	return w;
}

static struct hg_sync *alloc_sync(void)
{
	struct hg_sync *s = aligned_alloc(64, sizeof(*s) + 64 - sizeof(*s) % 64);
	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	atomic_init(&s->stop, 0);
	atomic_init(&s->abort, 0);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	return s;
}

static int start_workers(struct hg_run_state *rs, FILE *err)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, HG_WORKER_STACK);
	int rc = 0;
	for (size_t i = 0; i < rs->n_workers && !rc; i++) {
		struct hg_worker *w = &rs->workers[i];
		rc = pthread_create(&w->thread, &attr, hg_worker_main, w);
		if (rc)
			fprintf(err, "error: %s: cannot start its thread: %s\n", w->plan->os_name,
				strerror(rc));
		else
			w->created = true;
	}
	pthread_attr_destroy(&attr);
	return rc ? HG_EXIT_FAILED : 0;
}

/* Setup failures end the run (1); refused privileges are warnings, or with
 * --strict end it (4). */
static int check_setup(struct hg_run_state *rs, FILE *err)
{
	int rc = 0;
	for (size_t i = 0; i < rs->n_workers; i++) {
		struct hg_worker *w = &rs->workers[i];
		if (w->setup_err) {
			fprintf(err, "error: %s\n", w->setup_msg);
			rc = HG_EXIT_FAILED;
		}
		for (int m = 0; m < w->sched.n_msgs; m++) {
			if (rs->opt->strict && w->sched.privilege_failed)
				fprintf(err, "error: %s; run without --strict to continue without it\n",
					w->sched.msgs[m]);
			else
				hg_run_warn(rs, "%s", w->sched.msgs[m]);
		}
		if (rs->opt->strict && w->sched.privilege_failed && !rc)
			rc = HG_EXIT_PRIVILEGE;
	}
	return rc;
}

/* Time zero: a little after `go`, so that every thread is waiting for it. */
static void set_timeline(struct hg_run_state *rs)
{
	struct hg_sync *s = rs->sync;
	uint64_t a = hg_counter_read();
	int64_t mono = hg_now_ns();
	uint64_t b = hg_counter_read();
	s->hz = rs->cal.hz;
	s->t0_ns = mono + HG_LEAD_NS;
	s->t0_ticks = a / 2 + b / 2 + (a & b & 1) +
		      (uint64_t)((double)HG_LEAD_NS * rs->cal.hz / 1e9);
	s->end_ns = s->t0_ns + (int64_t)rs->plan->duration_ns;
}

/* Waits for every thread at the gate, then either opens it (0) or aborts. */
static int gate(struct hg_run_state *rs, int verdict)
{
	struct hg_sync *s = rs->sync;
	int rc;
	size_t created = 0;
	for (size_t i = 0; i < rs->n_workers; i++)
		created += rs->workers[i].created;
	pthread_mutex_lock(&s->lock);
	while (s->arrived < created)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	FILE *err = rs->opt->err ? rs->opt->err : stderr;
	if (!verdict)
		verdict = check_setup(rs, err);
	if (!verdict)
		verdict = hg_run_lock_memory(rs, err);
	if (!verdict)
		verdict = hg_run_hold_pmqos(rs, err);
	if (!verdict) {
		char msg[PATH_MAX + 128];
		set_timeline(rs);
		if (rs->opt->sink->start && rs->opt->sink->start(rs, msg, sizeof(msg)) < 0) {
			fprintf(err, "error: %s\n", msg);
			verdict = HG_EXIT_FAILED;
		}
	}
	if (!verdict) {
		rs->wd.plan = rs->plan;
		rs->wd.sync = s;
		rs->wd.workers = rs->workers;
		rs->wd.n_workers = rs->n_workers;
		rs->wd.main_thread = pthread_self();
		rs->wd.hard_ns = s->end_ns + HG_WATCHDOG_GRACE_NS;
		if (hg_watchdog_start(&rs->wd) < 0)
			verdict = HG_EXIT_FAILED;
		else if ((rc = hg_loadrun_start(rs->loads, s->t0_ns)) < 0) {
			fprintf(err, "error: cannot start the loads: %s\n", strerror(-rc));
			hg_watchdog_poke(&rs->wd);
			hg_watchdog_join(&rs->wd);
			verdict = HG_EXIT_FAILED;
		}
	}
	if (verdict)
		atomic_store(&s->abort, 1);
	pthread_mutex_lock(&s->lock);
	s->go = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return verdict;
}

/* Joins every thread that stopped; returns how many did not. */
static size_t join_workers(struct hg_run_state *rs, bool bounded)
{
	size_t stuck = 0;
	for (size_t i = 0; i < rs->n_workers; i++) {
		struct hg_worker *w = &rs->workers[i];
		if (!w->created || w->joined)
			continue;
		if (bounded && !atomic_load(&w->done)) {
			struct timespec ts = hg_ns_to_ts(hg_clock_ns(CLOCK_REALTIME) + 200000000);
			if (pthread_timedjoin_np(w->thread, NULL, &ts) != 0) {
				stuck++;
				hg_run_warn(rs, "%s did not stop by the run's end + %lld ms; its "
					    "numbers may be incomplete", w->plan->os_name,
					    HG_WATCHDOG_GRACE_NS / 1000000);
				continue;
			}
		} else {
			pthread_join(w->thread, NULL);
		}
		w->joined = true;
	}
	return stuck;
}

/* The counter's rate against CLOCK_MONOTONIC over the whole run (the
 * calibration is against CLOCK_MONOTONIC_RAW, which NTP does not slew):
 * trace times then share one clock with everything else in the result. */
static double monotonic_rate(const struct hg_run_state *rs)
{
	const struct hg_sync *s = rs->sync;
	uint64_t a = hg_counter_read();
	int64_t mono = hg_now_ns();
	uint64_t b = hg_counter_read();
	uint64_t ticks = a / 2 + b / 2 + (a & b & 1);
	if (!s || !s->t0_ns || mono - s->t0_ns < 100000000 || ticks <= s->t0_ticks)
		return rs->cal.hz;
	return (double)(ticks - s->t0_ticks) * 1e9 / (double)(mono - s->t0_ns);
}

static void free_state(struct hg_run_state *rs, bool workers_stopped)
{
	for (size_t i = 0; workers_stopped && rs->workers && i < rs->n_workers; i++)
		if (rs->workers[i].joined || !rs->workers[i].created)
			hg_worker_cleanup(&rs->workers[i]);
	if (workers_stopped) {
		free(rs->workers);
		free(rs->sync);
	}
	free(rs->nums);
	hg_loadrun_destroy(rs->loads);
	if (rs->opt->observer)
		rs->opt->observer->free(rs);
	if (rs->memory_locked)
		munlockall();
	hg_pmqos_release(rs->pmqos_fd);
	json_decref(rs->host);
	json_decref(rs->warnings);
	json_decref(rs->expectations);
}

static void append_load_warnings(struct hg_run_state *rs)
{
	json_t *w = hg_loadrun_warnings(rs->loads);
	json_array_extend(rs->warnings, w);
	json_decref(w);
}

/* Threads and loads whose window the run's duration leaves empty (a
 * --duration --cut shorter than their start): said in result.json, since
 * their numbers are zeros and their expectations have nothing to judge. */
static void warn_cut(struct hg_run_state *rs)
{
	const struct hg_plan *plan = rs->plan;
	char a[32], b[32];
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_thread_plan *tp = &plan->threads[i];
		uint64_t end = tp->finish_ns < plan->duration_ns ? tp->finish_ns : plan->duration_ns;
		if (tp->start_ns >= end)
			hg_run_warn(rs, "%s does not run: its start %s is at or after the run's end %s "
				    "(the duration was cut); its numbers are zeros and its expectations "
				    "fail as nothing measured", tp->os_name,
				    hg_format_duration(tp->start_ns, a), hg_format_duration(end, b));
	}
	for (size_t i = 0; i < plan->n_loads; i++) {
		const struct hg_load_plan *l = &plan->loads[i];
		uint64_t end = l->stop_ns < plan->duration_ns ? l->stop_ns : plan->duration_ns;
		if (l->start_ns >= end)
			hg_run_warn(rs, "load %s does not run: its start %s is at or after the run's end "
				    "%s (the duration was cut)", l->name, hg_format_duration(l->start_ns, a),
				    hg_format_duration(end, b));
	}
}

/* One writer per run directory (base/dirlock.h): held until hg_run
 * returns.  -o DIR comes locked (results/outdir.h: from its check to the
 * end); a new default directory is locked right after it is made. */
static int lock_dir(struct hg_run_state *rs, FILE *err)
{
	char holder[256], what[128];
	snprintf(what, sizeof(what), "hgrun run %.100s", rs->plan->name);
	int rc = hg_dirlock_take_at(rs->dir_fd, HG_DIRLOCK_NAME, what, &rs->lock, holder,
				    sizeof(holder));
	if (rc == -EBUSY) {
		fprintf(err, "hgrun: %s: another hgrun is writing there (%s); wait for it to end, "
			"or choose another directory\n", rs->dir, holder);
		return HG_EXIT_USAGE;
	}
	if (rc) {
		fprintf(err, "error: cannot lock the result directory %s: %s\n", rs->dir,
			strerror(-rc));
		return HG_EXIT_FAILED;
	}
	return 0;
}

/* Everything before the threads exist; returns 0 or an exit code. */
static int prepare(struct hg_run_state *rs, FILE *err)
{
	int rc = check_cpus(rs->plan, err);
	if (rc)
		return rc;
	struct hg_footprint fp;
	char why[512];
	hg_footprint_of(rs->plan, &fp);
	if (hg_footprint_check(&fp, rs->plan, why, sizeof(why)) != 0) {
		fprintf(err, "error: %s\n", why);
		return HG_EXIT_FAILED;
	}
	rc = hg_counter_calibrate_kept(&rs->cal, HG_CALIBRATE_MS);
	if (rc < 0) {
		fprintf(err, "error: cannot calibrate the cycle counter: %s\n", strerror(-rc));
		return HG_EXIT_FAILED;
	}
	rs->gap_ns = rs->plan->gap_auto ? rs->cal.gap_auto_ns : rs->plan->gap_ns;
	rs->host = hg_host_capture();
	hg_run_warn_environment(rs);
	warn_cut(rs);
	if (rs->opt->observer && (rc = rs->opt->observer->start(rs, err)) != 0)
		return rc;
	char msg[PATH_MAX + 128];
	utc_now(rs->started_utc, sizeof(rs->started_utc));
	if (rs->opt->sink->open(rs, msg, sizeof(msg)) < 0 ||
	    (rs->lock.fd < 0 && (rc = lock_dir(rs, err)) != 0) ||
	    !(rs->loads = hg_loadrun_create(rs->plan, rs->dir_fd, rs->dir, msg, sizeof(msg)))) {
		if (!rc)
			fprintf(err, "error: %s\n", msg);
		return rc ? rc : HG_EXIT_FAILED;
	}
	if (hg_run_plan_has_rt(rs->plan) && (rc = hg_watchdog_rttime(rs->plan->duration_ns)) < 0)
		hg_run_warn(rs, "RLIMIT_RTTIME not set: %s", strerror(-rc));
	rs->sync = alloc_sync();
	rs->workers = rs->sync ? alloc_workers(rs) : NULL;
	if (!rs->workers) {
		fprintf(err, "error: out of memory\n");
		return HG_EXIT_FAILED;
	}
	return 0;
}

int hg_run(const struct hg_plan *plan, const struct hg_run_options *opt)
{
	FILE *out = opt->out ? opt->out : stdout, *err = opt->err ? opt->err : stderr;
	struct hg_run_state rs = { .plan = plan, .opt = opt, .n_workers = plan->n_threads,
				   .pmqos_fd = -1, .dir_fd = -1, .lock = { .dir = -1, .fd = -1 } };
	if (opt->out_dir && opt->lock) {      /* taken over: released when the run is over */
		rs.lock = *opt->lock;
		opt->lock->dir = opt->lock->fd = -1;
	}
	rs.warnings = json_array();
	for (const char *s = opt->note; s && *s;) {      /* a warning a line */
		size_t n = strcspn(s, "\n");
		if (n)
			json_array_append_new(rs.warnings, json_stringn(s, n));
		s += n + (s[n] == '\n');
	}
	rs.expectations = json_array();
	sigset_t waited, old;
	/* From the very start: a Ctrl-C during calibration or setup waits for
	 * the run's own handling (a result with complete: false). */
	hg_run_block_signals(&waited, &old);
	int rc = prepare(&rs, err);
	if (rc) {
		if (opt->sink->close && rs.dir[0])
			opt->sink->close(&rs);
		hg_dirlock_release(&rs.lock);
		free_state(&rs, true);
		if (rs.dir_fd >= 0)
			close(rs.dir_fd);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return rc;
	}
	rc = start_workers(&rs, err);
	rc = gate(&rs, rc);
	bool stopped = true;
	if (rc) {
		atomic_store(&rs.sync->stop, 1);
		join_workers(&rs, false);
		hg_loadrun_stop_all(rs.loads);
	} else {
		rs.complete = true;
		/* main waits off the measured CPUs: its signal wait wakes every
		 * second.  Back where it was afterwards, for the next run of a
		 * sweep (the load supervisor it starts inherits its affinity). */
		cpu_set_t cpus;
		bool moved = hg_placement_off_measured(plan, &cpus);
		hg_run_wait_end(&rs, &waited);
		if (moved)
			pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus);
		hg_watchdog_join(&rs.wd);
		if (!rs.wd.rt_granted && hg_run_any_rt_granted(&rs))
			hg_run_warn(&rs, "the watchdog did not get SCHED_FIFO 99 (%s): it cannot "
				    "preempt real-time threads", strerror(rs.wd.rt_error));
		stopped = join_workers(&rs, atomic_load(&rs.wd.gave_up)) == 0;
		hg_loadrun_stop_all(rs.loads);
		append_load_warnings(&rs);
		if (!stopped || rs.signal)
			rs.complete = false;
	}
	if (opt->sink->stop)
		opt->sink->stop(&rs);
	utc_now(rs.finished_utc, sizeof(rs.finished_utc));
	if (opt->observer)
		opt->observer->stop(&rs);
	if (rc != HG_EXIT_PRIVILEGE && rc != HG_EXIT_INVALID) {
		rs.trace_hz = monotonic_rate(&rs);
		opt->sink->finish(&rs, rc, out, err);
	}
	else
		rs.exit_status = rc;
	if (opt->sink->close && rs.dir[0])
		opt->sink->close(&rs);
	hg_dirlock_release(&rs.lock);
	/* Nothing was run: leave no empty result directory of its own making
	 * (-o DIR is its claimer's to remove: results/outdir.h). */
	if (rs.exit_status == HG_EXIT_PRIVILEGE && rs.dir[0] && !opt->out_dir)
		rmdir(rs.dir);
	rc = rs.exit_status;
	free_state(&rs, stopped);
	if (rs.dir_fd >= 0)
		close(rs.dir_fd);
	hg_run_drain_signals();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}
