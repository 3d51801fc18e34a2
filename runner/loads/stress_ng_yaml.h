/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading stress-ng's --yaml metrics (docs/loads.md, "stress_ng"): for
 * the stress_ng load (loads/stress_ng.c). */
#ifndef HG_STRESS_NG_YAML_H
#define HG_STRESS_NG_YAML_H

#include <stddef.h>
#include <stdint.h>

/* One stressor's line of `metrics:` in stress-ng's --yaml output. */
struct hg_stress_ng_metric {
	char stressor[64];
	uint64_t bogo_ops;
	double per_s_real, per_s_usr_sys;       /* bogo-ops per second */
	double wall_s, user_s, system_s;
	double cpu_usage_per_instance;          /* percent */
	uint64_t max_rss_kib;
};

#define HG_STRESS_NG_MAX_METRICS 8

struct hg_stress_ng_report {
	char version[32];                       /* system-info.stress-ng-version */
	struct hg_stress_ng_metric m[HG_STRESS_NG_MAX_METRICS];
	size_t n;
};

/* Parses stress-ng's YAML output (text of len bytes) with libyaml.
 * Returns 0, or -1 with the reason in err. */
int hg_stress_ng_parse(const char *text, size_t len, struct hg_stress_ng_report *r,
		       char *err, size_t errlen);

#endif
