/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict and the key findings (results/verdict.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcodes.h"
#include "base/jsonfmt.h"
#include "base/units.h"
#include "plan/keys.h"
#include "plan/metrics.h"
#include "plan/workload.h"
#include "results/not_received.h"
#include "results/numbers.h"
#include "results/stream.h"
#include "results/verdict.h"

static const struct { const char *unit; double ns; } units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
};

/* The unit a duration bound was written in ("200us": us), or NULL. */
static int written_unit(const char *text)
{
	const char *u = text ? text + strspn(text, "0123456789.") : "";
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].unit))
			return (int)i;
	return -1;
}

static void trim_number(char *buf)
{
	char *dot = strchr(buf, '.');
	if (!dot)
		return;
	char *end = buf + strlen(buf) - 1;
	while (end > dot && *end == '0')
		*end-- = '\0';
	if (end == dot)
		*end = '\0';
}

/* A value of metric m in the user's units: a ratio as a percentage, a
 * duration in the unit its bound was written in (else 3 digits), a count
 * whole. */
static void format_value(const struct hg_metric *m, const char *bound_text, double v,
			 char *buf, size_t size)
{
	int u = m && hg_metric_is_ns(m) ? written_unit(bound_text) : -1;
	if (m && hg_metric_is_ratio(m)) {
		snprintf(buf, size, "%.2f%%", v * 100);
	} else if (m && hg_metric_is_ns(m) && u >= 0) {
		/* four significant digits, never an exponent: 12570 us, not 1.257e+04 us;
		 * 0.00006655 s, not 6.655e-05 s */
		double x = v / units[u].ns;
		snprintf(buf, size, fabs(x) >= 1000 ? "%.0f" : "%.4g", x);
		if (strchr(buf, 'e')) {
			snprintf(buf, size, "%.*f", 3 - (int)floor(log10(fabs(x))), x);
			trim_number(buf);
		}
		snprintf(buf + strlen(buf), size - strlen(buf), " %s", units[u].unit);
	} else if (m && hg_metric_is_ns(m)) {
		char t[32];
		snprintf(buf, size, "%s", hg_format_ns_approx(v, t));
	} else {
		snprintf(buf, size, "%.0f", v);
	}
}

/* The bound as written, with a space before its unit ("1s" -> "1 s"), a
 * ratio as a percentage (0.01 -> "1%"). */
static void format_bound(const struct hg_metric *m, const struct hg_expect_plan *e, char *buf,
			 size_t size)
{
	int u = m && hg_metric_is_ns(m) ? written_unit(e->limit_text) : -1;
	if (m && hg_metric_is_ratio(m)) {
		snprintf(buf, size, "%.6f", e->limit * 100);
		trim_number(buf);
		snprintf(buf + strlen(buf), size - strlen(buf), "%%");
	} else if (u >= 0) {
		snprintf(buf, size, "%.*s %s", (int)(strlen(e->limit_text) - strlen(units[u].unit)),
			 e->limit_text, units[u].unit);
	} else if (m && hg_metric_is_ns(m)) {
		char t[32];
		snprintf(buf, size, "%s", hg_format_ns_approx(e->limit, t));
	} else {
		snprintf(buf, size, "%.6f", e->limit);
		trim_number(buf);
	}
}

static json_t *expectation(const struct hg_expect_plan *e, json_t *r)
{
	const struct hg_metric *m = hg_metric_find(e->metric);
	bool pass = json_is_true(json_object_get(r, "pass"));
	json_t *v = json_object_get(r, "value");
	const char *worst = json_string_value(json_object_get(r, "worst_instance"));
	char value[64] = "nothing measured", bound[80], b[64], line[512];
	if (json_is_number(v))
		format_value(m, e->limit_text, json_number_value(v), value, sizeof(value));
	format_bound(m, e, b, sizeof(b));
	snprintf(bound, sizeof(bound), "%s %s", e->bound == HG_EXPECT_MAX ? "max" : "min", b);
	bool named = worst && strcmp(worst, e->thread);
	snprintf(line, sizeof(line), "%s %s: %s = %s%s%s%s, bound %s", pass ? "PASS" : "FAIL",
		 e->thread, e->metric, value, named ? " (worst: " : "", named ? worst : "",
		 named ? ")" : "", bound);
	return json_pack("{s:s, s:s, s:b, s:s, s:s, s:s?, s:s}", "thread", e->thread, "metric",
			 e->metric, "pass", pass, "value", value, "bound", bound, "worst_instance",
			 worst, "line", line);
}

