/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load 'stress_ng': one stress-ng stressor (stress-ng --STRESSOR N, its
 * options passed as arguments, no shell) in the load's window, with
 * stress-ng's own metrics (bogo-ops) as the load's counters.
 *
 * The load process is a keeper (loads/keeper.c, as for exec: output
 * bounded, escapees killed; its priority, nice and cpus are the load's, and
 * stress-ng and its workers inherit them) that runs stress-ng.  At stop the supervisor's SIGTERM reaches stress-ng
 * and its workers (one process group); stress-ng stops its workers and
 * writes its --yaml metrics, which hgrun reads once everything is gone
 * (stress_ng_ended): stress-ng reports bogo-ops only at its end, so the
 * series gets one line for the whole window (docs/loads.md). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/names.h"
#include "base/tree.h"
#include "base/timeutil.h"
#include "loads/keeper.h"
#include "loads/rows.h"
#include "loads/stress_ng_host.h"
#include "loads/stress_ng_yaml.h"
#include "plan/keys.h"
#include "plan/load.h"
#include "plan/plan.h"

struct params {
	char *stressor;
	uint64_t workers;
	struct hg_args options;
	uint64_t output_max;
};

static const struct hg_param params[] = {
	{ .name = "stressor", .kind = HG_PARAM_STRING, .offset = offsetof(struct params, stressor),
	  .min = 1, .required = true,
	  .help = "the stress-ng stressor to run (stress-ng --stressors): cpu, vm, hdd, fork, ..." },
	{ .name = HG_KEY_WORKERS, .kind = HG_PARAM_UINT, .offset = offsetof(struct params, workers),
	  .max = HG_LOAD_WORKERS_MAX, .def = "1",
	  .help = "instances of the stressor (--STRESSOR N); 0: one per CPU the load may use" },
	{ .name = "options", .kind = HG_PARAM_ARGS, .offset = offsetof(struct params, options),
	  .help = "the stressor's options, given to stress-ng as arguments (no shell): "
		  "{vm-bytes: 128M, vm-keep: true} or [--vm-bytes, 128M]" },
	HG_LOAD_ROW_OUTPUT_MAX(struct params, output_max),
	HG_PARAMS_END
};

/* stress-ng's own options that hgrun sets (timeout, metrics, the YAML
 * file, scheduling and CPUs are the load's) or that would run other
 * stressors or none.  A prefix of one is refused too: stress-ng takes
 * unambiguous prefixes of long options (--timeo 5 is --timeout 5). */
static const char *const owned[] = {
	"timeout", "yaml", "metrics", "metrics-brief", "log-file", "job", "taskset", "sched",
	"sched-prio", "sched-period", "sched-runtime", "sched-deadline", "sched-reclaim", "all",
	"parallel", "sequential", "random", "class", "exclude", "dry-run", "help", "version",
	"stressors", "verifiable",
};

static const char *const file_ext[3] = { "out", "err", "yaml" };

#define FIRST_FD 3              /* the YAML file, as stress-ng's /proc/self/fd/3 */
#define PARSE_MAX (256 * 1024)  /* stress-ng's YAML is a few KiB */
#define EXTRA_TIMEOUT_S 2       /* stress-ng's own --timeout, past the window: a backstop */

struct sng {
	char exe[PATH_MAX];
	char tmp[NAME_MAX + 1];         /* --temp-path, made by hgrun in the result directory
					   ("load-NAME.tmp"); "" when the user gave one */
	int tmp_fd;                     /* it, open: stress-ng's /proc/self/fd/4 */
	bool tmp_gone;                  /* removed, or what is left said */
	char **argv;
	char yaml_name[64];             /* its --yaml file's name in the result dir */
	int fd[3];                      /* its stdout, stderr and --yaml files */
	bool ready;                     /* prepared: else cleanup removes the files */
	/* hgrun side, after the stop */
	bool read;                      /* stress_ng_ended ran */
	bool parsed;
	char why[200];                  /* why not parsed */
	struct hg_stress_ng_report rep;
	uint64_t bogo_ops;              /* of the load's stressor */
	bool listed;                    /* it was in the metrics */
};

