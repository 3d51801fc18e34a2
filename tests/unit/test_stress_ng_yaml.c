/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading stress-ng's --yaml output (runner/loads/stress_ng_yaml.c): the
 * shape stress-ng 0.15.06 (Debian 12) writes with --metrics-brief, 0.19.02's
 * (Debian 13) with its invalid build-info section, and what a stopped or
 * killed stress-ng leaves (nothing, or a file without its "..." end). */
#include <string.h>

#include "unit.h"
#include "loads/stress_ng_yaml.h"

static const char whole[] =
	"---\n"
	"system-info:\n"
	"      stress-ng-version: 0.15.06\n"
	"      run-by: root\n"
	"      cpus: 2\n"
	"\n"
	"metrics:\n"
	"    - stressor: cpu\n"
	"      bogo-ops: 833\n"
	"      bogo-ops-per-second-usr-sys-time: 1376.939162\n"
	"      bogo-ops-per-second-real-time: 828.923077\n"
	"      wall-clock-time: 1.004918\n"
	"      user-time: 0.604965\n"
	"      system-time: 0.000000\n"
	"      cpu-usage-per-instance: 60.200414\n"
	"      max-rss: 6508\n"
	"      some-future-key: 1\n"
	"\n"
	"    - stressor: vm\n"
	"      bogo-ops: 22061\n"
	"      bogo-ops-per-second-real-time: 21922.683850\n"
	"\n"
	"...\n";

static void test_whole(void)
{
	struct hg_stress_ng_report r;
	char err[200] = "";
	int rc = hg_stress_ng_parse(whole, strlen(whole), &r, err, sizeof(err));
	CHECK(rc == 0, "parse: %s", err);
	CHECK(!strcmp(r.version, "0.15.06"), "version '%s'", r.version);
	CHECK(r.n == 2, "%zu metrics", r.n);
	CHECK(!strcmp(r.m[0].stressor, "cpu") && r.m[0].bogo_ops == 833, "cpu %s %llu",
	      r.m[0].stressor, (unsigned long long)r.m[0].bogo_ops);
	CHECK(r.m[0].per_s_real > 828.92 && r.m[0].per_s_real < 828.93, "rate %f", r.m[0].per_s_real);
	CHECK(r.m[0].per_s_usr_sys > 1376.9 && r.m[0].max_rss_kib == 6508, "usr-sys, rss");
	CHECK(!strcmp(r.m[1].stressor, "vm") && r.m[1].bogo_ops == 22061 && r.m[1].wall_s == 0,
	      "vm: missing keys are 0");
}

/* What stress-ng 0.19.02 (Debian 13) writes: `build-info:` is not valid YAML
 * (the source-date-epoch line is not indented, the lines after it are). */
static const char debian13[] =
	"---\n"
	"build-info:\n"
	"      compiler: 'gcc 14.2.0'\n"
	"source-date-epoch: 1751354863\n"
	"      stdc-version: '199901L'\n"
	"      stdc-hosted: '1'\n"
	"\n"
	"system-info:\n"
	"      stress-ng-version: '0.19.02'\n"
	"      run-by: 'root'\n"
	"      cpus: 2\n"
	"\n"
	"metrics:\n"
	"    - stressor: cpu\n"
	"      bogo-ops: 1493\n"
	"      bogo-ops-per-second-usr-sys-time: 1535.965565\n"
	"      bogo-ops-per-second-real-time: 1482.954893\n"
	"      wall-clock-time: 1.006774\n"
	"      max-rss: 8612\n"
	"\n"
	"...\n";

static void test_debian13(void)
{
	struct hg_stress_ng_report r;
	char err[200] = "";
	int rc = hg_stress_ng_parse(debian13, strlen(debian13), &r, err, sizeof(err));
	CHECK(rc == 0, "parse: %s", err);
	CHECK(!strcmp(r.version, "0.19.02"), "version '%s'", r.version);
	CHECK(r.n == 1 && !strcmp(r.m[0].stressor, "cpu") && r.m[0].bogo_ops == 1493,
	      "%zu metrics", r.n);
	CHECK(r.m[0].per_s_real > 1482.95 && r.m[0].per_s_real < 1482.96 &&
	      r.m[0].max_rss_kib == 8612, "rate %f", r.m[0].per_s_real);
}

static void test_no_metrics_listed(void)
{
	/* --metrics-brief leaves out stressors without bogo-ops */
	static const char text[] = "---\nsystem-info:\n  stress-ng-version: 0.15.06\n...\n";
	struct hg_stress_ng_report r;
	char err[200] = "";
	CHECK(hg_stress_ng_parse(text, strlen(text), &r, err, sizeof(err)) == 0 && r.n == 0,
	      "no metrics: %s", err);
}

static void test_broken(void)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "", "empty" },
		{ "---\nsystem-info:\n  stress-ng-version: 0.15.06\nmetrics:\n  - stressor: cpu\n"
		  "    bogo-ops: 8", "incomplete" },
		{ "---\nmetrics: 5\n...\n", "not a list" },
		{ "---\nmetrics: [\n", "not YAML" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hg_stress_ng_report r;
		char err[200] = "";
		int rc = hg_stress_ng_parse(cases[i].text, strlen(cases[i].text), &r, err, sizeof(err));
		CHECK(rc == -1 && strstr(err, cases[i].want), "case %zu: rc %d, '%s'", i, rc, err);
	}
}

int main(void)
{
	test_whole();
	test_debian13();
	test_no_metrics_listed();
	test_broken();
	return unit_report("test_stress_ng_yaml");
}