static double mean_exec(const struct hg_exec *x)
{
	double sum = 0;
	switch (x->kind) {
	case HG_EXEC_FIXED: return x->n_values ? (double)x->values_ns[0] : 0;
	case HG_EXEC_LIST:
		for (size_t i = 0; i < x->n_values; i++)
			sum += (double)x->values_ns[i];
		return x->n_values ? sum / (double)x->n_values : 0;
	case HG_EXEC_UNIFORM: return ((double)x->min_ns + (double)x->max_ns) / 2;
	case HG_EXEC_NORMAL: return (double)x->mean_ns;
	}
	return 0;
}

/* One line per thread set: what it received against what it asked for
 * (a periodic set: its jobs' exec; a set that never sleeps: all of the
 * time it ran; a latency set asks for next to nothing). */
static void cpu_findings(const struct hg_run_state *rs, json_t *lines)
{
	for (size_t i = 0; rs->nums && i < rs->n_workers;) {
		const struct hg_thread_plan *tp = rs->workers[i].plan;
		size_t n = 0;
		double got = 0, asked = 0, lo = INFINITY, hi = 0;
		for (; i < rs->n_workers && rs->workers[i].plan->set_index == tp->set_index; i++, n++) {
			const struct hg_worker *w = &rs->workers[i];
			const struct hg_thread_numbers *nm = &rs->nums[i];
			double g = (double)nm->cpu_ns;
			got += g;
			lo = g < lo ? g : lo;
			hi = g > hi ? g : hi;
			const struct hg_exec *x = hg_workload_exec(&tp->workload);
			if (x)
				asked += (double)nm->releases * mean_exec(x);
			else if (!tp->workload.ops->blocks && w->st.started_ns >= 0 &&
				 w->st.stopped_ns > w->st.started_ns)
				asked += (double)(w->st.stopped_ns - w->st.started_ns);
		}
		char a[32], b[32], c[32], each[96] = "";
		if (n > 1)
			snprintf(each, sizeof(each), " (%zu threads, %s to %s each)", n,
				 hg_format_ns_approx(lo, b), hg_format_ns_approx(hi, c));
		if (asked > 0)
			hg_json_appendf(lines, "%s: received %s of CPU%s, of %s it asked for (%.1f%%)", tp->name,
			    hg_format_ns_approx(got, a), each, hg_format_ns_approx(asked, b),
			    100 * got / asked);
		else
			hg_json_appendf(lines, "%s: received %s of CPU%s", tp->name, hg_format_ns_approx(got, a), each);
	}
}

static void miss_and_latency_findings(const struct hg_run_state *rs, json_t *lines)
{
	for (size_t i = 0; rs->nums && i < rs->n_workers;) {
		const struct hg_thread_plan *tp = rs->workers[i].plan;
		uint64_t missed = 0, releases = 0, worst = 0, p99 = 0, count = 0, skipped = 0;
		const char *where = tp->os_name;
		for (; i < rs->n_workers && rs->workers[i].plan->set_index == tp->set_index; i++) {
			const struct hg_thread_numbers *nm = &rs->nums[i];
			skipped += rs->workers[i].st.grid_skipped;
			missed += nm->deadlines_missed;
			releases += nm->releases;
			count += nm->latency.count;
			if (nm->latency.count && nm->latency.max >= worst) {
				worst = nm->latency.max;
				p99 = nm->latency.p99;
				where = rs->workers[i].plan->os_name;
			}
		}
		char a[32], b[32], skipped_text[128] = "";
		if (skipped)
			snprintf(skipped_text, sizeof(skipped_text), "%llu of %llu wake-up slots "
				 "skipped (%.1f%%)", (unsigned long long)skipped,
				 (unsigned long long)(skipped + count),
				 100.0 * (double)skipped / (double)(skipped + count));
		if (tp->workload.ops->periodic)
			hg_json_appendf(lines, "%s: missed %llu of %llu deadlines (%.2f%%)", tp->name,
			    (unsigned long long)missed, (unsigned long long)releases,
			    releases ? 100.0 * (double)missed / (double)releases : 0.0);
		if (tp->workload.ops->wakeups && count)
			hg_json_appendf(lines, "%s: worst wake-up %s late%s%s (p99 %s)%s%s", tp->name,
			    hg_format_ns_approx((double)worst, a), strcmp(where, tp->name) ? " in " : "",
			    strcmp(where, tp->name) ? where : "", hg_format_ns_approx((double)p99, b),
			    skipped ? "; " : "", skipped_text);
	}
}

