/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tracefs instance of a run: find or mount tracefs, remove what dead
 * runs left, create instances/hgrun-<pid>, configure it (clock, buffer,
 * CPUs, events), start the reader (ktrace/ktrace_reader.c), and at the end
 * stop, drain and remove it.  See ktrace/ktrace.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "ktrace/ktrace.h"
#include "ktrace/ktrace_internal.h"
#include "run/host_kernel.h"

#define DEFAULT_TRACEFS "/sys/kernel/tracing"
#define INSTANCE_PREFIX "hgrun-"

int hg_ktrace_write(const char *dir, const char *name, const char *value)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = strlen(value);
	ssize_t n = write(fd, value, len);
	int rc = n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return rc;
}

static void fail(struct hg_ktrace *kt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fail(struct hg_ktrace *kt, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(kt->why, sizeof(kt->why), fmt, ap);
	va_end(ap);
}

static bool is_tracefs_root(const char *dir)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/instances", dir);
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The first mount point of tracefs in /proc/mounts, "" when none. */
static void mounted_tracefs(char *out, size_t size)
{
	char line[1024], dev[256], dir[PATH_MAX], type[64];
	out[0] = '\0';
	FILE *f = fopen("/proc/mounts", "re");
	if (!f)
		return;
	while (!out[0] && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %4095s %63s", dev, dir, type) == 3 &&
		    strcmp(type, "tracefs") == 0)
			snprintf(out, size, "%s", dir);
	fclose(f);
}

/* Why tracefs may be empty: kernel lockdown in confidentiality mode hides
 * every tracefs file (LOCKDOWN_TRACEFS), so a mount succeeds and has no
 * instances/.  "" when lockdown is not the reason. */
static const char *lockdown_note(void)
{
	static char note[160];
	char mode[32];
	note[0] = '\0';
	if (hg_host_lockdown(mode, sizeof(mode)) && strcmp(mode, "confidentiality") == 0)
		snprintf(note, sizeof(note), "; kernel lockdown is '%s' (%s), which hides tracefs",
			 mode, hg_host_lockdown_file());
	return note;
}

static int find_root(struct hg_ktrace *kt)
{
	const char *env = getenv("HGRUN_TRACEFS");
	if (env && env[0]) {
		snprintf(kt->root, sizeof(kt->root), "%s", env);
		if (is_tracefs_root(kt->root))
			return 0;
		fail(kt, "$HGRUN_TRACEFS=%s is not a tracefs root (no instances/)%s", env,
		     lockdown_note());
		return -1;
	}
	mounted_tracefs(kt->root, sizeof(kt->root));
	if (kt->root[0]) {
		if (is_tracefs_root(kt->root))
			return 0;
		int e = errno;
		fail(kt, "cannot use tracefs at %s: %s%s%s", kt->root, strerror(e),
		     e == EACCES || e == EPERM ? " (needs root)" : "", lockdown_note());
		return -1;
	}
	snprintf(kt->root, sizeof(kt->root), DEFAULT_TRACEFS);
	if (mount("nodev", DEFAULT_TRACEFS, "tracefs", 0, NULL) != 0) {
		int e = errno;
		fail(kt, "tracefs is not mounted and mounting it on %s failed: %s (needs root, "
		     "CAP_SYS_ADMIN, or: mount -t tracefs nodev %s)%s", DEFAULT_TRACEFS,
		     strerror(e), DEFAULT_TRACEFS, lockdown_note());
		return -1;
	}
	if (is_tracefs_root(kt->root)) {
		kt->mounted = true;
		return 0;
	}
	/* mounted, but empty: take the mount back at once */
	int e = errno;
	bool unmounted = umount2(DEFAULT_TRACEFS, 0) == 0;
	fail(kt, "tracefs mounted on %s has no instances/ (%s)%s%s", DEFAULT_TRACEFS, strerror(e),
	     lockdown_note(), unmounted ? "; unmounted again" : "; could not unmount it");
	return -1;
}

/* Whether pid is a live hgrun (a reused pid of another program is not). */
static bool hgrun_alive(long pid)
{
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return false;
	char path[64], comm[32];
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (hg_read_first_line(path, comm, sizeof(comm)) <= 0)
		return true;   /* cannot tell: leave it */
	return strncmp(comm, "hgrun", 5) == 0 || strncmp(comm, "hg-", 3) == 0;
}

int hg_ktrace_remove_stale(const char *tracefs_root)
{
	char dir[PATH_MAX + 16], path[PATH_MAX + 300];
	snprintf(dir, sizeof(dir), "%s/instances", tracefs_root);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int removed = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		char *end;
		if (strncmp(e->d_name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)) != 0)
			continue;
		long pid = strtol(e->d_name + strlen(INSTANCE_PREFIX), &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() || hgrun_alive(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		removed += rmdir(path) == 0;
	}
	closedir(d);
	return removed;
}

static int create_instance(struct hg_ktrace *kt)
{
	if (snprintf(kt->dir, sizeof(kt->dir), "%.3900s/instances/" INSTANCE_PREFIX "%ld",
		     kt->root, (long)getpid()) >= (int)sizeof(kt->dir)) {
		fail(kt, "the tracefs path %s is too long", kt->root);
		kt->dir[0] = '\0';
		return -1;
	}
	if (mkdir(kt->dir, 0700) == 0)
		return 0;
	/* left by an earlier run of this same process (a sweep) */
	if (errno == EEXIST && rmdir(kt->dir) == 0 && mkdir(kt->dir, 0700) == 0)
		return 0;
	int e = errno;
	fail(kt, "cannot create the tracefs instance %s: %s%s%s", kt->dir, strerror(e),
	     e == EACCES || e == EPERM ? " (needs root)" : "", lockdown_note());
	kt->dir[0] = '\0';
	return -1;
}

static void cpumask_hex(const cpu_set_t *cpus, char *out, size_t size)
{
	int top = CPU_SETSIZE - 1;
	while (top > 0 && !CPU_ISSET(top, cpus))
		top--;
	size_t n = 0;
	for (int nib = top / 4; nib >= 0 && n + 2 < size; nib--) {
		int v = 0;
		for (int b = 0; b < 4; b++)
			if (CPU_ISSET(nib * 4 + b, cpus))
				v |= 1 << b;
		out[n++] = "0123456789abcdef"[v];
		if (nib % 8 == 0 && nib && n + 2 < size)
			out[n++] = ',';
	}
	out[n] = '\0';
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	char *buf = calloc(1, 16384);
	if (buf)
		buf[fread(buf, 1, 16383, f)] = '\0';
	fclose(f);
	return buf;
}

/* Reads the layout of each event and enables it; sched_switch is required,
 * the others are taken where this kernel has them; the late wake-ups'
 * only when asked (they double the events of a busy machine:
 * docs/kernel-trace.md). */
static int enable_events(struct hg_ktrace *kt)
{
	char path[PATH_MAX + 128];
	for (size_t i = 0; i < hg_n_kevent_specs; i++) {
		const struct hg_kevent_spec *s = &hg_kevent_specs[i];
		if (s->wakeups && !kt->wakeups)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/format", kt->dir, s->path);
		char *text = slurp(path);
		struct hg_kformat f;
		int ok = text && hg_kformat_parse(text, s, &f) == 0;
		free(text);
		snprintf(path, sizeof(path), "events/%s/enable", s->path);
		if (ok && hg_ktrace_write(kt->dir, path, "1") == 0 &&
		    kt->n_formats < sizeof(kt->formats) / sizeof(kt->formats[0])) {
			kt->formats[kt->n_formats++] = f;
			json_array_append_new(kt->enabled, json_string(s->path));
		} else if (s->kind == HG_KEV_SWITCH) {
			fail(kt, "cannot enable %s in %s", s->path, kt->dir);
			return -1;
		}
	}
	return 0;
}

static int configure(struct hg_ktrace *kt)
{
	char mask[300], kb[32];
	int rc;
	const char *what = "tracing_on";
	cpumask_hex(&kt->cpus, mask, sizeof(mask));
	snprintf(kb, sizeof(kb), "%d", HG_KTRACE_BUFFER_KB);
	if ((rc = hg_ktrace_write(kt->dir, what, "0")) == 0 &&
	    (rc = hg_ktrace_write(kt->dir, what = "trace_clock", "mono")) == 0 &&
	    (rc = hg_ktrace_write(kt->dir, what = "buffer_size_kb", kb)) == 0 &&
	    (rc = hg_ktrace_write(kt->dir, what = "tracing_cpumask", mask)) == 0)
		return enable_events(kt);
	fail(kt, "cannot write %s/%s: %s", kt->dir, what, strerror(-rc));
	return -1;
}

struct hg_ktrace *hg_ktrace_start(const cpu_set_t *cpus, bool wakeups)
{
	struct hg_ktrace *kt = calloc(1, sizeof(*kt));
	if (!kt)
		return NULL;
	for (int i = 0; i < CPU_SETSIZE; i++)
		kt->fds[i] = -1;
	kt->cpus = *cpus;
	kt->wakeups = wakeups;
	kt->enabled = json_array();
	kt->names = malloc(sizeof(*kt->names));
	if (!kt->names || !kt->enabled) {
		fail(kt, "out of memory");
		return kt;
	}
	hg_knames_init(kt->names);
	if (find_root(kt) < 0)
		return kt;
	kt->stale_removed = hg_ktrace_remove_stale(kt->root);
	if (create_instance(kt) < 0) {
		hg_ktrace_stop(kt);   /* unmounts tracefs when this run mounted it */
		return kt;
	}
	int rc = 0;
	if (configure(kt) < 0 || (rc = hg_ktrace_reader_start(kt)) < 0 ||
	    (rc = hg_ktrace_write(kt->dir, "tracing_on", "1")) < 0) {
		if (!kt->why[0])
			fail(kt, "cannot start reading %s: %s", kt->dir, strerror(-rc));
		hg_ktrace_stop(kt);
		kt->active = false;
		return kt;
	}
	kt->active = true;
	return kt;
}

bool hg_ktrace_active(const struct hg_ktrace *kt) { return kt && kt->active; }
const char *hg_ktrace_why(const struct hg_ktrace *kt) { return kt ? kt->why : "out of memory"; }

void hg_ktrace_stop(struct hg_ktrace *kt)
{
	if (!kt || kt->stopped)
		return;
	kt->stopped = true;
	if (kt->dir[0])
		hg_ktrace_write(kt->dir, "tracing_on", "0");
	hg_ktrace_reader_stop(kt);
	if (kt->names)
		hg_knames_full_irq_threads(kt->names);
	if (kt->dir[0])
		kt->removed = rmdir(kt->dir) == 0 || errno == ENOENT;
	if (kt->mounted)
		umount2(kt->root, 0);   /* EBUSY when another tracer uses it now: leave it */
}

void hg_ktrace_free(struct hg_ktrace *kt)
{
	if (!kt)
		return;
	hg_ktrace_stop(kt);
	free(kt->ev);
	free(kt->names);
	json_decref(kt->enabled);
	free(kt);
}

void hg_ktrace_losses(const struct hg_ktrace *kt, uint64_t *not_kept, uint64_t *lost)
{
	*not_kept = kt && kt->stopped ? kt->not_kept : 0;
	*lost = kt && kt->stopped ? kt->lost + kt->dec.missed : 0;
}

const struct hg_kevent *hg_ktrace_events(const struct hg_ktrace *kt, size_t *n)
{
	*n = kt && kt->stopped ? kt->n_ev : 0;
	return *n ? kt->ev : NULL;
}

const struct hg_knames *hg_ktrace_names(const struct hg_ktrace *kt)
{
	return kt ? kt->names : NULL;
}

const char *hg_ktrace_task_name(const struct hg_ktrace *kt, int32_t pid)
{
	const char *n = pid == 0 ? "idle" : hg_knames_task(hg_ktrace_names(kt), pid);
	return n ? n : "?";
}

json_t *hg_ktrace_to_json(const struct hg_ktrace *kt)
{
	if (!kt || !kt->active)
		return json_pack("{s:b, s:s}", "enabled", false, "reason",
				 kt && kt->why[0] ? kt->why : "not asked for");
	json_t *cpus = json_array();
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &kt->cpus))
			json_array_append_new(cpus, json_integer(c));
	json_t *o = json_pack("{s:b, s:n, s:s, s:s, s:o, s:i}", "enabled", true, "reason",
			      "instance", kt->dir, "clock", "mono", "cpus", cpus,
			      "buffer_kb", HG_KTRACE_BUFFER_KB);
	json_object_set(o, "events_enabled", kt->enabled);
	if (!kt->stopped)
		return o;   /* a checkpoint while the reader runs: its counters are its own */
	json_object_set_new(o, "events", json_integer((json_int_t)kt->n_ev));
	json_object_set_new(o, "events_not_kept", json_integer((json_int_t)kt->not_kept));
	json_object_set_new(o, "lost", json_integer((json_int_t)kt->lost));
	json_object_set_new(o, "pages_with_lost_events",
			    json_integer((json_int_t)kt->dec.missed));
	json_object_set_new(o, "malformed", json_integer((json_int_t)kt->dec.malformed));
	json_object_set_new(o, "reader_cpu_ns", json_integer(kt->reader_cpu_ns));
	json_object_set_new(o, "removed", json_boolean(kt->removed));
	json_object_set_new(o, "mounted_by_hgrun", json_boolean(kt->mounted));
	json_object_set_new(o, "stale_removed", json_integer(kt->stale_removed));
	return o;
}
