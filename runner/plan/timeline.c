/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A scenario's timeline as a whole (plan/timeline.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "plan/keys.h"
#include "plan/load.h"
#include "plan/timeline.h"

/* Appends ", NAME (starts at T)" to out for each thread set or load that
 * starts at or after end_ns (a set's instances share its name). */
static size_t list_late(char *out, size_t size, size_t *used, const char *kind,
			const char *const *names, const uint64_t *starts, size_t n, uint64_t end_ns)
{
	size_t found = 0;
	char t[32];
	for (size_t i = 0; i < n; i++) {
		if (starts[i] < end_ns || (i && !strcmp(names[i - 1], names[i])))
			continue;
		if (*used < size)
			*used += (size_t)snprintf(out + *used, size - *used, "%s%s%s (starts at %s)",
						  *used ? (found ? ", " : "; ") : "",
						  found ? "" : kind, names[i],
						  hg_format_duration(starts[i], t));
		found++;
	}
	return found;
}

size_t hg_plan_dropped_by(const struct hg_plan *plan, uint64_t duration_ns, char *out,
			  size_t size)
{
	size_t n = plan->n_threads > plan->n_loads ? plan->n_threads : plan->n_loads, used = 0;
	const char **names = calloc(n ? n : 1, sizeof(*names));
	uint64_t *starts = calloc(n ? n : 1, sizeof(*starts));
	size_t found = 0;
	if (size)
		out[0] = '\0';
	if (names && starts) {
		for (size_t i = 0; i < plan->n_threads; i++) {
			names[i] = plan->threads[i].name;
			starts[i] = plan->threads[i].start_ns;
		}
		found += list_late(out, size, &used, "threads ", names, starts, plan->n_threads,
				   duration_ns);
		for (size_t i = 0; i < plan->n_loads; i++) {
			names[i] = plan->loads[i].name;
			starts[i] = plan->loads[i].start_ns;
		}
		found += list_late(out, size, &used, "loads ", names, starts, plan->n_loads,
				   duration_ns);
	}
	free(names);
	free(starts);
	return found;
}

static uint64_t scaled(uint64_t t, double factor)
{
	return (uint64_t)llround((double)t * factor);
}

int hg_plan_scale(struct hg_plan *plan, double factor, char *err, size_t size)
{
	char a[32], b[32];
	double d = (double)plan->duration_ns * factor;
	if (!(factor > 0) || d < 1e6 || d > (double)HG_DURATION_MAX_NS) {
		snprintf(err, size, "--scale %g would make the duration %s %s than a scenario's "
			 "can be (1ms..%s)", factor, hg_format_duration(plan->duration_ns, a),
			 d < 1e6 ? "shorter" : "longer", hg_format_duration(HG_DURATION_MAX_NS, b));
		return -1;
	}
	for (size_t i = 0; i < plan->n_threads; i++) {
		struct hg_thread_plan *t = &plan->threads[i];
		t->start_ns = scaled(t->start_ns, factor);
		t->finish_ns = scaled(t->finish_ns, factor);
		if (t->finish_ns <= t->start_ns) {  /* a window shorter than 1/factor ns */
			t->finish_ns += !t->finish_ns;
			t->start_ns = t->finish_ns - 1;
		}
	}
	for (size_t i = 0; i < plan->n_loads; i++) {
		struct hg_load_plan *l = &plan->loads[i];
		l->start_ns = scaled(l->start_ns, factor);
		l->stop_ns = scaled(l->stop_ns, factor);
		if (l->stop_ns <= l->start_ns) {
			l->stop_ns += !l->stop_ns;
			l->start_ns = l->stop_ns - 1;
		}
		/* a staggered load's offsets are on the same timeline (docs/loads.md) */
		const struct hg_param *st = hg_load_stagger_row(l);
		if (st && st->kind == HG_PARAM_DURATION && l->params) {
			uint64_t *v = HG_PARAM_AT(l->params, st, uint64_t);
			*v = scaled(*v, factor);
		}
	}
	plan->duration_ns = scaled(plan->duration_ns, factor);
	return 0;
}

