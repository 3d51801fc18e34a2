/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What hgrun may remove: only names it (or hgreport) writes, in files and
 * directories owned by the user running it, one directory level at a time
 * through directory fds (a directory swapped for a link mid-walk is never
 * followed), never a recursive delete of a user's directory, never a
 * directory another hgrun is writing (base/dirlock.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/dirlock.h"
#include "base/tree.h"
#include "results/outdir_walk.h"

/* The files of one run (results/, loads/exec.c, hgreport's report/ apart)
 * and their temporaries. */
static const char *const run_files[] = {
	"result.json", "trace.bin", "latency.bin", "series.jsonl", "kernel.jsonl",
	"late_wakeups.jsonl",
	"trace.jsonl", "latency.jsonl",   /* written by hgrun before the binary traces */
	".hgrun-reserve",                 /* results/results.c: left only by a SIGKILLed run */
};

static bool is_temporary(const char *name, const char *const *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(files[i]);
		if (strncmp(name, files[i], len) == 0 && strncmp(name + len, ".tmp.", 5) == 0)
			return true;
	}
	return false;
}

/* "load-" NAME and ".out" or ".err": an exec or stress_ng load's output
 * (loads/keeper.c); ".yaml": stress_ng's metrics (loads/stress_ng.c). */
static bool is_load_output(const char *name)
{
	static const char *const ext[] = { ".out", ".err", ".yaml" };
	size_t len = strlen(name);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t e = strlen(ext[i]);
		if (strncmp(name, "load-", 5) == 0 && len > 5 + e &&
		    strcmp(name + len - e, ext[i]) == 0)
			return true;
	}
	return false;
}

/* "load-" NAME ".tmp": a stress_ng load's --temp-path (loads/stress_ng.c),
 * made 0700 by hgrun and removed after the run; a killed run leaves it. */
static bool is_load_tmp(const char *name)
{
	size_t len = strlen(name);
	return strncmp(name, "load-", 5) == 0 && len > 5 + 4 && strcmp(name + len - 4, ".tmp") == 0;
}

/* "hgrun-io-" PID "-" NAME "-XXXXXX" of an hgrun no longer running: an io
 * load's directory (loads/io.c) that a SIGKILLed run left, here when the
 * load's `dir` was the result directory. */
static bool is_stale_io_dir(const char *name)
{
	static const char prefix[] = "hgrun-io-";
	if (strncmp(name, prefix, sizeof(prefix) - 1) != 0)
		return false;
	char *end;
	long pid = strtol(name + sizeof(prefix) - 1, &end, 10);
	return pid > 0 && pid <= INT_MAX && *end == '-' && end[1] && (pid_t)pid != getpid() &&
	       kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

static bool is_run_file(const char *name)
{
	size_t n = sizeof(run_files) / sizeof(run_files[0]);
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, run_files[i]) == 0)
			return true;
	return is_temporary(name, run_files, n) || is_load_output(name);
}

/* A lock file: the directory's own, or (sweeps) a shard's or the shards'
 * index lock. */
static bool is_lock(const char *name)
{
	return strcmp(name, HG_DIRLOCK_NAME) == 0 || strcmp(name, HG_DIRLOCK_INDEX) == 0 ||
	       strncmp(name, HG_DIRLOCK_NAME "-shard-", sizeof(HG_DIRLOCK_NAME "-shard-") - 1) == 0;
}

/* Another shard's lock of the same sweep as the shard lock `held`
 * (".hgrun-lock-shard-K-of-N", the same N): shards of one sweep write the
 * directory side by side (runner/sweep/sweep_run.c), so to a shard it is
 * neither a busy writer nor an earlier sweep's file.  Shards of a job array
 * start together, each taking its lock before it checks the directory: were
 * the others' locks in the way, none would ever go first. */
static bool sibling_shard_lock(const char *held, const char *name)
{
	static const char prefix[] = HG_DIRLOCK_NAME "-shard-";
	const size_t n = sizeof(prefix) - 1;
	if (!held || strncmp(held, prefix, n) != 0 || strncmp(name, prefix, n) != 0)
		return false;
	const char *a = strstr(held + n, "-of-"), *b = strstr(name + n, "-of-");
	return a && b && strcmp(a, b) == 0;
}