/* ---- checks (validate time) ------------------------------------------- */

/* The option an argument names ("vm-bytes" of --vm-bytes=1G), or NULL when
 * it is a value.  Short options (-c 4) are refused by the check. */
static const char *option_name(const char *arg, char *buf, size_t size)
{
	if (arg[0] != '-' || !((arg[1] >= 'a' && arg[1] <= 'z') || (arg[1] >= 'A' && arg[1] <= 'Z') ||
			       arg[1] == '-'))
		return NULL;
	const char *n = arg + (arg[1] == '-' ? 2 : 1);
	snprintf(buf, size, "%.*s", (int)strcspn(n, "="), n);
	return buf;
}

static bool owned_option(const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++)
		if (len && strncmp(owned[i], name, len) == 0)
			return true;
	return false;
}

static bool is_stressor(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

static void check_option(const struct params *p, size_t i, const char *const *list, size_t n,
			 struct hg_param_errors *e)
{
	const char *arg = p->options.v[i];
	char name[128], key[160];
	if (!option_name(arg, name, sizeof(name)))
		return;
	if (p->options.map)
		snprintf(key, sizeof(key), "options.%s", arg + 2);
	else
		snprintf(key, sizeof(key), "options[%zu]", i);
	if (arg[1] != '-')
		hg_param_error(e, key, "'%s': write stress-ng's options by their long names "
			       "(stress-ng --help lists them)", arg);
	else if (strcmp(name, p->stressor) == 0)
		hg_param_error(e, key, "'--%s' sets the number of instances: use the load's "
			       "'workers'", name);
	else if (owned_option(name))
		hg_param_error(e, key, "'--%s' is hgrun's to set (the load's window, priority, "
			       "cpus and metrics): leave it out", name);
	else if (is_stressor(name, list, n))
		hg_param_error(e, key, "'--%s' would start another stressor: give it a load of "
			       "its own", name);
}

static void sng_check(const void *values, struct hg_param_errors *e)
{
	const struct params *p = values;
	char exe[PATH_MAX], why[256];
	/* Without stress-ng the stressor and options wait for a host that has
	 * it: its absence is a note (hg_load_missing_tool), not an error. */
	if (!hg_stress_ng_find(exe, sizeof(exe), why, sizeof(why)))
		return;
	size_t n;
	const char *const *list = hg_stress_ng_stressors(&n);
	if (n && p->stressor && !is_stressor(p->stressor, list, n)) {
		const char *near = hg_suggest(p->stressor, list, n);
		hg_param_error(e, "stressor", "unknown stressor '%s'%s%s%s (stress-ng --stressors "
			       "lists the %zu of %s)", p->stressor, near ? "; did you mean '" : "",
			       near ? near : "", near ? "'?" : "", n, exe);
	}
	for (size_t i = 0; p->stressor && i < p->options.n; i++)
		check_option(p, i, list, n, e);
}

static const struct hg_load_tool tools[] = {
	{ .program = "stress-ng", .package = HG_STRESS_NG_PACKAGE },
	{ NULL },
};

static bool sng_supported(char *why, size_t size)
{
	char exe[PATH_MAX];
	return hg_stress_ng_find(exe, sizeof(exe), why, size);
}

/* ---- prepare (in hgrun, before any fork) --------------------------------- */

static int open_output(struct hg_load_run *l, const char *ext, int flags, char *err,
		       size_t errlen)
{
	char name[NAME_MAX + 1];
	snprintf(name, sizeof(name), "load-%.200s.%s", l->plan->name, ext);
	int fd = hg_open_new_at(l->result_dir_fd, name, flags, 0644);
	if (fd < 0)
		snprintf(err, errlen, "cannot create %s/%s: %s", l->result_dir, name, strerror(-fd));
	return fd;
}

/* load-NAME.tmp, stress-ng's --temp-path: made 0700 in the result
 * directory and kept open; stress-ng reaches it as /proc/self/fd/4, so a
 * result directory renamed or replaced by a link meanwhile never leads its
 * files elsewhere. */
static int make_tmp(struct hg_load_run *l, struct sng *g, char *err, size_t errlen)
{
	snprintf(g->tmp, sizeof(g->tmp), "load-%.200s.tmp", l->plan->name);
	int rc = mkdirat(l->result_dir_fd, g->tmp, 0700) == 0 ? 0 : -errno;
	if (!rc && (g->tmp_fd = hg_open_own_dir_at(l->result_dir_fd, g->tmp, false, NULL)) < 0)
		rc = g->tmp_fd;
	if (rc) {
		snprintf(err, errlen, "cannot create %s/%s (stress-ng's --temp-path): %s",
			 l->result_dir, g->tmp, strerror(-rc));
		g->tmp[0] = '\0';
	}
	return rc;
}

static bool user_temp_path(const struct params *p)
{
	char name[128];
	for (size_t i = 0; i < p->options.n; i++)
		if (option_name(p->options.v[i], name, sizeof(name)) && !strcmp(name, "temp-path"))
			return true;
	return false;
}

static unsigned instances(const struct hg_load_plan *lp, const struct params *p)
{
	cpu_set_t allowed;
	if (p->workers)
		return (unsigned)p->workers;
	if (!lp->cpus_all)
		allowed = lp->cpus;
	else if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return 1;
	return (unsigned)CPU_COUNT(&allowed);
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
	char buf[PATH_MAX + 32];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return strdup(buf);
}

/* stress-ng --STRESSOR N --timeout S --metrics-brief --yaml /proc/self/fd/3
 * [--temp-path DIR] OPTIONS... */
static int build_argv(struct hg_load_run *l, struct sng *g)
{
	const struct params *p = l->plan->params;
	uint64_t window_s = (l->plan->stop_ns - l->plan->start_ns + HG_NS_PER_SEC - 1) / HG_NS_PER_SEC;
	size_t n = 0;
	g->argv = calloc(12 + p->options.n, sizeof(char *));
	if (!g->argv)
		return -ENOMEM;
	g->argv[n++] = strdup("stress-ng");
	g->argv[n++] = format("--%s", p->stressor);
	g->argv[n++] = format("%u", instances(l->plan, p));
	g->argv[n++] = strdup("--timeout");
	g->argv[n++] = format("%llu", (unsigned long long)window_s + EXTRA_TIMEOUT_S);
	g->argv[n++] = strdup("--metrics-brief");
	g->argv[n++] = strdup("--yaml");
	g->argv[n++] = format("/proc/self/fd/%d", FIRST_FD);
	if (g->tmp[0]) {
		g->argv[n++] = strdup("--temp-path");
		g->argv[n++] = strdup("/proc/self/fd/4");
	}
	for (size_t i = 0; i < p->options.n; i++)
		g->argv[n++] = strdup(p->options.v[i]);
	for (size_t i = 0; i < n; i++)
		if (!g->argv[i])
			return -ENOMEM;
	return 0;
}

static int sng_prepare(struct hg_load_run *l, char *err, size_t errlen)
{
	const struct params *p = l->plan->params;
	struct sng *g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->fd[0] = g->fd[1] = g->fd[2] = g->tmp_fd = -1;
	l->priv = g;
	l->n_procs = 1;         /* the keeper; stress-ng runs the instances */
	if (!hg_stress_ng_find(g->exe, sizeof(g->exe), err, errlen))
		return -ENOENT;
	int rc = hg_keeper_open_outputs(l->result_dir_fd, l->result_dir, l->plan->name, g->fd,
					err, errlen);
	if (rc < 0)
		return rc;
	if ((g->fd[2] = open_output(l, "yaml", O_RDWR, err, errlen)) < 0)
		return g->fd[2];
	snprintf(g->yaml_name, sizeof(g->yaml_name), "load-%s.yaml", l->plan->name);
	if (!user_temp_path(p) && (rc = make_tmp(l, g, err, errlen)) < 0)
		return rc;
	rc = build_argv(l, g);
	if (rc == 0 && hg_stress_ng_dry_run(g->exe, g->argv, err, errlen) != 0)
		return -EINVAL;
	g->ready = rc == 0;
	return rc;
}

/* ---- the load process: the keeper (loads/keeper.c) ---------------------- */

static void exec_stress_ng(const void *arg)
{
	const struct sng *g = arg;
	execv(g->exe, g->argv);
}

static int sng_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	const struct sng *g = l->priv;
	const struct params *p = l->plan->params;
	struct hg_keeper k = { .out = { g->fd[0], g->fd[1] }, .output_max = p->output_max,
			       .extra_fd = g->fd[2], .dir_fd = g->tmp_fd, .exec = exec_stress_ng, .arg = g,
			       .what = g->exe };
	return hg_keeper_run(&k, l->plan->name, slot);
}

