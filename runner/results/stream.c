/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The streaming writer's thread and its life: drain every ring (each
 * record: results/stream_records.c), emit series lines, checkpoint, report
 * progress; sleep a little; again.  It runs at SCHED_OTHER nice
 * HG_WRITER_NICE, on CPUs no measuring thread is bound to where there are
 * such CPUs (docs/results.md). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/cpuset.h"
#include "base/fsutil.h"
#include "base/timeutil.h"
#include "base/units.h"
#include "plan/keys.h"
#include "plan/workload.h"
#include "plan/placement.h"
#include "results/binfile.h"
#include "results/cpucheck.h"
#include "results/not_received.h"
#include "results/outliers.h"
#include "results/progress.h"
#include "results/series.h"
#include "results/stream.h"
#include "results/stream_internal.h"

#define HG_WRITER_NICE 5
#define HG_POLL_NS 50000000LL          /* between drains, at most */

/* Waits ns, or less when hg_stream_stop asks: the last drain need not wait
 * out a whole poll (up to 50 ms added to every run's end). */
static void pause_unless_stopped(struct hg_stream *s, int64_t ns)
{
	struct timespec until = hg_ns_to_ts(hg_now_ns() + ns);
	pthread_mutex_lock(&s->wake_lock);
	while (!atomic_load(&s->stop) &&
	       pthread_cond_timedwait(&s->wake, &s->wake_lock, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&s->wake_lock);
}

static int init_wake(struct hg_stream *s)
{
	pthread_condattr_t attr;
	int rc = pthread_condattr_init(&attr);
	if (!rc)
		rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!rc)
		rc = pthread_cond_init(&s->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (!rc && (rc = pthread_mutex_init(&s->wake_lock, NULL)))
		pthread_cond_destroy(&s->wake);
	return -rc;
}

/* Off the measured CPUs when some CPU is left over, at a low priority. */
static void place_writer(const struct hg_plan *plan)
{
	hg_placement_off_measured(plan, NULL);
	setpriority(PRIO_PROCESS, (id_t)gettid(), HG_WRITER_NICE);
}

static void *writer_main(void *arg)
{
	struct hg_stream *s = arg;
	struct hg_run_state *rs = s->rs;
	pthread_setname_np(pthread_self(), "hg-writer");
	place_writer(rs->plan);
	hg_progress_start(&s->progress, rs, s->mode, s->start_note);
	for (;;) {
		bool stopping = atomic_load(&s->stop);
		hg_stream_drain(s);
		int64_t mono = hg_now_ns(), now = mono - rs->sync->t0_ns;
		hg_stream_update_rate(s, mono);
		if (stopping)
			break;
		s->covers_ns = now - s->lag_ns > 0 ? now - s->lag_ns : 0;
		int rc = hg_series_emit(s->series, s->covers_ns, false);
		if (rc)
			hg_stream_fail(s, rc, "series.jsonl");
		hg_outliers_tick(s->outliers, s->covers_ns);
		/* A second behind: an interval is handed over when it ends. */
		hg_nr_fold(s->nr, now - HG_NS_PER_SEC);
		if (now - s->last_checkpoint >= HG_CHECKPOINT_NS) {
			s->last_checkpoint = now;
			s->checkpoint(s, rs);
		}
		hg_progress_tick(&s->progress, rs, s->tot, now, false);
		pause_unless_stopped(s, s->poll_ns);
	}
	int64_t end = rs->sync->end_ns < hg_now_ns() ? rs->sync->end_ns : hg_now_ns();
	s->covers_ns = end - rs->sync->t0_ns;
	int rc = hg_series_emit(s->series, s->covers_ns, true);
	if (rc)
		hg_stream_fail(s, rc, "series.jsonl");
	hg_outliers_tick(s->outliers, INT64_MAX);
	hg_nr_fold(s->nr, INT64_MAX);
	hg_progress_tick(&s->progress, rs, s->tot, s->covers_ns, true);
	if ((rc = hg_series_flush(s->series, false)))
		hg_stream_fail(s, rc, "series.jsonl");
	if ((rc = hg_binfile_sync(&s->trace)))
		hg_stream_fail(s, rc, "trace.bin");
	if ((rc = hg_binfile_sync(&s->latency)))
		hg_stream_fail(s, rc, "latency.bin");
	/* The measuring is over: a checkpoint covering all of it before the
	 * attribution and the summary, so a run killed during those still reads
	 * as whole up to its end (docs/results.md, Checkpoints). */
	s->checkpoint(s, rs);
	s->writer_cpu_ns = (uint64_t)hg_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

static int open_file(struct hg_stream *s, const char *name, const char *kind,
		     struct hg_binfile *b, char *err, size_t errlen)
{
	int rc = hg_binfile_open_at(b, s->rs->dir_fd, name, kind);
	if (rc)
		snprintf(err, errlen, "cannot create %s/%s: %s", s->rs->dir, name, strerror(-rc));
	return rc;
}

/* The budget: trace.budget, and the free disk less a margin (5 %, at
 * least 64 MiB), whichever is smaller; s->limit_why says which, in words. */
static uint64_t byte_limit(struct hg_stream *s)
{
	uint64_t limit = s->rs->plan->trace.budget_bytes;
	int64_t free_b = hg_free_bytes_fd(s->rs->dir_fd);
	char a[32], b[32], c[32];
	if (limit)
		snprintf(s->limit_why, sizeof(s->limit_why), "trace.budget %s",
			 hg_format_size_approx(limit, a));
	if (free_b >= 0) {
		uint64_t f = (uint64_t)free_b;
		uint64_t margin = f / 20 > (64u << 20) ? f / 20 : (64u << 20);
		uint64_t disk = f > margin ? f - margin : 1;
		if (!limit || disk < limit) {
			limit = disk;
			if (f <= margin)
				snprintf(s->limit_why, sizeof(s->limit_why), "less than %s free on %.100s "
					 "(%s): hgrun keeps that much for the rest of the machine and writes "
					 "no traces past it", hg_format_size_approx(margin, a), s->rs->dir,
					 hg_format_size_approx(f, b));
			else
				snprintf(s->limit_why, sizeof(s->limit_why), "%s: the free space on %.100s "
					 "(%s) less %s kept for the rest of the machine",
					 hg_format_size_approx(disk, a), s->rs->dir,
					 hg_format_size_approx(f, b), hg_format_size_approx(margin, c));
		}
	}
	return limit;
}

/* A rough size of trace.bin + latency.bin in full mode: per thread a
 * record per scheduler tick (HZ 1000 at most) and per gap-free stretch
 * its workload ends on purpose (a job, a wake-up, a yield: capped at
 * 100000 a second), over its active time. */
static uint64_t estimate_bytes(const struct hg_plan *plan)
{
	double total = 0;
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_thread_plan *tp = &plan->threads[i];
		const struct hg_workload_spec *w = &tp->workload;
		uint64_t finish = tp->finish_ns < plan->duration_ns ? tp->finish_ns : plan->duration_ns;
		double secs = finish > tp->start_ns ? (double)(finish - tp->start_ns) / 1e9 : 0;
		double per_s = 1000;
		uint64_t period = hg_workload_period(w);
		uint64_t yield_after = hg_workload_yield_after(w);
		if (period)
			per_s += 2e9 / (double)period;
		if (yield_after)
			per_s += 1e9 / (double)yield_after;
		total += (per_s < 100000 ? per_s : 100000) * secs * 32;
	}
	return (uint64_t)total;
}

static void warn_estimate(struct hg_stream *s)
{
	if (s->mode != HG_TRACE_FULL || !s->limit_bytes)
		return;
	uint64_t est = estimate_bytes(s->rs->plan);
	if (est <= s->limit_bytes)
		return;
	char a[32];
	snprintf(s->start_note, sizeof(s->start_note), "trace.mode full may write about %s of "
		 "records, more than the limit (%s): the run switches to outliers when it gets "
		 "near it", hg_format_size_approx(est, a), s->limit_why);
	hg_run_warn(s->rs, "%s", s->start_note);
}

static int init_threads(struct hg_stream *s)
{
	s->n = s->rs->n_workers;
	s->tot = calloc(s->n ? s->n : 1, sizeof(*s->tot));
	s->prev = calloc(s->n ? s->n : 1, sizeof(*s->prev));
	if (!s->tot || !s->prev)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		s->prev[i].end_ns = -1;
		if (!s->rs->workers[i].plan->workload.ops->wakeups)
			continue;
		s->has_latency = true;
		if (hg_histogram_init(&s->tot[i].lat_all, HG_WAKE_BUCKET_NS, HG_WAKE_BUCKETS))
			return -ENOMEM;
	}
	return 0;
}

