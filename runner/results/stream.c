/* The streaming writer's thread: drain every ring, convert, hand each
 * record to the series and to the trace mode (full: write it; outliers:
 * the flight recorder; none: nothing), emit series lines, checkpoint,
 * report progress; sleep a little; again.  It runs at SCHED_OTHER nice
 * HG_WRITER_NICE, on CPUs no measuring thread is bound to where there are
 * such CPUs (docs/results.md). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/cpuset.h"
#include "base/timeutil.h"
#include "base/units.h"
#include "plan/workload.h"
#include "results/binfile.h"
#include "results/cpucheck.h"
#include "results/outliers.h"
#include "results/progress.h"
#include "results/series.h"
#include "results/not_received.h"
#include "results/stream.h"

#define HG_WRITER_NICE 5
#define HG_DRAIN_BATCH 4096
#define HG_POLL_NS 50000000LL          /* between drains, at most */

/* Where each thread's last interval ended, for the gap before the next. */
struct hg_stream_prev {
	int64_t end_ns;                    /* -1: none yet */
	bool preempted;
};

struct hg_stream {
	struct hg_run_state *rs;
	pthread_t thread;
	bool started;
	_Atomic int stop;
	pthread_mutex_t wake_lock;         /* the writer's pause, cut short by stop */
	pthread_cond_t wake;
	bool wake_ready;
	hg_checkpoint_fn checkpoint;
	enum hg_trace_mode mode;           /* may switch from full to outliers, then none */
	json_t *switches;                  /* [{at_ns, from, to, why}] */
	char start_note[448];              /* said with the start line, "" = nothing */
	uint64_t limit_bytes;              /* budget or free disk, 0 = none */
	struct hg_binfile trace, latency;
	bool has_latency;
	int64_t lag_ns, poll_ns;
	struct hg_thread_totals *tot;      /* per thread */
	struct hg_stream_prev *prev;       /* per thread */
	size_t n;
	struct hg_series *series;
	struct hg_outliers *outliers;
	struct hg_progress progress;
	/* conversion of counter ticks to ns from time zero */
	double hz;
	int64_t covers_ns;                 /* records up to here are written */
	int64_t last_checkpoint;
	uint64_t writer_cpu_ns;
	bool checkpointing;                /* the writer is building a checkpoint */
	json_t *warnings_at_start;         /* what checkpoints list (main may add more) */
	cpu_set_t online_at_start;         /* to tell CPUs taken offline during the run */
	bool cpus_not_granted;             /* a thread ran outside its cpus */
	struct hg_not_received *nr;        /* CPU the scenario did not get */
	int error;                         /* first write error (-errno), 0 = none */
	char error_what[64];
	int64_t error_at_ns;               /* when it happened, from time zero */
	int64_t error_free_bytes;          /* free space of the directory then, -1 unknown */
	char limit_why[320];               /* what limit_bytes is, in words */
};

static int64_t rel_ns(const struct hg_stream *s, uint64_t tick)
{
	return (int64_t)((double)(int64_t)(tick - s->rs->sync->t0_ticks) * 1e9 / s->hz);
}

/* A write error (first wins): keep measuring, write nothing more. */
static int64_t free_bytes(const char *dir)
{
	struct statvfs v;
	return statvfs(dir, &v) == 0 ? (int64_t)((uint64_t)v.f_bavail * v.f_frsize) : -1;
}

static void lost_interval(void *ctx, uint32_t thread)
{
	struct hg_stream *s = ctx;
	if (thread < s->n && s->tot[thread].trace_written)
		s->tot[thread].trace_written--;
}

static void lost_wakeup(void *ctx, uint32_t thread)
{
	struct hg_stream *s = ctx;
	if (thread < s->n && s->tot[thread].latency_written)
		s->tot[thread].latency_written--;
}

static void fail(struct hg_stream *s, int rc, const char *what)
{
	/* Records counted as written that the failed write lost (binfile.c):
	 * each thread's records_written counts only those in the file. */
	hg_binfile_take_lost(&s->trace, lost_interval, s);
	hg_binfile_take_lost(&s->latency, lost_wakeup, s);
	if (s->error)
		return;
	s->error = rc;
	snprintf(s->error_what, sizeof(s->error_what), "%s", what);
	/* When and with how much room: the warning names the moment the disk
	 * filled, not the end of the run. */
	s->error_at_ns = s->rs->sync ? hg_now_ns() - s->rs->sync->t0_ns : 0;
	s->error_free_bytes = free_bytes(s->rs->dir);
	s->mode = HG_TRACE_NONE;
}

/* The counter's rate against CLOCK_MONOTONIC since time zero (as
 * run/run.c's monotonic_rate at the end), once a second has passed. */