/* ---- after the stop (in hgrun) ------------------------------------------- */

/* Every process is gone: read the metrics stress-ng wrote, the load's
 * bogo-ops into its counter. */
static bool sng_ended(struct hg_load_run *l, struct hg_load_slot *slot)
{
	struct sng *g = l->priv;
	const struct params *p = l->plan->params;
	g->read = true;
	char *buf = malloc(PARSE_MAX);
	ssize_t len = buf ? pread(g->fd[2], buf, PARSE_MAX, 0) : -1;
	if (len < 0)
		snprintf(g->why, sizeof(g->why), "cannot read it: %s", strerror(buf ? errno : ENOMEM));
	else if (len == PARSE_MAX)
		snprintf(g->why, sizeof(g->why), "larger than %d KiB", PARSE_MAX / 1024);
	else if (hg_stress_ng_parse(buf, (size_t)len, &g->rep, g->why, sizeof(g->why)) == 0)
		g->parsed = true;
	free(buf);
	for (size_t i = 0; g->parsed && i < g->rep.n; i++)
		if (strcmp(g->rep.m[i].stressor, p->stressor) == 0) {
			g->bogo_ops += g->rep.m[i].bogo_ops;
			g->listed = true;
		}
	hg_load_add(slot, 0, g->bogo_ops);
	return g->parsed;
}

