/* The streaming writer (issue 8): a thread that drains the measuring
 * threads' rings during the run into trace.bin, latency.bin (all records,
 * outlier windows only, or none: trace.mode) and series.jsonl, checkpoints
 * result.json every few seconds and prints the progress line.  It never
 * makes a measuring thread wait: a full ring drops and counts. */
#ifndef HG_STREAM_H
#define HG_STREAM_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/stats.h"
#include "results/binfile.h"
#include "run/runstate.h"

#define HG_CHECKPOINT_NS 2000000000LL      /* result.json rewritten this often */
#define HG_HISTORY_INTERVALS 8192          /* outliers: intervals kept per thread */
#define HG_HISTORY_WAKEUPS 2048            /* outliers: wake-ups kept per thread */

/* One series interval's numbers of one thread (series.c). */
struct hg_series_acc {
	uint64_t cpu_ns, intervals, gaps, gap_max_ns, wakeups;
	struct hg_histogram lat;           /* lateness, 1 us buckets */
};

/* A flight-recorder history (outliers.c): the newest records, circular. */
struct hg_history {
	void *recs;                        /* 32-byte records */
	size_t cap, head, n;
};

/* What the writer knows of one measuring thread. */
struct hg_stream_thread {
	struct hg_worker *w;
	int64_t prev_end_ns;               /* end of the last interval seen, -1 none */
	bool prev_preempted;
	/* totals seen through the rings */
	uint64_t intervals, gaps, cpu_ns, wakeups;
	uint64_t trace_written, latency_written;
	struct hg_histogram lat_all;       /* every wake-up seen (checkpoints) */
	uint64_t gap_max_ns;
	/* intervals on a CPU outside the thread's cpus (one taken offline) */
	uint64_t outside_intervals, outside_ns;
	int outside_cpu;
	/* series: the interval being filled and the one after it */
	struct hg_series_acc cur, next;
	uint64_t pub_prev[3];              /* releases, hits, misses at the last line */
	uint64_t dropped_prev;
	/* outliers */
	struct hg_history hist_iv, hist_wk;
};

/* An outlier window (result.json trace.outliers). */
struct hg_window {
	uint32_t id;
	uint32_t thread;
	bool wakeup;                       /* triggered by a wake-up, else a gap */
	int64_t trigger_ns, value_ns, from_ns, to_ns;
};

struct hg_stream {
	struct hg_run_state *rs;
	pthread_t thread;
	bool started;
	_Atomic int stop;
	enum hg_trace_mode mode;           /* may switch from full to outliers, then none */
	json_t *switches;                  /* [{at_ns, from, to, why}] */
	char start_note[256];              /* said with the start line, "" = nothing */
	uint64_t limit_bytes;              /* budget or free disk, 0 = none */
	struct hg_binfile trace, latency;
	bool has_latency;
	FILE *series;
	uint64_t series_lines;
	int64_t series_start, series_span; /* the series interval being filled */
	int64_t lag_ns, poll_ns;
	uint64_t *load_prev;               /* per load, HG_LOAD_NCOUNTERS counters */
	struct hg_series_cpus *cpus;       /* series_cpus.c: interrupts per CPU */
	struct hg_stream_thread *th;
	size_t n;
	/* outlier windows */
	struct hg_window *windows;
	size_t n_windows, cap_windows;
	struct hg_window *open;            /* the window still being written, or NULL */
	/* conversion of counter ticks to ns from time zero */
	double hz;
	int64_t covers_ns;                 /* records up to here are written */
	int64_t last_checkpoint;
	uint64_t writer_cpu_ns;
	bool checkpointing;                /* the writer is building a checkpoint */
	json_t *warnings_at_start;         /* what checkpoints list (main may add more) */
	cpu_set_t online_at_start;         /* to tell CPUs taken offline during the run */
	bool cpus_not_granted;             /* a thread ran outside its cpus */
	int error;                         /* first write error (-errno), 0 = none */
	char error_what[64];
	/* progress */
	FILE *progress;                    /* NULL: quiet */
	bool tty;
	int64_t last_progress;
};

/* stream.c: the sink's start and stop (results/sink.c). */
int  hg_stream_start(struct hg_run_state *rs, char *err, size_t errlen);
void hg_stream_stop(struct hg_run_state *rs);
/* cpucheck.c: warns of CPUs taken offline during the run and of threads
 * whose intervals ran on a CPU outside their cpus (sets cpus_not_granted). */
void hg_stream_check_cpus(struct hg_stream *s);
void hg_stream_free(struct hg_stream *s);
/* stream.c: ns from time zero of a counter value. */
int64_t hg_stream_rel_ns(const struct hg_stream *s, uint64_t tick);
/* stream.c: before writing a record of time at_ns: applies the byte limit
 * (may switch the mode); whether the mode still writes. */
bool hg_stream_room(struct hg_stream *s, int64_t at_ns);
/* stream.c: records a write error (first wins). */
void hg_stream_fail(struct hg_stream *s, int rc, const char *what);

/* series.c */
int  hg_series_init(struct hg_stream *s);
/* gap_ns: the gap before this interval (-1: it followed a sleep or yield). */
void hg_series_interval(struct hg_stream *s, struct hg_stream_thread *t,
			const struct hg_bin_interval *r, int64_t gap_ns);
void hg_series_wakeup(struct hg_stream *s, struct hg_stream_thread *t,
		      const struct hg_bin_wakeup *r);
/* Writes the lines of every interval that ended before `upto` (ns from
 * time zero); at the end, with final, the last partial one too. */
void hg_series_emit(struct hg_stream *s, int64_t upto, bool final);
void hg_series_free(struct hg_stream *s);

/* series_cpus.c: the CPU lines of series.jsonl.  next: the line of the
 * scenario CPU after *cpu (-1 to start an interval: reads
 * /proc/interrupts), NULL after the last one. */
int  hg_series_cpus_init(struct hg_stream *s);
json_t *hg_series_cpus_next(struct hg_stream *s, int64_t end, int64_t span, int *cpu);
void hg_series_cpus_free(struct hg_stream *s);

/* outliers.c */
int  hg_outliers_init(struct hg_stream *s);
void hg_outliers_interval(struct hg_stream *s, struct hg_stream_thread *t,
			  struct hg_bin_interval *r, int64_t gap_ns);
void hg_outliers_wakeup(struct hg_stream *s, struct hg_stream_thread *t,
			struct hg_bin_wakeup *r);
/* Closes the open window once `now` (ns from time zero) is past its end. */
void hg_outliers_tick(struct hg_stream *s, int64_t now);
void hg_outliers_free(struct hg_stream *s);
json_t *hg_outliers_json(const struct hg_stream *s);

/* progress.c */
void hg_progress_start(struct hg_stream *s);
void hg_progress_tick(struct hg_stream *s, int64_t now, bool final);

/* checkpoint.c: result.json with complete: false and what it covers. */
int  hg_checkpoint_write(struct hg_stream *s);
/* The `trace` object of result.json. */
json_t *hg_stream_trace_json(const struct hg_stream *s);

#endif
