/* The record files (runner/results/binfile.c): the 64-byte header of
 * docs/results.md, 32-byte records appended in order, sync counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void test_kind(const char *kind)
{
	char path[] = "/tmp/hg_test_binfile_XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	struct hg_binfile b;
	CHECK(hg_binfile_open(&b, path, kind) == 0, "%s: open", kind);
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

int main(void)
{
	test_kind("intervals");
	test_kind("wakeups");
	struct hg_binfile b;
	CHECK(hg_binfile_open(&b, "/nonexistent-dir/x.bin", "intervals") < 0, "missing dir");
	return unit_report("test_binfile");
}