static json_t *metric_json(const struct hg_stress_ng_metric *m)
{
	return json_pack("{s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:I}", "stressor", m->stressor,
			 "bogo_ops", (json_int_t)m->bogo_ops, "bogo_ops_per_s", m->per_s_real,
			 "bogo_ops_per_s_usr_sys", m->per_s_usr_sys, "wall_s", m->wall_s,
			 "user_s", m->user_s, "system_s", m->system_s,
			 "cpu_usage_per_instance", m->cpu_usage_per_instance,
			 "max_rss_kib", (json_int_t)m->max_rss_kib);
}

static void sng_report(const struct hg_load_run *l, const struct hg_load_slot *slot, int64_t t0,
		       json_t *load, json_t *warnings)
{
	const struct sng *g = l->priv;
	const struct params *p = l->plan->params;
	hg_keeper_report(p->output_max, l->plan->name, slot, t0, load, warnings);
	if (!g || !g->read)
		return;
	if (!g->parsed)
		json_array_append_new(warnings, json_sprintf(
			"no metrics from stress-ng: %s is %s (its stderr: load-%s.err)", g->yaml_name,
			g->why, l->plan->name));
	else if (!g->listed)
		json_array_append_new(warnings, json_sprintf(
			"stress-ng reported no bogo-ops for '%s' (its metrics list only stressors "
			"that did work; its stderr: load-%s.err)", p->stressor, l->plan->name));
	if (!load)
		return;
	json_t *metrics = json_array(), *argv = json_array();
	double per_s = 0, per_s_usr_sys = 0;
	for (size_t i = 0; g->parsed && i < g->rep.n; i++) {
		json_array_append_new(metrics, metric_json(&g->rep.m[i]));
		if (strcmp(g->rep.m[i].stressor, p->stressor) == 0) {
			per_s += g->rep.m[i].per_s_real;
			per_s_usr_sys += g->rep.m[i].per_s_usr_sys;
		}
	}
	for (size_t i = 0; g->argv[i]; i++)
		json_array_append_new(argv, json_string(g->argv[i]));
	json_object_set_new(load, "stress_ng", json_pack(
		"{s:s?, s:o, s:s, s:o}", "version", g->parsed ? g->rep.version : NULL,
		"command", argv, "yaml", g->yaml_name, "metrics", metrics));
	json_t *stats = json_object_get(load, "stats");
	if (g->parsed && json_is_object(stats)) {
		json_object_set_new(stats, "bogo_ops_per_s", json_real(per_s));
		json_object_set_new(stats, "bogo_ops_per_s_usr_sys", json_real(per_s_usr_sys));
	} else if (json_is_object(stats)) {     /* not 0: unknown (the warning says why) */
		json_object_del(stats, "ops");
		json_object_del(stats, "ops_per_s");
		json_object_del(stats, "bogo_ops");
	}
}