/* "p012" / "r3": a letter then digits only. */
static bool is_id(const char *name, char letter)
{
	if (name[0] != letter || !name[1])
		return false;
	for (const char *c = name + 1; *c; c++)
		if (!isdigit((unsigned char)*c))
			return false;
	return true;
}

static void note_foreign(struct hg_outdir_walk *w, const char *shown, const char *why)
{
	size_t used = strlen(w->foreign_names);
	if (w->foreign < 4 && used < sizeof(w->foreign_names))
		snprintf(w->foreign_names + used, sizeof(w->foreign_names) - used, "%s%.60s%s",
			 w->foreign ? ", " : "", shown, why);
	w->foreign++;
}

static void note_busy(struct hg_outdir_walk *w, const char *shown, const char *holder)
{
	if (!w->busy[0])
		snprintf(w->busy, sizeof(w->busy), "%s%s%.400s", shown, shown[0] ? " is written by " : "",
			 holder);
}

static void remove_at(struct hg_outdir_walk *w, int dir, const char *name, bool is_dir)
{
	if (w->remove && unlinkat(dir, name, is_dir ? AT_REMOVEDIR : 0) < 0 && !w->error)
		w->error = -errno;
}

typedef bool (*entry_fn)(struct hg_outdir_walk *w, int dir, const char *name, const struct stat *st,
			 const char *shown);

/* Calls fn on every entry of the directory fd `dir` (not closed here);
 * `shown` prefixes names in messages. */
static void each_entry(struct hg_outdir_walk *w, int dir, const char *shown, entry_fn fn)
{
	int fd = fcntl(dir, F_DUPFD_CLOEXEC, 0);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		if (!w->error)
			w->error = -errno;
		return;
	}
	rewinddir(d);        /* the dup shares the position of an earlier walk */
	struct dirent *e;
	char show[PATH_MAX];
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (w->held && !strcmp(e->d_name, w->held)) ||
		    (w->held2 && !strcmp(e->d_name, w->held2)) || sibling_shard_lock(w->held, e->d_name))
			continue;        /* the lock this walk holds (its holder removes it), a sibling's */
		struct stat st;
		snprintf(show, sizeof(show), "%s%s", shown, e->d_name);
		if (fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;            /* gone meanwhile */
		if (st.st_uid != w->uid && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
			char why[48];
			snprintf(why, sizeof(why), " (owned by uid %u)", (unsigned)st.st_uid);
			note_foreign(w, show, why);
		} else if (fn(w, dir, e->d_name, &st, show)) {
			w->ours++;
		} else {
			note_foreign(w, show, "");
		}
	}
	closedir(d);
}

/* report/: hgreport's output, plain files only. */
static bool report_entry(struct hg_outdir_walk *w, int dir, const char *name, const struct stat *st,
			 const char *shown)
{
	if (!S_ISREG(st->st_mode))
		return false;
	remove_at(w, dir, name, false);
	return true;
}

/* A directory of our own kind, opened without following a link: emptied
 * by fn, then removed when empty.  A run directory (locked) is left alone
 * while another hgrun writes it. */
static bool our_dir(struct hg_outdir_walk *w, int parent, const char *name, const char *shown,
		    entry_fn fn, bool locked)
{
	char sub[PATH_MAX], holder[256];
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct hg_dirlock lock = { .dir = -1, .fd = -1 };
	if (locked) {
		int rc = w->remove ? hg_dirlock_take_at(fd, HG_DIRLOCK_NAME, "hgrun --force", &lock,
							holder, sizeof(holder))
			: hg_dirlock_busy_at(fd, HG_DIRLOCK_NAME, holder, sizeof(holder)) ? -EBUSY : 0;
		if (rc == -EBUSY) {
			note_busy(w, shown, holder);
			close(fd);
			return true;
		}
	}
	size_t before = w->foreign;
	const char *held = w->held;
	w->held = lock.fd >= 0 ? HG_DIRLOCK_NAME : NULL;
	snprintf(sub, sizeof(sub), "%s/", shown);
	each_entry(w, fd, sub, fn);
	w->held = held;
	hg_dirlock_release(&lock);
	close(fd);
	if (w->foreign == before)
		remove_at(w, parent, name, true);
	return true;   /* its foreign entries, if any, were named one by one */
}

