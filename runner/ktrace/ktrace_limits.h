/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel trace's bounds (docs/kernel-trace.md), shared by ktrace/ktrace.c,
 * its reader thread (ktrace/ktrace_reader.c) and the warnings that name them. */
#ifndef HG_KTRACE_LIMITS_H
#define HG_KTRACE_LIMITS_H

#define HG_KTRACE_BUFFER_KB 4096        /* per CPU, the instance's buffer_size_kb */
#define HG_KTRACE_MAX_EVENTS 4000000     /* kept in memory (24 bytes each) */
#define HG_KTRACE_READ_PERIOD_MS 50

#endif
