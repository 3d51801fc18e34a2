/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The streaming writer's state (results/stream.h), shared by the files
 * of the writer only: stream.c, its thread and its life; stream_records.c,
 * each record taken from the rings, counted, and written within the
 * limit. */
#ifndef HG_STREAM_INTERNAL_H
#define HG_STREAM_INTERNAL_H

#include <jansson.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"
#include "results/binfile.h"
#include "results/outliers.h"
#include "results/progress.h"
#include "results/totals.h"
#include "run/runstate.h"

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
	int (*checkpoint)(struct hg_stream *s, struct hg_run_state *rs);   /* hg_checkpoint_fn */
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

/* Everything waiting in every ring, converted, counted and handed on
 * (series, not-received, the trace mode); returns how many records. */
size_t hg_stream_drain(struct hg_stream *s);
/* A write error (the first is kept): the writer goes on measuring and
 * writes nothing more. */
void hg_stream_fail(struct hg_stream *s, int rc, const char *what);
/* The counter's rate against CLOCK_MONOTONIC since time zero (as
 * run/run.c's monotonic_rate at the end), once a second has passed. */
void hg_stream_update_rate(struct hg_stream *s, int64_t now_mono);
/* Where the outlier windows' records go: the trace files, under the same
 * limit (results/outliers.h). */
struct hg_outlier_writer hg_stream_window_writer(struct hg_stream *s);

#endif
