/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copying one finished run of a shard into sweep-merge's OUT
 * (sweep/sweep_copy.c): only the files hgrun writes, as result.json lists
 * them, each exactly the size result.json records, holes kept. */
#ifndef HG_SWEEP_COPY_H
#define HG_SWEEP_COPY_H

#include <jansson.h>
#include <stddef.h>

/* Copies the run whose result.json (`result`, parsed from `text`, `len`
 * bytes) was read in the open run directory from, into the open run
 * directory to: its files first, result.json last.  0; 1 when the run is
 * not copied because it is not what hgrun wrote (a name hgrun does not
 * write, a size other than recorded, not a regular file of the user's:
 * why in `why`); -errno when a copy failed (the file in `why`). */
int hg_sweep_copy_run(int from, int to, json_t *result, const char *text, size_t len, char *why,
		      size_t why_len);

#endif
