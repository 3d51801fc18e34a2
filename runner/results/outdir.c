/* What hgrun may remove: only names it (or hgreport) writes, one directory
 * level at a time, never a recursive delete of a user's directory. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/exitcodes.h"
#include "base/fsutil.h"
#include "results/outdir.h"

/* The files of one run (results/stream.c, results/results.c) and their
 * temporaries; a run's
 * result.json may name more in "files" (run_entry reads them). */
static const char *const run_files[] = {
	"result.json", "trace.bin", "latency.bin", "series.jsonl",
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

static bool is_run_file(const char *name)
{
	size_t n = sizeof(run_files) / sizeof(run_files[0]);
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, run_files[i]) == 0)
			return true;
	return is_temporary(name, run_files, n);
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

static bool is_dir(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Collects what a walk found that hgrun did not write, for the message. */
struct walk {
	bool remove;             /* remove hgrun's names as they are seen */
	json_t *files;           /* the run's result.json's "files" object, or NULL */
	size_t ours, foreign;
	char foreign_names[256];
	int error;               /* first removal error (-errno) */
};

static void note_foreign(struct walk *w, const char *path)
{
	size_t used = strlen(w->foreign_names);
	if (w->foreign < 4 && used < sizeof(w->foreign_names))
		snprintf(w->foreign_names + used, sizeof(w->foreign_names) - used, "%s%.60s",
			 w->foreign ? ", " : "", path);
	w->foreign++;
}

static void remove_one(struct walk *w, const char *path, bool dir)
{
	if (w->remove && (dir ? rmdir(path) : unlink(path)) < 0 && !w->error)
		w->error = -errno;
}

/* Reads DIR/result.json's "files" before DIR's entries are walked (and
 * perhaps removed, result.json among them). */
static void load_files(struct walk *w, const char *dir)
{
	char result[PATH_MAX + 16];
	json_decref(w->files);
	snprintf(result, sizeof(result), "%s/result.json", dir);
	json_t *r = json_load_file(result, 0, NULL);
	w->files = json_incref(json_object_get(r, "files"));
	json_decref(r);
}

/* Whether the run's result.json lists name in its "files". */
static bool listed_in_result(const struct walk *w, const char *name)
{
	const char *key;
	json_t *v;
	json_object_foreach(w->files, key, v) {
		const char *listed = json_string_value(v);
		if (listed && !strchr(listed, '/') && (!strcmp(name, listed) ||
						       is_temporary(name, &listed, 1)))
			return true;
	}
	return false;
}

typedef bool (*entry_fn)(struct walk *w, const char *path, const char *name, const char *shown);

/* Calls fn on every entry of dir; `shown` prefixes names in messages. */
static bool run_entry(struct walk *w, const char *path, const char *name, const char *shown);

static void each_entry(struct walk *w, const char *dir, const char *shown, entry_fn fn)
{
	if (fn == run_entry)
		load_files(w, dir);
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX], show[PATH_MAX];
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path) ||
		    snprintf(show, sizeof(show), "%s%s", shown, e->d_name) >= (int)sizeof(show)) {
			note_foreign(w, e->d_name);   /* too long to be ours */
			continue;
		}
		if (fn(w, path, e->d_name, show))
			w->ours++;
		else
			note_foreign(w, show);
	}
	if (d)
		closedir(d);
}

/* report/: hgreport's output, plain files only. */
static bool report_entry(struct walk *w, const char *path, const char *name, const char *shown)
{
	if (!is_file(path))
		return false;
	remove_one(w, path, false);
	return true;
}

/* A directory of our own kind: emptied by fn, then removed when empty. */
static bool our_dir(struct walk *w, const char *path, const char *shown, entry_fn fn)
{
	char sub[PATH_MAX];
	size_t before = w->foreign;
	snprintf(sub, sizeof(sub), "%s/", shown);
	each_entry(w, path, sub, fn);
	if (w->foreign == before)
		remove_one(w, path, true);
	return true;   /* its foreign entries, if any, were named one by one */
}

