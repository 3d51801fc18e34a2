/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host object of result.json.  Each field comes from one small reader;
 * a file that is missing or unreadable gives null, never an error, because
 * containers, VMs and non-x86 machines lack different parts of /sys. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/cpuset.h"
#include "base/fsutil.h"
#include "run/host.h"
#include "run/host_kernel.h"

#define CPUFREQ0 "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
#define CLOCKSOURCE0 "/sys/devices/system/clocksource/clocksource0/"

/* The value of the first "key<spaces>: value" line of /proc/cpuinfo, in a
 * malloc'ed string, or NULL. */
static char *cpuinfo_value(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return NULL;
	char *line = NULL, *value = NULL;
	size_t cap = 0, klen = strlen(key);
	while (!value && getline(&line, &cap, f) > 0) {
		if (strncmp(line, key, klen) != 0 || !strchr(" \t:", line[klen]))
			continue;
		char *colon = strchr(line + klen, ':');
		if (!colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		value = strdup(colon);
	}
	free(line);
	fclose(f);
	return value;
}

/* Whether `word` occurs in the blank-separated list `s`. */
static bool has_word(const char *s, const char *word)
{
	size_t len = strlen(word);
	for (const char *p = s; (p = strstr(p, word)) != NULL; p += len) {
		bool starts = p == s || p[-1] == ' ' || p[-1] == '\t';
		bool ends = p[len] == '\0' || p[len] == ' ' || p[len] == '\t';
		if (starts && ends)
			return true;
	}
	return false;
}

int hg_host_cpu_flag(const char *flag)
{
	char *flags = cpuinfo_value("flags");
	if (!flags)
		return -ENOENT;
	int has = has_word(flags, flag);
	free(flags);
	return has;
}

/* The value of `name=` on the kernel command line, or "" if absent. */
static void cmdline_param(const char *cmdline, const char *name, char *out, size_t size)
{
	size_t len = strlen(name);
	out[0] = '\0';
	for (const char *p = cmdline; *p; ) {
		p += strspn(p, " ");
		if (strncmp(p, "-- ", 3) == 0 || strcmp(p, "--") == 0)
			return;         /* what follows goes to init */
		size_t word = strcspn(p, " ");
		if (word > len && strncmp(p, name, len) == 0 && p[len] == '=') {
			size_t vlen = word - len - 1;
			if (vlen >= size)
				vlen = size - 1;
			memcpy(out, p + len + 1, vlen);
			out[vlen] = '\0';
		}
		p += word;
	}
}

void hg_host_preempt(struct hg_preempt_model *m)
{
	char realtime[16], cmdline[4096], preempt_arg[32], klog[32], debugfs[128];
	struct utsname u;
	struct hg_config_preempt config;
	struct hg_preempt_facts f = { 0 };
	f.config_dynamic = -1;
	if (uname(&u) == 0)
		f.uname_version = u.version;
	if (hg_read_first_line("/sys/kernel/realtime", realtime, sizeof(realtime)) > 0)
		f.realtime = realtime;
	if (hg_host_preempt_config(&config)) {
		f.config_model = config.model[0] ? config.model : NULL;
		f.config_dynamic_default = config.dynamic_default[0] ? config.dynamic_default : NULL;
		f.config_dynamic = config.dynamic;
		f.config_source = config.source;
	}
	if (hg_host_preempt_debugfs(debugfs, sizeof(debugfs), &f.debugfs_source))
		f.debugfs = debugfs;
	if (hg_read_first_line("/proc/cmdline", cmdline, sizeof(cmdline)) > 0) {
		cmdline_param(cmdline, "preempt", preempt_arg, sizeof(preempt_arg));
		f.cmdline_preempt = preempt_arg[0] ? preempt_arg : NULL;
	}
	if (hg_host_preempt_klog(klog, sizeof(klog)))
		f.klog_dynamic = klog;
	hg_preempt_decide(&f, m);
}

static json_t *string_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *file_string(const char *path)
{
	char buf[512];
	return hg_read_first_line(path, buf, sizeof(buf)) > 0 ? json_string(buf) : json_null();
}

static json_t *file_integer(const char *path)
{
	char buf[64], *end;
	if (hg_read_first_line(path, buf, sizeof(buf)) <= 0)
		return json_null();
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	return errno || end == buf || *end ? json_null() : json_integer(v);
}

static json_t *cpu_flag(const char *flag)
{
	int has = hg_host_cpu_flag(flag);
	return has < 0 ? json_null() : json_boolean(has);
}

static void add_cpus(json_t *host)
{
	char list[1024], err[HG_ERRLEN];
	cpu_set_t set;
	long n = -1;
	if (hg_read_first_line("/sys/devices/system/cpu/online", list, sizeof(list)) > 0 &&
	    hg_cpuset_parse(list, &set, err) == 0)
		n = CPU_COUNT(&set);
	else
		list[0] = '\0';
	if (n < 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	json_object_set_new(host, "cpus_online", n > 0 ? json_integer(n) : json_null());
	json_object_set_new(host, "cpus_online_list", string_or_null(list));
	char *model = cpuinfo_value("model name");
	json_object_set_new(host, "cpu_model", string_or_null(model));
	free(model);
	json_object_set_new(host, "smt_active", file_integer("/sys/devices/system/cpu/smt/active"));
}

static void add_kernel(json_t *host)
{
	struct utsname u;
	bool ok = uname(&u) == 0;
	json_object_set_new(host, "hostname", ok ? json_string(u.nodename) : json_null());
	json_object_set_new(host, "kernel_release", ok ? json_string(u.release) : json_null());
	json_object_set_new(host, "kernel_version", ok ? json_string(u.version) : json_null());
	json_object_set_new(host, "machine", ok ? json_string(u.machine) : json_null());
	struct hg_preempt_model m;
	char lockdown[32];
	hg_host_preempt(&m);
	json_object_set_new(host, "preempt", json_string(m.model));
	json_object_set_new(host, "preempt_source", json_string(m.source));
	json_object_set_new(host, "preempt_dynamic", string_or_null(m.dynamic));
	json_object_set_new(host, "preempt_dynamic_source",
			    m.is_dynamic ? json_string(m.dynamic_source) : json_null());
	json_object_set_new(host, "lockdown", hg_host_lockdown(lockdown, sizeof(lockdown)) ?
			    json_string(lockdown) : json_null());
}

static void add_scheduling(json_t *host)
{
	json_object_set_new(host, "sched_rt_runtime_us",
			    file_integer("/proc/sys/kernel/sched_rt_runtime_us"));
	json_object_set_new(host, "sched_rt_period_us",
			    file_integer("/proc/sys/kernel/sched_rt_period_us"));
	json_object_set_new(host, "governor", file_string(CPUFREQ0));
	json_object_set_new(host, "cpuidle_driver",
			    file_string("/sys/devices/system/cpu/cpuidle/current_driver"));
}

static void add_clock(json_t *host)
{
	json_object_set_new(host, "clocksource", file_string(CLOCKSOURCE0 "current_clocksource"));
	json_object_set_new(host, "clocksources_available",
			    file_string(CLOCKSOURCE0 "available_clocksource"));
	json_object_set_new(host, "constant_tsc", cpu_flag("constant_tsc"));
	json_object_set_new(host, "nonstop_tsc", cpu_flag("nonstop_tsc"));
}

/* CPU isolation parameters of the kernel command line (null when absent). */
static void add_isolation(json_t *host)
{
	static const char *const params[] = { "isolcpus", "nohz_full", "rcu_nocbs", "irqaffinity" };
	char cmdline[4096], value[512];
	bool ok = hg_read_first_line("/proc/cmdline", cmdline, sizeof(cmdline)) >= 0;
	json_object_set_new(host, "cmdline", ok ? string_or_null(cmdline) : json_null());
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		value[0] = '\0';
		if (ok)
			cmdline_param(cmdline, params[i], value, sizeof(value));
		json_object_set_new(host, params[i], string_or_null(value));
	}
}

json_t *hg_host_capture(void)
{
	json_t *host = json_object();
	if (!host)
		return NULL;
	add_kernel(host);
	add_clock(host);
	add_cpus(host);
	add_scheduling(host);
	add_isolation(host);
	hg_host_kernel_config(host);
	json_object_set_new(host, "isolated_cpus", file_string("/sys/devices/system/cpu/isolated"));
	json_object_set_new(host, "nohz_full_cpus", file_string("/sys/devices/system/cpu/nohz_full"));
	return host;
}