/* Removes stress-ng's temp directory: what its stressors left there, any
 * number of levels deep (base/tree.h), never following a link.  Done once,
 * in hgrun's main thread after every load stopped: what could not be
 * removed is said in a warning and named in result.json's files. */
static const char *sng_tidy(struct hg_load_run *l, json_t *warnings)
{
	struct sng *g = l->priv;
	if (!g || !g->tmp[0] || g->tmp_gone)
		return NULL;
	g->tmp_gone = true;
	if (g->tmp_fd >= 0)
		close(g->tmp_fd);
	g->tmp_fd = -1;
	struct hg_tree t = { .uid = geteuid(), .remove = true };
	int rc = hg_tree_walk(l->result_dir_fd, g->tmp, &t);
	if (rc == 0 || rc == -ENOENT)
		return NULL;
	char why[400];
	if (t.left)
		snprintf(why, sizeof(why), "%llu entr%s left, the first %s: %s",
			 (unsigned long long)t.left, t.left == 1 ? "y" : "ies", t.first_left,
			 t.error ? strerror(t.error) : "another user's");
	else
		snprintf(why, sizeof(why), "%s", strerror(-rc));
	json_array_append_new(warnings, json_sprintf(
		"stress-ng's temporary directory %s could not be removed (%s); it is listed in "
		"files: remove it by hand", g->tmp, why));
	return g->tmp;
}

static void sng_cleanup(struct hg_load_run *l)
{
	struct sng *g = l->priv;
	if (!g)
		return;
	for (int i = 0; i < 3; i++) {
		char name[NAME_MAX + 1];
		snprintf(name, sizeof(name), "load-%.200s.%s", l->plan->name, file_ext[i]);
		if (g->fd[i] >= 0 && !g->ready)     /* a failed start leaves no files */
			unlinkat(l->result_dir_fd, name, 0);
		if (g->fd[i] >= 0)
			close(g->fd[i]);
	}
	json_t *w = json_array();
	sng_tidy(l, w);         /* a failed start: nothing ran, nothing is left */
	json_decref(w);
	for (size_t i = 0; g->argv && g->argv[i]; i++)
		free(g->argv[i]);
	free(g->argv);
	free(g);
	l->priv = NULL;
}

static bool sng_trust_note(const struct hg_load_plan *lp, const char *user, char *buf,
			   size_t size)
{
	const struct params *p = lp->params;
	snprintf(buf, size, "runs stress-ng --%s as %s", p->stressor, user);
	return true;
}

static void sng_files(const struct hg_load_plan *lp, json_t *files)
{
	char key[64], name[64];
	hg_keeper_files(lp->name, files);
	snprintf(key, sizeof(key), "load.%s.yaml", lp->name);
	snprintf(name, sizeof(name), "load-%s.yaml", lp->name);
	json_object_set_new(files, key, json_string(name));
}

const struct hg_load_ops hg_load_stress_ng = {
	.name = "stress_ng",
	.summary = "a stress-ng stressor with its options; its bogo-ops as the load's ops",
	.params = { params, sizeof(struct params) },
	.check = sng_check,
	.supported = sng_supported,
	.tools = tools,
	.trust_note = sng_trust_note,
	.counters = { "bogo_ops" },
	.counts_at_end = true,
	.grace_ns = 2 * HG_NS_PER_SEC,
	.prepare = sng_prepare,
	.run = sng_run,
	.ended = sng_ended,
	.cleanup = sng_cleanup,
	.tidy = sng_tidy,
	.report = sng_report,
	.files = sng_files,
};
