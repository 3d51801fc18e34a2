/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host facts that decide how a run reads (docs/kernel-trace.md): the
 * preemption model in effect, from debugfs even when it is not mounted (a
 * child process mounts it in a private mount namespace, so nothing changes
 * for the rest of the machine), and the kernel's build configuration
 * (/boot/config-<release> or /proc/config.gz): HZ, the preemption model
 * built as the boot default, NO_HZ_FULL. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/klog.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/child.h"
#include "base/fsutil.h"
#include "run/host_kernel.h"

#define DEBUGFS "/sys/kernel/debug"
#define PREEMPT_FILE DEBUGFS "/sched/preempt"

/* The child: a mount namespace of its own, debugfs mounted there, the
 * preempt file to the pipe. */
static void private_debugfs_child(int fd)
{
	char line[128];
	if (unshare(CLONE_NEWNS) == 0 &&
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
	    mount("debugfs", DEBUGFS, "debugfs", 0, NULL) == 0 &&
	    hg_read_first_line(PREEMPT_FILE, line, sizeof(line)) > 0) {
		ssize_t n = write(fd, line, strlen(line));
		(void)n;
	}
	_exit(0);
}

/* The child normally answers in milliseconds; the bound is for a child
 * that never does (runner/base/child.h). */
#define PRIVATE_DEBUGFS_TIMEOUT_MS 2000

static bool private_debugfs(char *line, size_t size)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return false;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		private_debugfs_child(p[1]);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return false;
	}
	return hg_child_read(pid, p[0], line, size, PRIVATE_DEBUGFS_TIMEOUT_MS) > 0;
}

bool hg_host_preempt_debugfs(char *line, size_t size, const char **source)
{
	if (hg_read_first_line(PREEMPT_FILE, line, size) > 0) {
		*source = PREEMPT_FILE;
		return true;
	}
	if (private_debugfs(line, size)) {
		line[strcspn(line, "\n")] = '\0';
		*source = PREEMPT_FILE " (debugfs mounted privately)";
		return true;
	}
	return false;
}

bool hg_lockdown_parse(const char *line, char *mode, size_t size)
{
	const char *open = line ? strchr(line, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;
	if (!close || close == open + 1)
		return false;
	snprintf(mode, size, "%.*s", (int)(close - open - 1), open + 1);
	return true;
}

const char *hg_host_lockdown_file(void)
{
	const char *env = getenv("HGRUN_LOCKDOWN");
	return env && env[0] ? env : HG_LOCKDOWN_FILE;
}

bool hg_host_lockdown(char *mode, size_t size)
{
	char line[128];
	return hg_read_first_line(hg_host_lockdown_file(), line, sizeof(line)) > 0 &&
	       hg_lockdown_parse(line, mode, size);
}

/* The last "Dynamic Preempt: <mode>" of the kernel log: printed at boot and
 * on every change through debugfs (the scheduler's sched_dynamic_update()),
 * so the last one is the mode in effect while the boot messages are still
 * in the ring buffer. */
bool hg_host_preempt_klog(char *model, size_t size)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (len <= 0)
		return false;
	char *buf = malloc((size_t)len + 1);
	if (!buf)
		return false;
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	bool found = false;
	if (n > 0) {
		buf[n] = '\0';
		const char *key = "Dynamic Preempt: ", *last = NULL;
		for (const char *p = strstr(buf, key); p; p = strstr(p + 1, key))
			last = p;
		if (last) {
			last += strlen(key);
			snprintf(model, size, "%.*s", (int)strcspn(last, " \n"), last);
			found = model[0] != '\0';
		}
	}
	free(buf);
	return found;
}

/* The kernel's configuration text (malloc'ed), or NULL: /boot/config-<release>
 * as it is, else /proc/config.gz through gzip -dc (gzip is part of every
 * Debian system; hgrun links no compression library for one file). */