static bool run_entry(struct walk *w, const char *path, const char *name, const char *shown)
{
	if ((is_run_file(name) || listed_in_result(w, name)) && is_file(path)) {
		remove_one(w, path, false);
		return true;
	}
	if (!strcmp(name, "report") && is_dir(path))
		return our_dir(w, path, shown, report_entry);
	return false;
}

static bool point_entry(struct walk *w, const char *path, const char *name, const char *shown)
{
	if (is_id(name, 'r') && is_dir(path))
		return our_dir(w, path, shown, run_entry);
	return false;
}

static bool sweep_entry(struct walk *w, const char *path, const char *name, const char *shown)
{
	static const char *const index[] = { "sweep.json" };
	if ((!strcmp(name, "sweep.json") || is_temporary(name, index, 1)) && is_file(path)) {
		remove_one(w, path, false);
		return true;
	}
	if (!strcmp(name, "report") && is_dir(path))
		return our_dir(w, path, shown, report_entry);
	if (is_id(name, 'p') && is_dir(path))
		return our_dir(w, path, shown, point_entry);
	return false;
}

static void walk(struct walk *w, const char *dir, enum hg_outdir_kind kind)
{
	each_entry(w, dir, "", kind == HG_OUTDIR_SWEEP ? sweep_entry : run_entry);
	json_decref(w->files);
	w->files = NULL;
}

int hg_outdir_prepare(const char *dir, enum hg_outdir_kind kind, bool force, FILE *err)
{
	struct stat st;
	if (stat(dir, &st) < 0)
		return errno == ENOENT ? 0 : (fprintf(err, "hgrun: -o %s: %s\n", dir,
							strerror(errno)), HG_EXIT_FAILED);
	if (!S_ISDIR(st.st_mode)) {
		fprintf(err, "hgrun: -o %s: not a directory\n", dir);
		return HG_EXIT_USAGE;
	}
	const char *what = kind == HG_OUTDIR_SWEEP ? "sweep" : "run";
	struct walk w = { .remove = false };
	walk(&w, dir, kind);
	if (w.ours + w.foreign == 0)
		return 0;
	if (w.foreign) {
		fprintf(err, "hgrun: -o %s: the directory holds more than a %s's results (%s%s); "
			"hgrun never removes those, %s: choose a new directory, or move them away\n",
			dir, what, w.foreign_names, w.foreign > 4 ? ", ..." : "",
			force ? "not even with --force" : "and does not write its results among them");
		return HG_EXIT_USAGE;
	}
	if (!force) {
		fprintf(err, "hgrun: -o %s: the directory holds an earlier %s's results; hgrun "
			"does not overwrite results: choose a new directory, %sor add --force to "
			"remove the earlier %s's files first\n", dir, what,
			kind == HG_OUTDIR_SWEEP ? "add --resume to finish that sweep, " : "", what);
		return HG_EXIT_USAGE;
	}
	w = (struct walk){ .remove = true };
	walk(&w, dir, kind);
	if (w.error || w.foreign) {
		fprintf(err, "hgrun: -o %s: cannot remove the earlier %s: %s\n", dir, what,
			strerror(w.error ? -w.error : ENOTEMPTY));
		return HG_EXIT_FAILED;
	}
	return 0;
}

int hg_outdir_clear_run(const char *dir)
{
	struct walk w = { .remove = false };
	walk(&w, dir, HG_OUTDIR_RUN);
	if (w.foreign)
		return -ENOTEMPTY;
	w = (struct walk){ .remove = true };
	walk(&w, dir, HG_OUTDIR_RUN);
	return w.error;
}

int hg_outdir_make_unique(const char *prefix, char *out, size_t size)
{
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", prefix);
	char *slash = strrchr(parent, '/');
	if (slash) {
		*slash = '\0';
		int rc = hg_mkdirs(parent);
		if (rc)
			return rc;
	}
	for (int i = 1; i < 1000; i++) {
		int len = i == 1 ? snprintf(out, size, "%s", prefix)
			: snprintf(out, size, "%s-%d", prefix, i);
		if (len >= (int)size)
			return -ENAMETOOLONG;
		if (mkdir(out, 0777) == 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}
