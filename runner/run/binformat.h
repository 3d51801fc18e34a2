/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.bin and latency.bin (docs/results.md): a 64-byte header, then
 * fixed-size little-endian records appended as the run goes.  A reader
 * takes floor((size - 64) / record_size) records, so a record torn by a
 * crash is ignored; result.json's checkpoint says how many to trust.
 * The records are what a run's threads produce (run/gaptrace.h,
 * run/wakeups.h): results/binfile.h writes them, ktrace/ reads them back
 * and writes each gap's cause into its record. */
#ifndef HG_BINFORMAT_H
#define HG_BINFORMAT_H

#include <stddef.h>
#include <stdint.h>

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

_Static_assert(offsetof(struct hg_bin_interval, thread) == 16 &&
	       offsetof(struct hg_bin_wakeup, thread) == 16, "thread at byte 16");

#endif