static char *read_kernel_config(const char **source)
{
	static char boot[300];
	struct utsname u;
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap + 1);
	if (!buf || uname(&u) != 0)
		return free(buf), NULL;
	snprintf(boot, sizeof(boot), "/boot/config-%s", u.release);
	FILE *f = fopen(boot, "re");
	bool piped = false;
	*source = boot;
	if (!f && access("/proc/config.gz", R_OK) == 0) {
		f = popen("gzip -dc /proc/config.gz 2>/dev/null", "re");
		piped = f != NULL;
		*source = "/proc/config.gz";
	}
	if (!f)
		return free(buf), NULL;
	size_t n;
	while (len < cap && (n = fread(buf + len, 1, cap - len, f)) > 0)
		len += n;
	if (piped ? pclose(f) != 0 : fclose(f) != 0)
		len = 0;
	buf[len] = '\0';
	if (!len)
		return free(buf), NULL;
	return buf;
}

/* The same, read once per process: the running kernel's configuration
 * does not change, and a run asks twice (a gzip each, about 2.5 ms), a
 * sweep at every point. */
static const char *kernel_config(const char **source)
{
	static char *text;
	static const char *from;
	static bool read;
	if (!read) {
		text = read_kernel_config(&from);
		read = true;
	}
	*source = from;
	return text;
}

/* The value of "CONFIG_<name>=" in the config, "" when unset. */
static void config_value(const char *config, const char *name, char *out, size_t size)
{
	char key[64];
	int klen = snprintf(key, sizeof(key), "\nCONFIG_%s=", name);
	const char *p = strstr(config, key);
	out[0] = '\0';
	if (p)
		snprintf(out, size, "%.*s", (int)strcspn(p + klen, "\n"), p + klen);
}

static const struct { const char *option, *model; } config_models[] = {
	{ "PREEMPT_RT", "rt" }, { "PREEMPT_LAZY", "lazy" }, { "PREEMPT", "full" },
	{ "PREEMPT_VOLUNTARY", "voluntary" }, { "PREEMPT_NONE", "none" },
};

/* The first model of config_models[from..] the build selects, or false. */
static bool config_preempt(const char *config, size_t from, char *model, size_t size)
{
	char v[16];
	for (size_t i = from; i < sizeof(config_models) / sizeof(config_models[0]); i++) {
		config_value(config, config_models[i].option, v, sizeof(v));
		if (strcmp(v, "y") == 0) {
			snprintf(model, size, "%s", config_models[i].model);
			return true;
		}
	}
	return false;
}

bool hg_host_preempt_config(struct hg_config_preempt *c)
{
	const char *config = kernel_config(&c->source);
	char v[16];
	c->model[0] = c->dynamic_default[0] = '\0';
	c->dynamic = -1;
	if (!config)
		return false;
	config_preempt(config, 0, c->model, sizeof(c->model));
	config_preempt(config, 1, c->dynamic_default, sizeof(c->dynamic_default));
	config_value(config, "PREEMPT_DYNAMIC", v, sizeof(v));
	c->dynamic = strcmp(v, "y") == 0;
	return true;
}

void hg_host_kernel_config(json_t *host)
{
	const char *source = NULL;
	const char *config = kernel_config(&source);
	char v[64];
	json_t *hz = json_null(), *boot_preempt = json_null(), *nohz_full = json_null();
	if (config) {
		config_value(config, "HZ", v, sizeof(v));
		if (v[0])
			hz = json_integer(atoi(v));
		if (config_preempt(config, 0, v, sizeof(v)))
			boot_preempt = json_string(v);
		config_value(config, "NO_HZ_FULL", v, sizeof(v));
		nohz_full = json_boolean(strcmp(v, "y") == 0);
	}
	json_object_set_new(host, "hz", hz);
	json_object_set_new(host, "preempt_config_default", boot_preempt);
	json_object_set_new(host, "config_no_hz_full", nohz_full);
	json_object_set_new(host, "kernel_config", config ? json_string(source) : json_null());
}
