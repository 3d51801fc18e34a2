/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reader of a run's tracefs instance: one thread at nice 19, on CPUs
 * outside the scenario's when there are any, that reads
 * every CPU's trace_pipe_raw (non-blocking, a page at a time) every
 * HG_KTRACE_READ_PERIOD_MS, decodes the pages (ktrace/ktrace_parse.c) and
 * appends the events to a growing array bounded by HG_KTRACE_MAX_EVENTS.
 * Binary pages, not the text trace_pipe: the kernel formats no text, the
 * times keep their nanoseconds (docs/kernel-trace.md has the measurements). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/cpuset.h"
#include "ktrace/ktrace_internal.h"

#define READER_NICE 19

static int store(void *ctx, const struct hg_kevent *ev)
{
	struct hg_ktrace *kt = ctx;
	if (kt->n_ev == kt->cap_ev) {
		size_t cap = kt->cap_ev ? kt->cap_ev * 2 : 65536;
		if (cap > HG_KTRACE_MAX_EVENTS)
			cap = HG_KTRACE_MAX_EVENTS;
		struct hg_kevent *p = cap > kt->cap_ev ? realloc(kt->ev, cap * sizeof(*p)) : NULL;
		if (!p) {
			kt->not_kept++;
			return 0;
		}
		kt->ev = p;
		kt->cap_ev = cap;
	}
	kt->ev[kt->n_ev++] = *ev;
	return 0;
}

/* Reads every page available now; returns how many were read. */
static size_t read_available(struct hg_ktrace *kt, unsigned char *page)
{
	size_t pages = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (kt->fds[cpu] < 0)
			continue;
		for (;;) {
			ssize_t n = read(kt->fds[cpu], page, kt->page_size);
			if (n <= 0)
				break;
			hg_kpage_decode(&kt->dec, page, (size_t)n, cpu);
			pages++;
		}
	}
	return pages;
}

static void *reader_main(void *arg)
{
	struct hg_ktrace *kt = arg;
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), READER_NICE);
	unsigned char *page = malloc(kt->page_size);
	if (!page)
		return NULL;
	while (!atomic_load(&kt->stop)) {
		struct timespec ts = { 0, HG_KTRACE_READ_PERIOD_MS * 1000000L };
		nanosleep(&ts, NULL);
		read_available(kt, page);
	}
	/* recording is off (tracing_on 0): what is left is final */
	read_available(kt, page);
	free(page);
	struct timespec cpu;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
		kt->reader_cpu_ns = (int64_t)cpu.tv_sec * 1000000000 + cpu.tv_nsec;
	return NULL;
}

int hg_ktrace_reader_start(struct hg_ktrace *kt)
{
	char path[PATH_MAX + 64];
	long sub_kb = 0;
	FILE *f;
	snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb", kt->dir);
	if ((f = fopen(path, "re")) != NULL) {
		if (fscanf(f, "%ld", &sub_kb) != 1)
			sub_kb = 0;
		fclose(f);
	}
	kt->page_size = sub_kb > 0 ? (size_t)sub_kb * 1024 : (size_t)sysconf(_SC_PAGESIZE);
	kt->dec.formats = kt->formats;
	kt->dec.n_formats = kt->n_formats;
	kt->dec.names = kt->names;
	kt->dec.emit = store;
	kt->dec.ctx = kt;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &kt->cpus))
			continue;
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", kt->dir, cpu);
		kt->fds[cpu] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (kt->fds[cpu] < 0)
			return -errno;
	}
	atomic_init(&kt->stop, 0);
	int rc = pthread_create(&kt->reader, NULL, reader_main, kt);
	if (rc)
		return -rc;
	kt->reader_started = true;
	pthread_setname_np(kt->reader, "hg-ktrace");
	/* off the measuring CPUs when the machine has others */
	cpu_set_t others;
	hg_cpuset_online(&others);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &kt->cpus))
			CPU_CLR(cpu, &others);
	if (CPU_COUNT(&others) > 0)
		pthread_setaffinity_np(kt->reader, sizeof(others), &others);
	return 0;
}

/* Each CPU's pages arrive in time order, interleaved with other CPUs' in
 * the array: a stable distribution by CPU gives (cpu, ts) order. */
static void group_by_cpu(struct hg_ktrace *kt)
{
	size_t start[CPU_SETSIZE + 1];
	struct hg_kevent *out = malloc(kt->n_ev * sizeof(*out));
	if (!out)
		return;
	memset(start, 0, sizeof(start));
	for (size_t i = 0; i < kt->n_ev; i++)
		start[kt->ev[i].cpu + 1]++;
	for (int c = 0; c < CPU_SETSIZE; c++)
		start[c + 1] += start[c];
	for (size_t i = 0; i < kt->n_ev; i++)
		out[start[kt->ev[i].cpu]++] = kt->ev[i];
	free(kt->ev);
	kt->ev = out;
	kt->cap_ev = kt->n_ev;
}

/* Per-CPU stats: "overrun: N" and "dropped events: N" (events the buffer
 * lost, overwritten or refused). */
static uint64_t lost_on(const char *dir, int cpu)
{
	char path[PATH_MAX + 64], line[128];
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", dir, cpu);
	FILE *f = fopen(path, "re");
	uint64_t lost = 0;
	unsigned long long v;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "overrun: %llu", &v) == 1 ||
		    sscanf(line, "dropped events: %llu", &v) == 1)
			lost += v;
	fclose(f);
	return lost;
}

void hg_ktrace_reader_stop(struct hg_ktrace *kt)
{
	if (kt->reader_started) {
		atomic_store(&kt->stop, 1);
		pthread_join(kt->reader, NULL);
		kt->reader_started = false;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (kt->fds[cpu] < 0)
			continue;
		kt->lost += lost_on(kt->dir, cpu);
		close(kt->fds[cpu]);
		kt->fds[cpu] = -1;
	}
	if (kt->n_ev)
		group_by_cpu(kt);
}