static void update_rate(struct hg_stream *s, int64_t now_mono)
{
	const struct hg_sync *sy = s->rs->sync;
	uint64_t ticks = hg_counter_read();
	if (now_mono - sy->t0_ns >= HG_NS_PER_SEC && ticks > sy->t0_ticks)
		s->hz = (double)(ticks - sy->t0_ticks) * 1e9 / (double)(now_mono - sy->t0_ns);
}

static bool room(struct hg_stream *s, int64_t at_ns);

static void take_interval(struct hg_stream *s, uint32_t idx, const struct hg_gap_record *g)
{
	struct hg_thread_totals *t = &s->tot[idx];
	struct hg_stream_prev *p = &s->prev[idx];
	struct hg_bin_interval r = {
		.start_ns = rel_ns(s, g->start), .end_ns = rel_ns(s, g->end),
		.thread = idx, .cpu = (int16_t)g->cpu, .end = (uint8_t)g->end_reason,
	};
	int64_t gap = p->end_ns >= 0 && p->preempted ? r.start_ns - p->end_ns : -1;
	t->intervals++;
	t->gaps += r.end == HG_END_PREEMPTED;
	t->cpu_ns += (uint64_t)(r.end_ns - r.start_ns);
	if (gap > 0 && (uint64_t)gap > t->gap_max_ns)
		t->gap_max_ns = (uint64_t)gap;
	p->end_ns = r.end_ns;
	p->preempted = r.end == HG_END_PREEMPTED;
	const struct hg_thread_plan *tp = s->rs->workers[idx].plan;
	if (g->cpu >= 0 && g->cpu < CPU_SETSIZE && !tp->cpus_all && !CPU_ISSET(g->cpu, &tp->cpus)) {
		t->outside_intervals++;
		t->outside_ns += (uint64_t)(r.end_ns - r.start_ns);
		t->outside_cpu = g->cpu;
	}
	hg_series_interval(s->series, &r, gap);
	hg_nr_interval(s->nr, &r);
	room(s, r.end_ns);
	if (s->mode == HG_TRACE_FULL) {
		int rc = hg_binfile_put(&s->trace, &r);
		if (rc)
			fail(s, rc, "trace.bin");
		else
			t->trace_written++;
	} else if (s->mode == HG_TRACE_OUTLIERS) {
		int rc = hg_outliers_interval(s->outliers, &r, gap);
		if (rc)
			fail(s, rc, "outlier windows");
	}
}

static void take_wakeup(struct hg_stream *s, uint32_t idx, const struct hg_wake_record *k)
{
	struct hg_thread_totals *t = &s->tot[idx];
	int64_t t0 = s->rs->sync->t0_ns;
	struct hg_bin_wakeup r = { .intended_ns = k->intended_ns - t0,
				   .actual_ns = k->actual_ns - t0, .thread = idx, .seq = k->seq };
	int64_t late = r.actual_ns - r.intended_ns;
	t->wakeups++;
	hg_histogram_add(&t->lat_all, late > 0 ? (uint64_t)late : 0);
	hg_series_wakeup(s->series, &r);
	room(s, r.actual_ns);
	if (s->mode == HG_TRACE_FULL) {
		int rc = hg_binfile_put(&s->latency, &r);
		if (rc)
			fail(s, rc, "latency.bin");
		else
			t->latency_written++;
	} else if (s->mode == HG_TRACE_OUTLIERS) {
		int rc = hg_outliers_wakeup(s->outliers, &r);
		if (rc)
			fail(s, rc, "outlier windows");
	}
}

/* Everything waiting in every ring; returns how many records. */
static size_t drain(struct hg_stream *s)
{
	size_t total = 0, n;
	for (size_t i = 0; i < s->n; i++) {
		struct hg_worker *w = &s->rs->workers[i];
		struct hg_ring *ring = &w->gt.ring;
		const struct hg_gap_record *g;
		while (ring->slots && (g = hg_ring_peek(ring, HG_DRAIN_BATCH, &n), n)) {
			for (size_t k = 0; k < n; k++)
				take_interval(s, (uint32_t)i, &g[k]);
			hg_ring_release(ring, n);
			total += n;
		}
		ring = &w->wk.ring;
		const struct hg_wake_record *wr;
		while (ring->slots && (wr = hg_ring_peek(ring, HG_DRAIN_BATCH, &n), n)) {
			for (size_t k = 0; k < n; k++)
				take_wakeup(s, (uint32_t)i, &wr[k]);
			hg_ring_release(ring, n);
			total += n;
		}
	}
	return total;
}

/* trace.budget, or the free disk, checked before each record is written:
 * full switches to outliers at 90 % (windows get the rest), outliers to
 * none at 100 %; result.json says when and why.  Returns whether the mode
 * (perhaps new) still writes. */
