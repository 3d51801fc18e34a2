/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record files (runner/results/binfile.c): the 64-byte header of
 * docs/results.md, 32-byte records appended in order, sync counts, and a
 * write that fails half-way (a full disk, made here with RLIMIT_FSIZE):
 * only the whole records on disk count, the rest are handed back by thread. */
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "results/binfile.h"

static size_t slurp(const char *path, unsigned char *buf, size_t size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, size, f);
	fclose(f);
	return n;
}

/* hg_binfile_open_at on a path: its directory opened, its last name. */
static int open_path(struct hg_binfile *b, const char *path, const char *kind)
{
	char dir[256];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	int rc = hg_binfile_open_at(b, fd, slash + 1, kind);
	if (fd >= 0)
		close(fd);
	return rc;
}

static void test_kind(const char *kind)
{
	char path[] = "/tmp/hg_test_binfile_XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	struct hg_binfile b;
	CHECK(open_path(&b, path, kind) == 0, "%s: open", kind);
	unsigned char buf[1024];
	CHECK(slurp(path, buf, sizeof(buf)) == 64, "%s: the header alone is on disk", kind);
	struct hg_bin_interval r = { .start_ns = 5, .end_ns = 9, .thread = 2, .cpu = -1, .end = 3,
				     .flags = 1, .window = 7, .cause = 11 };
	for (int i = 0; i < 3; i++) {
		r.start_ns = i;
		CHECK(hg_binfile_put(&b, &r) == 0, "%s: put %d", kind, i);
	}
	CHECK(b.records == 3 && b.synced == 0, "%s: 3 appended, none synced", kind);
	CHECK(hg_binfile_sync(&b) == 0 && b.synced == 3, "%s: synced 3", kind);
	hg_binfile_close(&b);
	size_t n = slurp(path, buf, sizeof(buf));
	CHECK(n == 64 + 3 * 32, "%s: size %zu", kind, n);
	uint32_t version, size;
	memcpy(&version, buf + 8, 4);
	memcpy(&size, buf + 12, 4);
	CHECK(memcmp(buf, "HGRUNBIN", 8) == 0, "%s: magic", kind);
	CHECK(version == 1 && size == 32, "%s: version %u size %u", kind, version, size);
	CHECK(strncmp((char *)buf + 16, kind, 16) == 0 && buf[16 + strlen(kind)] == 0, "%s: kind",
	      kind);
	static const unsigned char zero[32];
	CHECK(memcmp(buf + 32, zero, 32) == 0, "%s: reserved bytes are zero", kind);
	/* little-endian fields at the offsets of docs/results.md */
	const unsigned char *rec = buf + 64 + 2 * 32;
	CHECK(rec[0] == 2 && rec[8] == 9 && rec[16] == 2 && rec[20] == 0xff && rec[21] == 0xff &&
	      rec[22] == 3 && rec[23] == 1 && rec[24] == 7 && rec[28] == 11, "%s: record layout",
	      kind);
	unlink(path);
}

static uint64_t lost_by_thread[3];

static void count_lost(void *ctx, uint32_t thread)
{
	(void)ctx;
	if (thread < 3)
		lost_by_thread[thread]++;
}

static void test_full_disk(void)
{
	char path[] = "/tmp/hg_test_binfile_XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	struct hg_binfile *b = calloc(1, sizeof(*b));
	CHECK(open_path(b, path, "intervals") == 0, "full: open");
	/* Room for 100 records and 10 bytes of the next: the first flush of
	 * the stdio buffer writes that much and fails (EFBIG, as ENOSPC). */
	struct rlimit old, lim;
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 64 + 100 * 32 + 10;
	signal(SIGXFSZ, SIG_IGN);
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0, "full: setrlimit");
	struct hg_bin_interval r = { .cpu = 0 };
	uint64_t put = 0, per[3] = { 0 };
	int rc = 0;
	for (int i = 0; i < 20000 && !rc; i++) {
		r.thread = (uint32_t)(i % 3);
		r.start_ns = i;
		if (!(rc = hg_binfile_put(b, &r))) {
			put++;
			per[r.thread]++;
		}
	}
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK(rc == -EFBIG, "full: the write's own error (%d)", rc);
	CHECK(b->records == 100, "full: %llu records counted, 100 on disk",
	      (unsigned long long)b->records);
	CHECK(b->lost == put - 100, "full: %llu lost of %llu put", (unsigned long long)b->lost,
	      (unsigned long long)put);
	hg_binfile_take_lost(b, count_lost, NULL);
	CHECK(b->lost == 0, "full: the lost are handed back once");
	for (int t = 0; t < 3; t++) {
		uint64_t kept = 100 / 3 + (t < 100 % 3);       /* records 0..99 by i % 3 */
		CHECK(per[t] - lost_by_thread[t] == kept, "full: thread %d keeps %llu, not %llu", t,
		      (unsigned long long)kept, (unsigned long long)(per[t] - lost_by_thread[t]));
	}
	CHECK(hg_binfile_put(b, &r) == -EIO, "full: nothing more is written");
	CHECK(hg_binfile_sync(b) == 0 && b->synced == 100, "full: 100 synced");
	hg_binfile_close(b);
	struct stat st;
	CHECK(stat(path, &st) == 0 && st.st_size == 64 + 100 * 32,
	      "full: the torn record is cut (%lld bytes)", (long long)st.st_size);
	free(b);
	unlink(path);
}

int main(void)
{
	test_kind("intervals");
	test_kind("wakeups");
	test_full_disk();
	struct hg_binfile b;
	CHECK(open_path(&b, "/nonexistent-dir/x.bin", "intervals") < 0, "missing dir");
	return unit_report("test_binfile");
}
