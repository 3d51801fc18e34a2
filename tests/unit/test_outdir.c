/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Table-driven tests of what -o DIR accepts and what --force removes
 * (runner/results/outdir.c): only names hgrun and hgreport write, never
 * anything else, never recursively. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/dirlock.h"
#include "base/exitcodes.h"
#include "results/outdir.h"
#include "unit.h"

/* Entries: "d:NAME" a directory, "p:NAME" a directory of mode 0700 (as
 * hgrun makes a stress_ng load's load-NAME.tmp), "f:NAME" a FIFO,
 * "l:NAME" a symbolic link, "r:NAME" a
 * result.json whose "files" names kernel.trace, "o:NAME" an empty file of
 * uid 4242 (the tests run as root, or that case fails), else an empty file. */
struct ocase {
	const char *name;
	enum hg_outdir_kind kind;
	const char *entries[12];  /* up to 11, NULL-ended */
	int want_plain, want_force;   /* exit codes without and with --force */
	bool emptied;                 /* with --force: nothing left */
};

static const struct ocase cases[] = {
	{ "absent", HG_OUTDIR_RUN, { NULL }, 0, 0, true },
	{ "empty", HG_OUTDIR_RUN, { "" }, 0, 0, true },
	{ "a run", HG_OUTDIR_RUN, { "result.json", "trace.jsonl", "latency.jsonl", NULL },
	  HG_EXIT_USAGE, 0, true },
	{ "a run and its report", HG_OUTDIR_RUN,
	  { "result.json", "d:report", "report/report.md", "report/gaps.png", NULL },
	  HG_EXIT_USAGE, 0, true },
	{ "a run killed before its first checkpoint", HG_OUTDIR_RUN, { "trace.bin", "latency.bin",
	  "series.jsonl", NULL }, HG_EXIT_USAGE, 0, true },
	{ "a temporary", HG_OUTDIR_RUN, { "trace.jsonl.tmp.123", NULL }, HG_EXIT_USAGE, 0, true },
	{ "a user's file", HG_OUTDIR_RUN, { "result.json", "notes.txt", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a user's directory", HG_OUTDIR_RUN, { "d:src", "src/main.c", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a link named like ours", HG_OUTDIR_RUN, { "l:result.json", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a report with a subdirectory", HG_OUTDIR_RUN, { "d:report", "d:report/x", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a sweep", HG_OUTDIR_SWEEP, { "sweep.json", "d:p000", "d:p000/r0", "p000/r0/result.json",
	  "p000/r0/trace.jsonl", "d:p001", NULL }, HG_EXIT_USAGE, 0, true },
	{ "a sweep with a user's file in a run", HG_OUTDIR_SWEEP, { "sweep.json", "d:p000",
	  "d:p000/r0", "p000/r0/mine.csv", NULL }, HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a run where a sweep goes", HG_OUTDIR_SWEEP, { "result.json", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a sweep where a run goes", HG_OUTDIR_RUN, { "sweep.json", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	/* what a (planted) result.json lists under files is not hgrun's */
	{ "a file the run's result.json lists", HG_OUTDIR_RUN, { "r:result.json", "kernel.trace",
	  "kernel.trace.tmp.77", NULL }, HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a file no result.json lists", HG_OUTDIR_RUN, { "result.json", "kernel.trace", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a listed file in a sweep's run", HG_OUTDIR_SWEEP, { "d:p000", "d:p000/r0",
	  "r:p000/r0/result.json", "p000/r0/kernel.trace", NULL }, HG_EXIT_USAGE, HG_EXIT_USAGE,
	  false },
	/* hgrun's own leftovers: an exec load's output, the kernel trace and
	 * its temporary, a stale lock of a killed run */
	{ "a run with an exec load", HG_OUTDIR_RUN, { "result.json", "load-hog.out", "load-hog.err",
	  NULL }, HG_EXIT_USAGE, 0, true },
	{ "a run with a stress_ng load", HG_OUTDIR_RUN, { "result.json", "load-s.out", "load-s.err",
	  "load-s.yaml", NULL }, HG_EXIT_USAGE, 0, true },
	{ "a traced run killed while writing", HG_OUTDIR_RUN, { "trace.bin", "kernel.jsonl",
	  "kernel.jsonl.tmp.0123456789abcdef", ".hgrun-lock", ".hgrun-reserve", NULL },
	  HG_EXIT_USAGE, 0, true },
	{ "a sweep's leftovers", HG_OUTDIR_SWEEP, { "sweep.json", ".hgrun-lock-shard-0-of-2",
	  "d:p000", "d:p000/r0", "p000/r0/load-x.err", "p000/r0/.hgrun-lock", NULL },
	  HG_EXIT_USAGE, 0, true },
	/* a stress_ng load's temporary directory left by a killed run, with
	 * what its stressors made (any names, links and FIFOs, levels deep) */
	{ "a stress_ng load's temporaries", HG_OUTDIR_RUN, { "result.json", "load-disk.yaml",
	  "p:load-disk.tmp", "d:load-disk.tmp/tmp-stress-ng-hdd-77-0",
	  "load-disk.tmp/tmp-stress-ng-hdd-77-0/stress-ng-hdd-77-0-1",
	  "d:load-disk.tmp/tmp-stress-ng-hdd-77-0/d", "l:load-disk.tmp/tmp-stress-ng-hdd-77-0/d/l",
	  "f:load-disk.tmp/tmp-stress-ng-hdd-77-0/d/fifo", NULL }, HG_EXIT_USAGE, 0, true },
	{ "an empty stress_ng temporary directory", HG_OUTDIR_RUN, { "p:load-d.tmp", NULL },
	  HG_EXIT_USAGE, 0, true },
	{ "a user's file in a stress_ng temporary directory", HG_OUTDIR_RUN, { "result.json",
	  "p:load-disk.tmp", "load-disk.tmp/notes.txt", NULL }, HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a load-NAME.tmp others may write in", HG_OUTDIR_RUN, { "result.json", "d:load-disk.tmp",
	  NULL }, HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "another user's file in stress-ng's directory", HG_OUTDIR_RUN, { "p:load-disk.tmp",
	  "d:load-disk.tmp/tmp-stress-ng-hdd-7-0", "o:load-disk.tmp/tmp-stress-ng-hdd-7-0/x", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a load-NAME.tmp that is a link", HG_OUTDIR_RUN, { "result.json", "l:load-disk.tmp", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	/* an io load's directory, when its dir was the result directory: its
	 * hgrun gone (no pid 999999999), its workers' files w0, w1 */
	{ "an io load's directory of a killed run", HG_OUTDIR_RUN, { "trace.bin",
	  "p:hgrun-io-999999999-d-AbC123", "hgrun-io-999999999-d-AbC123/w0",
	  "hgrun-io-999999999-d-AbC123/w1", NULL }, HG_EXIT_USAGE, 0, true },
	{ "an io load's directory of a running hgrun", HG_OUTDIR_RUN, { "trace.bin",
	  "p:hgrun-io-1-d-AbC123", NULL }, HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a user's file in an io load's directory", HG_OUTDIR_RUN, {
	  "p:hgrun-io-999999999-d-AbC123", "hgrun-io-999999999-d-AbC123/notes", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "an io load's directory others may write in", HG_OUTDIR_RUN, {
	  "d:hgrun-io-999999999-d-AbC123", NULL }, HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	/* hgreport's export/ beside its report/ */
	{ "a run and its export", HG_OUTDIR_RUN, { "result.json", "d:export",
	  "export/trace.jsonl", "export/.hourglass.txt.tmp.0123", "d:report", "report/report.md",
	  NULL }, HG_EXIT_USAGE, 0, true },
	{ "a user's directory in export", HG_OUTDIR_RUN, { "d:export", "d:export/mine", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	/* ours by name, another user's by owner */
	{ "another user's file named like ours", HG_OUTDIR_RUN, { "result.json",
	  "o:trace.bin", NULL }, HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "a name like a load's output that is not", HG_OUTDIR_RUN, { "load-.out", NULL },
	  HG_EXIT_USAGE, HG_EXIT_USAGE, false },
	{ "pNNN with letters", HG_OUTDIR_SWEEP, { "d:pics", NULL }, HG_EXIT_USAGE, HG_EXIT_USAGE,
	  false },
};

static void make(const char *root, const struct ocase *c)
{
	char path[512];
	if (!c->entries[0])
		return;
	mkdir(root, 0777);
	for (size_t i = 0; i < 12 && c->entries[i] && c->entries[i][0]; i++) {
		const char *e = c->entries[i];
		bool dir = !strncmp(e, "d:", 2), link = !strncmp(e, "l:", 2);
		bool priv = !strncmp(e, "p:", 2), fifo = !strncmp(e, "f:", 2);
		bool result = !strncmp(e, "r:", 2), other = !strncmp(e, "o:", 2);
		snprintf(path, sizeof(path), "%s/%s", root,
			 dir || link || priv || fifo || result || other ? e + 2 : e);
		if (dir) {
			mkdir(path, 0777);
		} else if (priv) {
			mkdir(path, 0700);
		} else if (fifo) {
			if (mkfifo(path, 0600) != 0)
				perror("mkfifo");
		} else if (link) {
			if (symlink("/etc/hostname", path) != 0)
				perror("symlink");
		} else {
			FILE *f = fopen(path, "w");
			if (f && result)
				fputs("{\"files\": {\"trace\": \"trace.jsonl\", "
				      "\"kernel\": \"kernel.trace\"}}\n", f);
			if (f)
				fclose(f);
			if (other && chown(path, 4242, 4242) != 0)
				perror("chown");
		}
	}
}

static FILE *devnull;

/* -o DIR as a run (or a sweep) claims it: made, locked, checked, with
 * force emptied; released again at once. */
static int prepare(const char *root, enum hg_outdir_kind kind, bool force)
{
	struct hg_outdir od;
	int rc = hg_outdir_claim(root, kind, force, "the test", devnull, &od);
	if (!rc)
		hg_outdir_release(&od);
	return rc;
}

/* A chain of `levels` directories "d" below root/name (made with fds: its
 * path is longer than PATH_MAX). */
static bool deep_chain(const char *root, const char *name, int levels)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || mkdirat(fd, name, 0700) != 0)
		return false;
	int cur = openat(fd, name, O_RDONLY | O_DIRECTORY);
	close(fd);
	for (int i = 0; cur >= 0 && i < levels; i++) {
		if (mkdirat(cur, "d", 0700) != 0)
			break;
		if (i % 100 == 0) {      /* a file now and then, as a stressor leaves */
			int f = openat(cur, "f", O_WRONLY | O_CREAT, 0600);
			if (f >= 0)
				close(f);
		}
		int next = openat(cur, "d", O_RDONLY | O_DIRECTORY);
		close(cur);
		cur = next;
	}
	if (cur < 0)
		return false;
	close(cur);
	return true;
}

/* A stress_ng load's dirdeep stressor killed after its grace left
 * thousands of levels: hgrun's own, removed by --force whatever the
 * depth; refused without it. */
static void test_deep_stress_tree(const char *base)
{
	char root[256], tmp[300];
	snprintf(root, sizeof(root), "%s/deep", base);
	snprintf(tmp, sizeof(tmp), "%s/load-s.tmp", root);
	CHECK(mkdir(root, 0777) == 0 && mkdir(tmp, 0700) == 0, "mkdir %s", tmp);
	CHECK(deep_chain(tmp, "tmp-stress-ng-dirdeep-77-0", 2000), "a chain 2000 levels deep");
	CHECK(prepare(root, HG_OUTDIR_RUN, false) == HG_EXIT_USAGE, "deep: refused without --force");
	CHECK(prepare(root, HG_OUTDIR_RUN, true) == 0, "deep: --force refused hgrun's own tree");
	CHECK(rmdir(root) == 0, "deep: --force left something: %s", strerror(errno));
}

static bool empty_or_absent(const char *root)
{
	return rmdir(root) == 0 || errno == ENOENT;
}

int main(void)
{
	char tmpl[] = "/tmp/hg-outdir-XXXXXX";
	char *base = mkdtemp(tmpl);
	CHECK(base != NULL, "mkdtemp");
	devnull = fopen("/dev/null", "w");
	for (size_t i = 0; base && i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ocase *c = &cases[i];
		char root[256];
		snprintf(root, sizeof(root), "%s/%zu", base, i);
		make(root, c);
		int plain = prepare(root, c->kind, false);
		CHECK(plain == c->want_plain, "%s: without --force: %d, want %d", c->name, plain,
		      c->want_plain);
		int force = prepare(root, c->kind, true);
		CHECK(force == c->want_force, "%s: with --force: %d, want %d", c->name, force,
		      c->want_force);
		if (c->emptied)
			CHECK(empty_or_absent(root), "%s: --force left something", c->name);
		else
			CHECK(rmdir(root) != 0 && errno == ENOTEMPTY, "%s: --force removed a user's file",
			      c->name);
	}
	/* A directory another hgrun is writing: refused, with or without
	 * --force, and untouched. */
	char busy[256], holder[256];
	snprintf(busy, sizeof(busy), "%s/busy", base ? base : "/tmp");
	make(busy, &(struct ocase){ .entries = { "result.json", "trace.bin", NULL } });
	/* The holder is another process: a record lock is the process's own. */
	int ready[2], done[2];
	CHECK(pipe(ready) == 0 && pipe(done) == 0, "pipe");
	pid_t child = fork();
	if (child == 0) {
		struct hg_dirlock mine;
		char c = hg_dirlock_take(busy, HG_DIRLOCK_NAME, "the test", &mine, holder,
					 sizeof(holder)) == 0 ? 'y' : 'n';
		(void)!write(ready[1], &c, 1);
		(void)!read(done[0], &c, 1);
		hg_dirlock_release(&mine);
		_exit(0);
	}
	char got = 'n';
	(void)!read(ready[0], &got, 1);
	CHECK(got == 'y', "the child could not lock %s", busy);
	CHECK(prepare(busy, HG_OUTDIR_RUN, true) == HG_EXIT_USAGE,
	      "--force on a locked directory was not refused");
	CHECK(access(busy, F_OK) == 0 && hg_dirlock_busy_at(AT_FDCWD, busy, holder, 0) == false,
	      "busy_at on a directory");
	char probe[300];
	snprintf(probe, sizeof(probe), "%s/trace.bin", busy);
	CHECK(access(probe, F_OK) == 0, "--force removed a file of a run being written");
	/* the lock's holder says who it is */
	int dfd = open(busy, O_RDONLY | O_DIRECTORY);
	CHECK(hg_dirlock_busy_at(dfd, HG_DIRLOCK_NAME, holder, sizeof(holder)) &&
	      strstr(holder, "the test") && strstr(holder, "pid "), "holder '%s'", holder);
	close(dfd);
	(void)!write(done[1], "x", 1);
	waitpid(child, NULL, 0);
	snprintf(probe, sizeof(probe), "%s/" HG_DIRLOCK_NAME, busy);
	CHECK(access(probe, F_OK) != 0, "the released lock file is still there");
	CHECK(prepare(busy, HG_OUTDIR_RUN, true) == 0,
	      "--force once the lock is released");
	if (base)
		test_deep_stress_tree(base);
	if (devnull)
		fclose(devnull);
	if (base) {
		char cmd[300];
		snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", base);   /* our own mkdtemp */
		if (system(cmd) != 0)
			printf("could not remove %s\n", base);
	}
	return unit_report("test_outdir");
}
