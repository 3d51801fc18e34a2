/* trace.bin and latency.bin (docs/results.md): a 64-byte header, then
 * fixed-size little-endian records appended as the run goes.  A reader
 * takes floor((size - 64) / record_size) records, so a record torn by a
 * crash is ignored; result.json's checkpoint says how many to trust. */
#ifndef HG_BINFILE_H
#define HG_BINFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HG_BIN_MAGIC "HGRUNBIN"
#define HG_BIN_VERSION 1
#define HG_BIN_HEADER 64

/* Interval record of trace.bin (32 bytes). */
struct hg_bin_interval {
	int64_t start_ns, end_ns;   /* from the run's time zero */
	uint32_t thread;            /* index into result.json threads */
	int16_t cpu;                /* -1 unknown */
	uint8_t end;                /* enum hg_gap_end */
	uint8_t flags;              /* HG_BIN_IN_WINDOW */
	uint32_t window;            /* outlier window id, 0 = none */
	uint32_t cause;             /* gap cause code of the gap that ended it, 0 = none */
};

/* Wake-up record of latency.bin (32 bytes). */
struct hg_bin_wakeup {
	int64_t intended_ns, actual_ns;   /* from the run's time zero */
	uint32_t thread;
	uint32_t window;
	uint64_t seq;                     /* the thread's wake-up number, from 0 */
};

#define HG_BIN_IN_WINDOW 1u

_Static_assert(sizeof(struct hg_bin_interval) == 32, "trace.bin record is 32 bytes");
_Static_assert(sizeof(struct hg_bin_wakeup) == 32, "latency.bin record is 32 bytes");

#define HG_BIN_BUFFER (256 * 1024)                 /* the stdio buffer */
#define HG_BIN_TAGS (HG_BIN_BUFFER / 32 + 1)        /* more than it can hold */

_Static_assert(offsetof(struct hg_bin_interval, thread) == 16 &&
	       offsetof(struct hg_bin_wakeup, thread) == 16, "thread at byte 16");

struct hg_binfile {
	FILE *f;
	uint64_t records;           /* appended so far (after a write error: on disk) */
	uint64_t synced;            /* records on disk at the last hg_binfile_sync */
	bool failed;                /* a write failed: nothing more is written */
	uint64_t lost;              /* records counted, then lost with the buffer */
	uint32_t tags[HG_BIN_TAGS]; /* the thread of the last records appended */
};

/* Creates path with its header for records of `kind` ("intervals",
 * "wakeups").  Returns 0 or -errno. */
int  hg_binfile_open(struct hg_binfile *b, const char *path, const char *kind);
/* Appends one 32-byte record (buffered).  Returns 0 or -errno.  After a
 * failed write (ENOSPC) the buffer is dropped and the file cut to its
 * whole records: `records` then counts only those on disk, `lost` those
 * appended that did not get there (hg_binfile_take_lost). */
int  hg_binfile_put(struct hg_binfile *b, const void *rec);
/* Flushes and fdatasyncs; afterwards `synced` records are on disk. */
int  hg_binfile_sync(struct hg_binfile *b);
/* Calls lost(ctx, thread) for each record counted by a successful put that
 * a failed write then lost, and forgets them. */
void hg_binfile_take_lost(struct hg_binfile *b, void (*lost)(void *ctx, uint32_t thread),
			  void *ctx);
void hg_binfile_close(struct hg_binfile *b);

#endif