int hg_stream_start(struct hg_run_state *rs, hg_checkpoint_fn checkpoint, char *err,
		    size_t errlen)
{
	struct hg_stream *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rs->stream = s;
	s->rs = rs;
	s->checkpoint = checkpoint;
	s->switches = json_array();
	s->warnings_at_start = json_deep_copy(rs->warnings);
	s->mode = rs->plan->trace.mode;
	s->hz = rs->cal.hz;
	atomic_init(&s->stop, 0);
	int64_t span = (int64_t)rs->plan->trace.series_ns;
	s->poll_ns = span / 4 < HG_POLL_NS ? span / 4 : HG_POLL_NS;
	s->lag_ns = 2 * s->poll_ns;
	s->limit_bytes = byte_limit(s);
	hg_cpuset_online(&s->online_at_start);
	struct hg_outlier_writer writer = hg_stream_window_writer(s);
	int rc = init_threads(s);
	if (!rc && !(s->nr = hg_nr_new(rs)))
		rc = -ENOMEM;
	if (!rc)
		rc = hg_series_open(&s->series, rs);
	if (!rc)
		rc = hg_outliers_open(&s->outliers, &rs->plan->trace, s->n, &writer);
	if (rc) {
		snprintf(err, errlen, "streaming writer: %s", strerror(-rc));
		return rc;
	}
	if (s->mode != HG_TRACE_NONE) {
		rc = open_file(s, "trace.bin", "intervals", &s->trace, err, errlen);
		if (!rc && s->has_latency)
			rc = open_file(s, "latency.bin", "wakeups", &s->latency, err, errlen);
		if (rc)
			return rc;
	}
	hg_progress_init(&s->progress, rs->opt->quiet ? NULL : rs->opt->err ? rs->opt->err : stderr);
	warn_estimate(s);
	json_decref(s->warnings_at_start);
	s->warnings_at_start = json_deep_copy(rs->warnings);
	if ((rc = init_wake(s))) {
		snprintf(err, errlen, "streaming writer: %s", strerror(-rc));
		return rc;
	}
	s->wake_ready = true;
	rc = pthread_create(&s->thread, NULL, writer_main, s);
	if (rc) {
		snprintf(err, errlen, "cannot start the streaming writer: %s", strerror(rc));
		return -rc;
	}
	s->started = true;
	return 0;
}

