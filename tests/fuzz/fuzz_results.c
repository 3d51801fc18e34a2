/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the readers hgrun applies to files it reads back from
 * directories others may write to (docs/fuzzing.md): sweep.json as
 * `sweep --resume` and `sweep-merge` read it (bounded read, parse, format
 * and run-name checks, the comparison with this sweep's index) and a run's
 * result.json as they judge it complete.  Properties checked besides the
 * sanitizers: a run name that passes the check is two plain directory
 * names; an index compares equal to itself. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/jsonfile.h"
#include "sweep/sweep_index.h"

static char dir[256];
static int dir_fd = -1;
static json_t *reference;

/* The scratch directory goes with the process (libFuzzer exits through
 * exit(), a crash leaves it for the reproduction). */
static void cleanup(void)
{
	static const char *const files[] = { "sweep.json", "p000/r0/result.json", "p000/r0", "p000" };
	char path[320];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (unlink(path) != 0)
			rmdir(path);
	}
	rmdir(dir);
}

static void once(void)
{
	if (dir[0])
		return;
	/* run.sh names one in its build directory (libFuzzer does not always
	 * leave through exit()); else a fresh one in /tmp, removed at exit. */
	const char *scratch = getenv("HG_FUZZ_SCRATCH");
	if (scratch && strlen(scratch) < sizeof(dir)) {
		snprintf(dir, sizeof(dir), "%s", scratch);
		mkdir(dir, 0700);
	} else {
		snprintf(dir, sizeof(dir), "/tmp/hg-fuzz-results-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		atexit(cleanup);
	}
	char sub[300];
	snprintf(sub, sizeof(sub), "%s/p000", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof(sub), "%s/p000/r0", dir);
	mkdir(sub, 0700);
	dir_fd = open(dir, O_RDONLY | O_DIRECTORY);
	reference = json_loads("{\"format\": \"hgrun-sweep/1\", \"scenario\": {\"duration_ns\": 1},"
			       " \"axes\": [{\"path\": \"duration\", \"values\": [\"1s\"]}],"
			       " \"repeat\": 1, \"overrides\": {},"
			       " \"points\": [{\"runs\": [\"p000/r0\"]}]}", 0, NULL);
}

static void put(const char *name, const uint8_t *data, size_t size)
{
	char path[320];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
}

static bool plain_id(const char *s, char letter)
{
	if (s[0] != letter || !s[1])
		return false;
	for (const char *c = s + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

static void check_name(const char *name)
{
	char p[32], r[32];
	if (hg_sweep_run_name_split(name, p, r) && (!plain_id(p, 'p') || !plain_id(r, 'r')))
		abort();   /* a name that would lead outside the sweep directory */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	once();
	char err[512], buf[512];
	/* As raw text: a run name. */
	char name[128];
	size_t n = size < sizeof(name) - 1 ? size : sizeof(name) - 1;
	memcpy(name, data, n);
	name[n] = '\0';
	check_name(name);

	/* As sweep.json, read the way resume and merge read it: through the
	 * file (bounded read, no link, no FIFO) for one input in 16, the rest
	 * straight to the parser and the checks behind it (the file costs
	 * syscalls, not coverage). */
	bool missing, through_file = size && (data[0] & 0x0f) == 0;
	json_t *index;
	if (through_file) {
		put("sweep.json", data, size);
		index = hg_sweep_index_read_at(dir_fd, dir, &missing, err, sizeof(err));
	} else {
		index = hg_json_parse((const char *)data, size, err, sizeof(err));
		if (index && hg_sweep_index_check(index, err, sizeof(err)) != 0) {
			json_decref(index);
			index = NULL;
		}
	}
	if (index) {
		size_t i, k;
		json_t *point, *run;
		json_array_foreach(json_object_get(index, "points"), i, point)
			json_array_foreach(json_object_get(point, "runs"), k, run) {
				char p[32], r[32];
				if (!hg_sweep_run_name_split(json_string_value(run), p, r))
					abort();   /* the check let a bad name through */
				check_name(json_string_value(run));
			}
		if (hg_sweep_index_differs(index, index, "a", "b", buf, sizeof(buf)))
			abort();
		hg_sweep_index_differs(reference, index, "sweep.json", "this one", buf, sizeof(buf));
		hg_sweep_index_differs(index, reference, "sweep.json", "this one", buf, sizeof(buf));
		json_decref(index);
	}

	/* As a run's result.json. */
	if (through_file) {
		put("p000/r0/result.json", data, size);
		/* the id of the reference sweep: an input may be its run */
		char id[65];
		hg_sweep_id(reference, id);
		(void)hg_sweep_run_complete_at(dir_fd, "p000/r0", id);
	}
	json_t *j = hg_json_parse((const char *)data, size, err, sizeof(err));
	if (j) {
		(void)hg_sweep_result_complete(j);
		hg_sweep_index_check(j, err, sizeof(err));
		json_decref(j);
	}
	return 0;
}
