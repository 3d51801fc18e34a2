/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state shared by ktrace/ktrace.c (instance lifecycle) and
 * ktrace/ktrace_reader.c (the reader thread and the event store). */
#ifndef HG_KTRACE_INTERNAL_H
#define HG_KTRACE_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <jansson.h>

#include "ktrace/ktrace_limits.h"
#include "ktrace/ktrace_parse.h"

struct hg_ktrace {
	bool active, stopped, mounted, removed;
	char why[320];
	char root[PATH_MAX];        /* the tracefs mount */
	char dir[PATH_MAX];         /* root/instances/hgrun-<pid> */
	cpu_set_t cpus;
	bool wakeups;               /* the late wake-ups' events too */
	int stale_removed;
	/* the events enabled and their layouts */
	struct hg_kformat formats[32];
	size_t n_formats;
	json_t *enabled;            /* array of "system/event" */
	/* reading */
	int fds[CPU_SETSIZE];       /* per_cpu/cpuN/trace_pipe_raw, -1 when not traced */
	size_t page_size;
	pthread_t reader;
	bool reader_started;
	atomic_int stop;
	int64_t reader_cpu_ns;
	struct hg_kdecoder dec;
	struct hg_knames *names;
	struct hg_kevent *ev;
	size_t n_ev, cap_ev;
	uint64_t not_kept;          /* events beyond HG_KTRACE_MAX_EVENTS */
	uint64_t lost;              /* per_cpu stats: overrun + dropped events */
};

/* Writes `value` to dir/name; returns 0 or -errno. */
int hg_ktrace_write(const char *dir, const char *name, const char *value);

int  hg_ktrace_reader_start(struct hg_ktrace *kt);   /* 0 or -errno */
void hg_ktrace_reader_stop(struct hg_ktrace *kt);    /* drains, joins */

#endif