/* load-NAME.tmp/: only stress-ng's own temporary directories
 * (tmp-stress-ng-*, its stress_temp_dir()). */
static bool stress_tmp_entry(struct hg_outdir_walk *w, int dir, const char *name, const struct stat *st,
			     const char *shown)
{
	if (strncmp(name, "tmp-stress-ng-", 14) != 0 || !S_ISDIR(st->st_mode))
		return false;
	/* What its stressor made there (files, directories, links, FIFOs of
	 * any name), all of the user's, any number of levels deep (a dirdeep
	 * stressor's thousands): base/tree.h. */
	struct hg_tree t = { .uid = w->uid, .remove = w->remove };
	int rc = hg_tree_walk(dir, name, &t);
	if (rc == -ENOTEMPTY && !(w->remove && t.error)) {
		char where[PATH_MAX];
		snprintf(where, sizeof(where), "%s/%s", shown, t.first_left);
		note_foreign(w, where, t.left > 1 ? " and more" : "");
	} else if (rc < 0 && !w->error) {
		w->error = rc == -ENOTEMPTY ? -t.error : rc;
	}
	return true;   /* what is not the user's, if anything, was named above */
}

/* In an io load's directory: its workers' files w0, w1, ... */
static bool io_file_entry(struct hg_outdir_walk *w, int dir, const char *name, const struct stat *st,
			  const char *shown)
{
	(void)shown;
	if (!is_id(name, 'w') || !S_ISREG(st->st_mode))
		return false;
	remove_at(w, dir, name, false);
	return true;
}

static bool lock_entry(struct hg_outdir_walk *w, int dir, const char *name, const struct stat *st,
		       const char *shown)
{
	char holder[256];
	if (!S_ISREG(st->st_mode))
		return false;
	if (hg_dirlock_busy_at(dir, name, holder, sizeof(holder)))
		note_busy(w, "", holder);
	else
		remove_at(w, dir, name, false);
	return true;
}

static bool run_entry(struct hg_outdir_walk *w, int dir, const char *name, const struct stat *st,
		      const char *shown)
{
	if (is_lock(name) && strcmp(name, HG_DIRLOCK_NAME) == 0)
		return lock_entry(w, dir, name, st, shown);
	if (is_run_file(name) && S_ISREG(st->st_mode)) {
		remove_at(w, dir, name, false);
		return true;
	}
	if ((!strcmp(name, "report") || !strcmp(name, "export")) && S_ISDIR(st->st_mode))
		return our_dir(w, dir, name, shown, report_entry, false);
	if (is_load_tmp(name) && S_ISDIR(st->st_mode) && !(st->st_mode & 077))
		return our_dir(w, dir, name, shown, stress_tmp_entry, false);
	if (S_ISDIR(st->st_mode) && !(st->st_mode & 077) && is_stale_io_dir(name))
		return our_dir(w, dir, name, shown, io_file_entry, false);
	return false;
}

static bool point_entry(struct hg_outdir_walk *w, int dir, const char *name, const struct stat *st,
			const char *shown)
{
	if (is_id(name, 'r') && S_ISDIR(st->st_mode))
		return our_dir(w, dir, name, shown, run_entry, true);
	return false;
}

static bool sweep_entry(struct hg_outdir_walk *w, int dir, const char *name, const struct stat *st,
			const char *shown)
{
	static const char *const index[] = { "sweep.json" };
	if (is_lock(name))
		return lock_entry(w, dir, name, st, shown);
	if ((!strcmp(name, "sweep.json") || is_temporary(name, index, 1)) && S_ISREG(st->st_mode)) {
		remove_at(w, dir, name, false);
		return true;
	}
	if (!strcmp(name, "report") && S_ISDIR(st->st_mode))
		return our_dir(w, dir, name, shown, report_entry, false);
	if (is_id(name, 'p') && S_ISDIR(st->st_mode))
		return our_dir(w, dir, name, shown, point_entry, false);
	return false;
}

void hg_outdir_walk(struct hg_outdir_walk *w, int dir, enum hg_outdir_kind kind)
{
	w->uid = geteuid();
	each_entry(w, dir, "", kind == HG_OUTDIR_RUN ? run_entry : sweep_entry);
}