static void not_received_findings(const struct hg_run_state *rs, json_t *lines)
{
	json_t *nr = hg_nr_json(hg_stream_not_received(rs->stream));
	json_t *cpus = json_object_get(nr, "cpus"), *c;
	size_t i, shown = 0;
	json_array_foreach(cpus, i, c) {
		double rec = (double)json_integer_value(json_object_get(c, "received_ns"));
		double miss = (double)json_integer_value(json_object_get(c, "not_received_ns"));
		if (rec + miss <= 0 || miss / (rec + miss) < 0.01)
			continue;
		char a[32], b[32];
		hg_json_appendf(lines, "CPU %lld: the scenario did not get %s of the %s it wanted there (%.1f%%)",
		    (long long)json_integer_value(json_object_get(c, "cpu")),
		    hg_format_ns_approx(miss, a), hg_format_ns_approx(rec + miss, b),
		    100 * miss / (rec + miss));
		shown++;
	}
	if (!shown && json_array_size(cpus))
		hg_json_appendf(lines, "the scenario got over 99%% of the CPU time it wanted on every CPU");
	json_decref(nr);
}

json_t *hg_verdict_json(const struct hg_run_state *rs)
{
	json_t *exps = json_array(), *findings = json_array(), *r;
	size_t i, failed = 0;
	json_array_foreach(rs->expectations, i, r) {
		if (i >= rs->plan->n_expects)
			break;
		json_t *e = expectation(&rs->plan->expects[i], r);
		failed += !json_is_true(json_object_get(e, "pass"));
		json_array_append_new(exps, e);
	}
	size_t n = json_array_size(exps);
	char headline[256];
	if (!rs->complete)
		snprintf(headline, sizeof(headline), "INCOMPLETE: the run did not run its whole "
			 "duration; its %zu expectation%s are not a finding", n, n == 1 ? "" : "s");
	else if (!n)
		snprintf(headline, sizeof(headline), "no expectations (the scenario has no expect:)");
	else if (failed)
		snprintf(headline, sizeof(headline), "FAIL: %zu of %zu expectation%s failed", failed, n,
			 n == 1 ? "" : "s");
	else
		snprintf(headline, sizeof(headline), "PASS: %s%zu expectation%s met", n > 1 ? "all " : "",
			 n, n == 1 ? "" : "s");
	cpu_findings(rs, findings);
	miss_and_latency_findings(rs, findings);
	not_received_findings(rs, findings);
	return json_pack("{s:s, s:s, s:o, s:o}", "status", hg_exit_word(rs->exit_status),
			 "headline", headline, "expectations", exps, "findings", findings);
}

void hg_verdict_print(const json_t *verdict, FILE *out)
{
	size_t i;
	json_t *v;
	fprintf(out, "verdict: %s\n", json_string_value(json_object_get(verdict, "headline")));
	json_array_foreach(json_object_get(verdict, "expectations"), i, v)
		fprintf(out, "  %s\n", json_string_value(json_object_get(v, "line")));
	json_t *findings = json_object_get(verdict, "findings");
	if (json_array_size(findings))
		fputs("findings:\n", out);
	json_array_foreach(findings, i, v)
		fprintf(out, "  %s\n", json_string_value(v));
}

void hg_verdict_print_failed(const json_t *verdict, FILE *err)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(verdict, "expectations"), i, v) {
		const char *line = json_string_value(json_object_get(v, "line"));
		if (!json_is_true(json_object_get(v, "pass")) && line && !strncmp(line, "FAIL ", 5))
			fprintf(err, "expectation failed: %s\n", line + 5);
	}
}