static bool room(struct hg_stream *s, int64_t at_ns)
{
	if (!s->limit_bytes || s->mode == HG_TRACE_NONE)
		return s->mode != HG_TRACE_NONE;
	uint64_t bytes = (s->trace.records + s->latency.records + 1) * 32;
	uint64_t at = s->mode == HG_TRACE_FULL ? s->limit_bytes / 10 * 9 : s->limit_bytes;
	if (bytes <= at)
		return true;
	enum hg_trace_mode to = s->mode == HG_TRACE_FULL ? HG_TRACE_OUTLIERS : HG_TRACE_NONE;
	char why[448], a[32];
	snprintf(why, sizeof(why), "%s of records reached %s of the limit, %s",
		 hg_format_size_approx(bytes - 32, a), to == HG_TRACE_OUTLIERS ? "90 %" : "all",
		 s->limit_why);
	json_array_append_new(s->switches, json_pack("{s:I, s:s, s:s, s:s}", "at_ns",
		(json_int_t)at_ns, "from", hg_trace_mode_name(s->mode), "to",
		hg_trace_mode_name(to), "why", why));
	s->mode = to;
	return room(s, at_ns);
}

/* struct hg_outlier_writer: a window's records, under the same limit. */
static void put_window_interval(void *ctx, struct hg_bin_interval *r)
{
	struct hg_stream *s = ctx;
	if (!room(s, r->end_ns))
		return;
	int rc = hg_binfile_put(&s->trace, r);
	if (rc)
		fail(s, rc, "trace.bin");
	else
		s->tot[r->thread].trace_written++;
}

static void put_window_wakeup(void *ctx, struct hg_bin_wakeup *r)
{
	struct hg_stream *s = ctx;
	if (!room(s, r->actual_ns))
		return;
	int rc = hg_binfile_put(&s->latency, r);
	if (rc)
		fail(s, rc, "latency.bin");
	else
		s->tot[r->thread].latency_written++;
}

static bool recording_outliers(void *ctx)
{
	return ((const struct hg_stream *)ctx)->mode == HG_TRACE_OUTLIERS;
}

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
	cpu_set_t online, free_cpus;
	hg_cpuset_online(&online);
	free_cpus = online;
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_thread_plan *tp = &plan->threads[i];
		if (tp->pinned_cpu >= 0)
			CPU_CLR(tp->pinned_cpu, &free_cpus);
		else if (tp->cpus_all)
			CPU_ZERO(&free_cpus);
		else
			for (int c = 0; c < CPU_SETSIZE; c++)
				if (CPU_ISSET(c, &tp->cpus))
					CPU_CLR(c, &free_cpus);
	}
	if (CPU_COUNT(&free_cpus))
		pthread_setaffinity_np(pthread_self(), sizeof(free_cpus), &free_cpus);
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
		drain(s);
		int64_t mono = hg_now_ns(), now = mono - rs->sync->t0_ns;
		update_rate(s, mono);
		if (stopping)
			break;
		s->covers_ns = now - s->lag_ns > 0 ? now - s->lag_ns : 0;
		int rc = hg_series_emit(s->series, s->covers_ns, false);
		if (rc)
			fail(s, rc, "series.jsonl");
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
		fail(s, rc, "series.jsonl");
	hg_outliers_tick(s->outliers, INT64_MAX);
	hg_nr_fold(s->nr, INT64_MAX);
	hg_progress_tick(&s->progress, rs, s->tot, s->covers_ns, true);
	if ((rc = hg_series_flush(s->series, false)))
		fail(s, rc, "series.jsonl");
	if ((rc = hg_binfile_sync(&s->trace)))
		fail(s, rc, "trace.bin");
	if ((rc = hg_binfile_sync(&s->latency)))
		fail(s, rc, "latency.bin");
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
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/%s", s->rs->dir, name);
	int rc = hg_binfile_open(b, path, kind);
	if (rc)
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(-rc));
	return rc;
}

/* The budget: trace.budget, and the free disk less a margin (5 %, at
 * least 64 MiB), whichever is smaller; s->limit_why says which, in words. */
static uint64_t byte_limit(struct hg_stream *s)
{
	uint64_t limit = s->rs->plan->trace.budget_bytes;
	int64_t free_b = free_bytes(s->rs->dir);
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
		uint64_t period = hg_params_u64(&w->ops->params, w->params, "period", 0);
		uint64_t yield_after = hg_params_u64(&w->ops->params, w->params, "yield_after", 0);
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
		if (s->rs->workers[i].plan->workload.ops != &hg_workload_latency)
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
	struct hg_outlier_writer writer = {
		.ctx = s, .put_interval = put_window_interval, .put_wakeup = put_window_wakeup,
		.recording = recording_outliers,
	};
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
		fail(s, rc, "a checkpoint");
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