void hg_stream_stop(struct hg_run_state *rs)
{
	struct hg_stream *s = rs->stream;
	if (!s || !s->started)
		return;
	pthread_mutex_lock(&s->wake_lock);
	atomic_store(&s->stop, 1);
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->wake_lock);
	pthread_join(s->thread, NULL);
	s->started = false;
	if (s->error) {
		char room[64] = "", a[32];
		if (s->error_free_bytes >= 0)
			snprintf(room, sizeof(room), ", with %s free there",
				 hg_format_size_approx((uint64_t)s->error_free_bytes, a));
		hg_run_warn(rs, "the streaming writer stopped writing at %.3f s: %s: %s%s; the "
			    "series and totals go on", (double)s->error_at_ns / 1e9, s->error_what,
			    strerror(-s->error), room);
	}
	for (size_t i = 0; i < json_array_size(s->switches); i++) {
		json_t *w = json_array_get(s->switches, i);
		hg_run_warn(rs, "trace.mode switched from %s to %s at %.3f s: %s",
			    json_string_value(json_object_get(w, "from")),
			    json_string_value(json_object_get(w, "to")),
			    (double)json_integer_value(json_object_get(w, "at_ns")) / 1e9,
			    json_string_value(json_object_get(w, "why")));
	}
	s->cpus_not_granted = hg_cpucheck_warn(rs, &s->online_at_start, s->tot);
	hg_nr_warn(s->nr, rs);
}

