/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress while a run lasts (docs/results.md): a start line, then on a
 * terminal one status line rewritten about once a second, elsewhere a
 * plain line every HG_PROGRESS_PLAIN_NS.  Printed by the writer thread,
 * never by a measuring thread; --quiet prints nothing. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/units.h"
#include "plan/workload.h"
#include "results/progress.h"

#define HG_PROGRESS_TTY_NS 1000000000LL
#define HG_PROGRESS_PLAIN_NS 10000000000LL
#define HG_PROGRESS_THREADS 6          /* threads named on the line, then "..." */

/* A duration as written: 2d, 24h, 3m when whole, else as units.c prints it. */
static const char *fmt_duration(uint64_t ns, char buf[32])
{
	static const struct { uint64_t ns; const char *unit; } big[] = {
		{ 86400000000000ull, "d" }, { 3600000000000ull, "h" }, { 60000000000ull, "m" },
	};
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		if (ns >= big[i].ns && ns % big[i].ns == 0) {
			snprintf(buf, 32, "%llu%s", (unsigned long long)(ns / big[i].ns), big[i].unit);
			return buf;
		}
	return hg_format_duration(ns, buf);
}

void hg_progress_init(struct hg_progress *pr, FILE *out)
{
	*pr = (struct hg_progress){ .out = out, .tty = out && isatty(fileno(out)) };
}

void hg_progress_start(struct hg_progress *pr, const struct hg_run_state *rs,
		       enum hg_trace_mode mode, const char *note)
{
	if (!pr->out)
		return;
	const struct hg_plan *p = rs->plan;
	char d[32];
	fprintf(pr->out, "hgrun: running %s for %s (%zu thread%s, %zu load%s, trace %s) into "
		"%s; Ctrl-C keeps a partial result\n", p->name, fmt_duration(p->duration_ns, d),
		p->n_threads, p->n_threads == 1 ? "" : "s", p->n_loads, p->n_loads == 1 ? "" : "s",
		hg_trace_mode_name(mode), rs->dir);
	if (note[0])
		fprintf(pr->out, "hgrun: warning: %s\n", note);
	fflush(pr->out);
}

static void fmt_ns(uint64_t ns, char *buf, size_t size)
{
	if (ns >= 10000000)
		snprintf(buf, size, "%.0f ms", (double)ns / 1e6);
	else if (ns >= 1000000)
		snprintf(buf, size, "%.1f ms", (double)ns / 1e6);
	else if (ns >= 10000)
		snprintf(buf, size, "%.0f us", (double)ns / 1e3);
	else
		snprintf(buf, size, "%.1f us", (double)ns / 1e3);
}

/* Per thread the figure that matters: misses, the worst wake-up, or the
 * longest gap. */
static size_t thread_figure(const struct hg_worker *w, const struct hg_thread_totals *t,
			    char *buf, size_t size)
{
	char v[32];
	const struct hg_thread_plan *tp = w->plan;
	if (tp->workload.ops->periodic)
		return (size_t)snprintf(buf, size, "%s %llu missed", tp->os_name,
			(unsigned long long)atomic_load_explicit(&w->pub.misses,
								 memory_order_relaxed));
	if (w->wk.ring.slots) {
		fmt_ns(t->lat_all.max, v, sizeof(v));
		return (size_t)snprintf(buf, size, "%s worst %s", tp->os_name, v);
	}
	fmt_ns(t->gap_max_ns, v, sizeof(v));
	return (size_t)snprintf(buf, size, "%s gap max %s", tp->os_name, v);
}

void hg_progress_tick(struct hg_progress *pr, const struct hg_run_state *rs,
		      const struct hg_thread_totals *tot, int64_t now, bool final)
{
	int64_t every = pr->tty ? HG_PROGRESS_TTY_NS : HG_PROGRESS_PLAIN_NS;
	if (!pr->out || (!final && now - pr->last < every))
		return;
	if (final && !pr->tty) /* the summary follows */
		return;
	pr->last = now;
	char line[512];
	size_t len = (size_t)snprintf(line, sizeof(line), "%s%5.0f s / %.0f s:",
				      pr->tty ? "\r\033[K" : "hgrun: ", (double)now / 1e9,
				      (double)rs->plan->duration_ns / 1e9);
	for (size_t i = 0; i < rs->n_workers && len < sizeof(line) - 80; i++) {
		if (i == HG_PROGRESS_THREADS) {
			len += (size_t)snprintf(line + len, sizeof(line) - len, " ...");
			break;
		}
		len += (size_t)snprintf(line + len, sizeof(line) - len, i ? ", " : " ");
		size_t n = thread_figure(&rs->workers[i], &tot[i], line + len, 64);
		len += n < 64 ? n : 63;
	}
	fprintf(pr->out, "%s%s", line, pr->tty && !final ? "" : "\n");
	fflush(pr->out);
}
