/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copying one run for sweep-merge (sweep/sweep_copy.h).  A shard is read
 * as untrusted: a file is copied only when it has a name hgrun writes, is
 * listed in the run's result.json (itself the user's: sweep/sweep_index.h)
 * with the size recorded there, and is a regular file of the user's of
 * exactly that size; its data is copied segment by segment (SEEK_DATA,
 * SEEK_HOLE), so a sparse file stays sparse and no more than the recorded
 * size is ever read or written. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/units.h"
#include "sweep/sweep_copy.h"

/* The names hgrun writes in a run directory besides result.json
 * (docs/results.md): the traces, the series, the kernel trace's files,
 * and a load's load-NAME.out, .err, .yaml. */
static bool hgrun_file(const char *name)
{
	static const char *const fixed[] = { "trace.bin", "latency.bin", "series.jsonl",
					     "kernel.jsonl", "late_wakeups.jsonl" };
	static const char *const ext[] = { ".out", ".err", ".yaml" };
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(name, fixed[i]))
			return true;
	size_t len = strlen(name);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t e = strlen(ext[i]);
		if (!strncmp(name, "load-", 5) && len > 5 + e && !strcmp(name + len - e, ext[i]))
			return hg_plain_name(name);
	}
	return false;
}

struct copy {
	int in;
	off_t size;
};

/* The data of c->in up to c->size into f's file, holes left as holes. */
static int copy_data(FILE *f, const void *ctx)
{
	const struct copy *c = ctx;
	int out = fileno(f);
	char buf[65536];
	for (off_t pos = 0; pos < c->size;) {
		off_t data = lseek(c->in, pos, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break;                   /* a hole to the end */
		if (data < 0)
			data = pos;              /* no SEEK_DATA here: all data */
		if (data >= c->size)
			break;
		off_t hole = lseek(c->in, data, SEEK_HOLE);
		if (hole < 0 || hole > c->size)
			hole = c->size;
		for (off_t at = data; at < hole;) {
			size_t want = (size_t)(hole - at) < sizeof(buf) ? (size_t)(hole - at) : sizeof(buf);
			ssize_t n = pread(c->in, buf, want, at);
			if (n <= 0)
				return n < 0 ? -errno : -EIO;       /* shorter than it was */
			/* A full disk takes part of a write first: the rest is
			 * written again, and its refusal gives the errno (ENOSPC). */
			for (ssize_t done = 0; done < n;) {
				ssize_t w = pwrite(out, buf + done, (size_t)(n - done), at + done);
				if (w < 0 && errno == EINTR)
					continue;
				if (w <= 0)
					return w < 0 ? -errno : -EIO;
				done += w;
			}
			at += n;
		}
		pos = hole;
	}
	return ftruncate(out, c->size) < 0 ? -errno : 0;
}

/* One file of the run: checked against what result.json records, then
 * copied; 1 (refused, why set) or 0 or -errno. */
static int copy_file(int from, int to, const char *name, json_t *bytes, char *why, size_t len)
{
	char a[32];
	if (!hgrun_file(name)) {
		snprintf(why, len, "its result.json lists '%.80s', not a file hgrun writes", name);
		return 1;
	}
	if (!json_is_integer(bytes) || json_integer_value(bytes) < 0) {
		snprintf(why, len, "its result.json records no size for %s", name);
		return 1;
	}
	int in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (in < 0 || fstat(in, &st) < 0) {
		snprintf(why, len, "%s: %s", name, errno == ELOOP ? "a symbolic link" : strerror(errno));
		if (in >= 0)
			close(in);
		return 1;
	}
	int rc = 1;
	if (!S_ISREG(st.st_mode))
		snprintf(why, len, "%s is not a regular file", name);
	else if (st.st_uid != geteuid())
		snprintf(why, len, "%s is owned by uid %u, not by uid %u", name, (unsigned)st.st_uid,
			 (unsigned)geteuid());
	else if (st.st_size != (off_t)json_integer_value(bytes))
		snprintf(why, len, "%s holds %llu bytes (%s), but result.json records %llu: not the "
			 "file hgrun wrote", name, (unsigned long long)st.st_size,
			 hg_format_size_approx((uint64_t)st.st_size, a),
			 (unsigned long long)json_integer_value(bytes));
	else {
		struct copy c = { in, st.st_size };
		rc = hg_write_atomic_at(to, name, copy_data, &c);
		if (rc)
			snprintf(why, len, "%s", name);
	}
	close(in);
	return rc;
}

int hg_sweep_copy_run(int from, int to, json_t *result, const char *text, size_t len, char *why,
		      size_t why_len)
{
	json_t *files = json_object_get(result, "files");
	json_t *bytes = json_object_get(result, "file_bytes");
	const char *key;
	json_t *v;
	if (!json_is_object(files) || !json_is_object(bytes)) {
		snprintf(why, why_len, "its result.json records no file sizes (an older hgrun wrote "
			 "it: run it again with sweep --resume)");
		return 1;
	}
	json_object_foreach(files, key, v) {
		const char *name = json_string_value(v);
		size_t klen = strlen(key);
		if (klen > 5 && !strcmp(key + klen - 5, ".left"))
			continue;   /* what a load could not remove (plan/load.h): not copied */
		if (!name) {
			snprintf(why, why_len, "its result.json's files.%.60s is not a name", key);
			return 1;
		}
		int rc = copy_file(from, to, name, json_object_get(bytes, name), why, why_len);
		if (rc)
			return rc;
	}
	int rc = hg_write_buffer_at(to, "result.json", text, len);
	if (rc)
		snprintf(why, why_len, "result.json");
	return rc;
}
