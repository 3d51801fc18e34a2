/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Measuring buffers (trace records, working sets, latency samples): their
 * own anonymous mappings, pre-touched, and marked MADV_DONTFORK so that a
 * load forked during the run neither copies them nor turns them
 * copy-on-write under the threads that write them (each first write after
 * a fork would fault: a 64 MiB working set cost a 1.6 ms gap). */
#ifndef HG_BUFFER_H
#define HG_BUFFER_H

#include <stddef.h>

/* size bytes, zeroed and touched; NULL when out of memory. size 0 gives NULL. */
void *hg_buffer_alloc(size_t size);
void hg_buffer_free(void *p, size_t size);

#endif
