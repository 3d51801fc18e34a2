/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The binary record files: header, buffered appends, sync.  The records
 * are written as the host lays them out; hgrun runs on little-endian
 * machines only (x86-64, arm64), which the static assert below checks. */
#include <errno.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#include "base/fsutil.h"
#include "results/binfile.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the record files are little-endian");

int hg_binfile_open_at(struct hg_binfile *b, int dir, const char *name, const char *kind)
{
	memset(b, 0, sizeof(*b));
	b->f = hg_fopen_new_at(dir, name);
	if (!b->f)
		return -errno;
	setvbuf(b->f, NULL, _IOFBF, HG_BIN_BUFFER);
	unsigned char h[HG_BIN_HEADER] = { 0 };
	uint32_t version = HG_BIN_VERSION, size = 32;
	memcpy(h, HG_BIN_MAGIC, 8);
	memcpy(h + 8, &version, 4);
	memcpy(h + 12, &size, 4);
	strncpy((char *)h + 16, kind, 15);
	int rc = fwrite(h, 1, sizeof(h), b->f) == sizeof(h) ? hg_binfile_sync(b) : -(errno ? errno : EIO);
	if (rc) {
		fclose(b->f);
		b->f = NULL;
	}
	return rc;
}

/* A write failed (a full disk): what stdio still buffers will not reach
 * the file, nor will anything later.  Drop it, cut a torn record, and
 * count only the whole records on disk (docs/results.md: trace.written
 * counts only what reached the file). */
static int settle(struct hg_binfile *b, int rc)
{
	if (b->failed)
		return rc;
	b->failed = true;
	__fpurge(b->f);
	struct stat st;
	if (fstat(fileno(b->f), &st) < 0)
		return rc;
	uint64_t whole = st.st_size > HG_BIN_HEADER ?
			 (uint64_t)(st.st_size - HG_BIN_HEADER) / 32 : 0;
	if (whole < b->records) {
		if (ftruncate(fileno(b->f), HG_BIN_HEADER + (off_t)whole * 32) < 0)
			whole = (uint64_t)(st.st_size - HG_BIN_HEADER) / 32;
		b->lost = b->records - whole;
		b->records = whole;
	}
	if (b->synced > b->records)
		b->synced = b->records;
	return rc;
}

int hg_binfile_put(struct hg_binfile *b, const void *rec)
{
	if (b->failed)
		return -EIO;
	errno = 0;
	if (fwrite(rec, 32, 1, b->f) != 1)    /* the failed write's: ENOSPC, not a guess */
		return settle(b, -(errno ? errno : EIO));
	uint32_t thread;
	memcpy(&thread, (const unsigned char *)rec + 16, sizeof(thread));
	b->tags[b->records % HG_BIN_TAGS] = thread;
	b->records++;
	return 0;
}

int hg_binfile_sync(struct hg_binfile *b)
{
	if (!b->f)
		return 0;
	if (!b->failed && fflush(b->f) != 0)
		return settle(b, -(errno ? errno : EIO));
	if (fdatasync(fileno(b->f)) < 0)
		return -errno;
	b->synced = b->records;
	return 0;
}

void hg_binfile_take_lost(struct hg_binfile *b, void (*lost)(void *ctx, uint32_t thread),
			  void *ctx)
{
	uint64_t n = b->lost < HG_BIN_TAGS ? b->lost : HG_BIN_TAGS;
	for (uint64_t k = 0; k < n; k++)
		lost(ctx, b->tags[(b->records + k) % HG_BIN_TAGS]);
	b->lost = 0;
}

void hg_binfile_close(struct hg_binfile *b)
{
	if (b->f) {
		hg_binfile_sync(b);
		fclose(b->f);
	}
	b->f = NULL;
}
