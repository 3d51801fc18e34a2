/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing trace.bin and latency.bin (their format: run/binformat.h):
 * records appended through a stdio buffer as the run goes, cut back to
 * whole records when a write fails. */
#ifndef HG_BINFILE_H
#define HG_BINFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run/binformat.h"

#define HG_BIN_BUFFER (256 * 1024)                 /* the stdio buffer */
#define HG_BIN_TAGS (HG_BIN_BUFFER / 32 + 1)        /* more than it can hold */

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
int  hg_binfile_open_at(struct hg_binfile *b, int dir, const char *name, const char *kind);
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
