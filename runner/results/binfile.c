/* The binary record files: header, buffered appends, sync.  The records
 * are written as the host lays them out; hgrun runs on little-endian
 * machines only (x86-64, arm64), which the static assert below checks. */
#include <errno.h>
#include <string.h>
#include <unistd.h>


#include "base/fsutil.h"
#include "results/binfile.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the record files are little-endian");

#define HG_BIN_BUFFER (256 * 1024)

int hg_binfile_open(struct hg_binfile *b, const char *path, const char *kind)
{
	memset(b, 0, sizeof(*b));
	b->f = hg_fopen_new(path);
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

int hg_binfile_put(struct hg_binfile *b, const void *rec)
{
	if (fwrite(rec, 32, 1, b->f) != 1)
		return -(errno ? errno : EIO);     /* the failed write's: ENOSPC, not a guess */
	b->records++;
	return 0;
}

int hg_binfile_sync(struct hg_binfile *b)
{
	if (!b->f)
		return 0;
	if (fflush(b->f) != 0)
		return -(errno ? errno : EIO);
	if (fdatasync(fileno(b->f)) < 0)
		return -errno;
	b->synced = b->records;
	return 0;
}

void hg_binfile_close(struct hg_binfile *b)
{
	if (b->f) {
		hg_binfile_sync(b);
		fclose(b->f);
	}
	b->f = NULL;
}