/* Expectations whose metric adds up over the run: --scale changes what
 * they can reach but not their bounds. */
static const char *total_bound(const struct hg_plan *plan)
{
	static const char *const totals[] = { "cpu_ns", "releases", "deadlines_hit",
		"deadlines_missed", "gaps", "intervals", "work_units" };
	for (size_t i = 0; i < plan->n_expects; i++)
		for (size_t k = 0; k < sizeof(totals) / sizeof(totals[0]); k++)
			if (!strcmp(plan->expects[i].metric, totals[k]))
				return totals[k];
	return NULL;
}

/* What a shorter duration does besides moving the end: the thread sets
 * and loads it stops early (their end was before the old duration and is
 * after the new one), for the run's warnings (run/run.c warns of those
 * that do not start at all). */
static void cut_note(const struct hg_plan *plan, uint64_t new_ns, char *out, size_t size)
{
	char a[32], b[32], c[32];
	size_t used = 0;
	const char *last = NULL;
	out[0] = '\0';
	for (size_t i = 0; i < plan->n_threads + plan->n_loads && used < size; i++) {
		bool thread = i < plan->n_threads;
		const char *name = thread ? plan->threads[i].name : plan->loads[i - plan->n_threads].name;
		uint64_t start = thread ? plan->threads[i].start_ns
					: plan->loads[i - plan->n_threads].start_ns;
		uint64_t end = thread ? plan->threads[i].finish_ns
				      : plan->loads[i - plan->n_threads].stop_ns;
		if (start >= new_ns || end <= new_ns || end >= plan->duration_ns ||
		    (last && !strcmp(last, name)))
			continue;
		used += (size_t)snprintf(out + used, size - used, "%s%s %s stops at %s instead of %s",
					 used ? "; " : "", thread ? "thread set" : "load", name,
					 hg_format_duration(new_ns, a), hg_format_duration(end, b));
		last = name;
	}
	if (used && used < size) {
		char tail[160];
		snprintf(tail, sizeof(tail), "--duration %s (the scenario says %s): ",
			 hg_format_duration(new_ns, a), hg_format_duration(plan->duration_ns, c));
		size_t t = strlen(tail);
		if (used + t < size) {
			memmove(out + t, out, used + 1);
			memcpy(out, tail, t);
		}
	}
}

int hg_plan_apply_length(struct hg_plan *plan, const struct hg_length *len, const char *what,
			 FILE *err)
{
	if (len->note && len->note_size)
		len->note[0] = '\0';
	char msg[1024], a[32], b[32];
	if (len->scale > 0) {
		uint64_t old = plan->duration_ns;
		if (hg_plan_scale(plan, len->scale, msg, sizeof(msg))) {
			fprintf(err, "%s%s\n", what, msg);
			return -1;
		}
		const char *total = total_bound(plan);
		if (total && !len->quiet)
			fprintf(err, "%snote: --scale %g runs %s instead of %s; expect: bounds are not "
				"scaled (%s adds up over the run)\n", what, len->scale,
				hg_format_duration(plan->duration_ns, a), hg_format_duration(old, b),
				total);
		return 0;
	}
	if (!len->duration_given)
		return 0;
	size_t dropped = hg_plan_dropped_by(plan, len->duration_ns, msg, sizeof(msg));
	if (dropped && !len->cut) {
		fprintf(err, "%s--duration %s would leave out what starts at or after it: %s. "
			"Shorten every phase alike with --scale %.3g (%s instead of %s), or add "
			"--cut to run only what fits\n", what, hg_format_duration(len->duration_ns, a),
			msg, (double)len->duration_ns / (double)plan->duration_ns,
			hg_format_duration(len->duration_ns, a), hg_format_duration(plan->duration_ns, b));
		return -1;
	}
	if (dropped && !len->quiet)
		fprintf(err, "%snote: with --duration %s --cut, these do not run: %s\n", what,
			hg_format_duration(len->duration_ns, a), msg);
	if (len->note && len->note_size)
		cut_note(plan, len->duration_ns, len->note, len->note_size);
	hg_plan_set_duration(plan, len->duration_ns);
	return 0;
}
