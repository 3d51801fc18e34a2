/* Private to the stress_ng load: stress_ng.c (the load), stress_ng_host.c
 * (finding stress-ng and its stressors), stress_ng_yaml.c (reading its
 * metrics).  docs/loads.md, "stress_ng". */
#ifndef HG_STRESS_NG_H
#define HG_STRESS_NG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HG_STRESS_NG_PACKAGE "stress-ng"   /* Debian's and Fedora's package */

/* The stress-ng on PATH into path (absolute); false with the reason in why
 * ("stress-ng not found on PATH (/usr/bin:/bin); install it: apt-get install
 * stress-ng"). */
bool hg_stress_ng_find(char *path, size_t size, char *why, size_t why_size);

/* The stressors of the stress-ng on PATH (`stress-ng --stressors`), asked
 * once per process; n = 0 when it could not be asked. */
const char *const *hg_stress_ng_stressors(size_t *n);

/* Runs exe with argv and --dry-run (stress-ng checks its options and their
 * values, runs nothing): 0, or -1 with the first line it printed in err. */
int hg_stress_ng_dry_run(const char *exe, char *const *argv, char *err, size_t errlen);

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