void hg_stream_free(struct hg_stream *s)
{
	if (!s)
		return;
	hg_binfile_close(&s->trace);
	hg_binfile_close(&s->latency);
	hg_series_close(s->series);
	for (size_t i = 0; s->tot && i < s->n; i++)
		hg_histogram_free(&s->tot[i].lat_all);
	hg_outliers_free(s->outliers);
	hg_nr_free(s->nr);
	json_decref(s->warnings_at_start);
	json_decref(s->switches);
	if (s->wake_ready) {
		pthread_cond_destroy(&s->wake);
		pthread_mutex_destroy(&s->wake_lock);
	}
	free(s->tot);
	free(s->prev);
	free(s);
}

const struct hg_thread_totals *hg_stream_totals(const struct hg_stream *s, size_t i)
{
	return s && i < s->n ? &s->tot[i] : NULL;
}

const struct hg_not_received *hg_stream_not_received(const struct hg_stream *s)
{
	return s ? s->nr : NULL;
}

bool hg_stream_cpus_not_granted(const struct hg_stream *s)
{
	return s && s->cpus_not_granted;
}

json_t *hg_stream_warnings_at_start(const struct hg_stream *s)
{
	return s->warnings_at_start;
}

void hg_stream_files_json(const struct hg_stream *s, json_t *files)
{
	if (s && s->trace.f)
		json_object_set_new(files, "trace", json_string("trace.bin"));
	if (s && s->latency.f)
		json_object_set_new(files, "latency", json_string("latency.bin"));
	if (s && s->series)
		json_object_set_new(files, "series", json_string("series.jsonl"));
}

int hg_stream_flush_trace(struct hg_stream *s)
{
	return s && s->trace.f && fflush(s->trace.f) == 0 ? 0 : -1;
}

int hg_stream_flush_latency(struct hg_stream *s)
{
	return s && s->latency.f && fflush(s->latency.f) == 0 ? 0 : -1;
}

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *hg_stream_trace_json(const struct hg_stream *s)
{
	const struct hg_trace_plan *tp = &s->rs->plan->trace;
	json_t *o = json_pack("{s:s, s:s, s:o, s:I, s:o, s:o}",
			      "mode", hg_trace_mode_name(s->mode),
			      "mode_asked", hg_trace_mode_name(tp->mode),
			      "switched", json_deep_copy(s->switches),
			      "series_ns", (json_int_t)tp->series_ns,
			      "limit_bytes", s->limit_bytes ? u64(s->limit_bytes) : json_null(),
			      "written", json_pack("{s:o, s:o, s:o}", "trace", u64(s->trace.records),
						   "latency", u64(s->latency.records),
						   "series", u64(hg_series_lines(s->series))));
	json_object_set_new(o, "writer_cpu_ns", s->checkpointing ? json_null()
				: u64(s->writer_cpu_ns));
	if (s->mode == HG_TRACE_OUTLIERS || tp->mode == HG_TRACE_OUTLIERS ||
	    hg_outliers_count(s->outliers))
		json_object_set_new(o, "outliers", hg_outliers_json(s->outliers));
	return o;
}

int hg_stream_sync(struct hg_stream *s, struct hg_stream_mark *m)
{
	int rc = hg_binfile_sync(&s->trace);
	if (!rc)
		rc = hg_binfile_sync(&s->latency);
	if (!rc)
		rc = hg_series_flush(s->series, true);
	if (rc) {
		hg_stream_fail(s, rc, "a checkpoint");
		return rc;
	}
	*m = (struct hg_stream_mark){ .covers_ns = s->covers_ns, .trace = s->trace.synced,
				      .latency = s->latency.synced,
				      .series = hg_series_lines(s->series), .hz = s->hz };
	return 0;
}

void hg_stream_set_checkpointing(struct hg_stream *s, bool on)
{
	s->checkpointing = on;
}

bool hg_stream_checkpointing(const struct hg_stream *s)
{
	return s && s->checkpointing;
}
