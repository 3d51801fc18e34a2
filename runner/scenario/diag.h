/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Diagnostics users can act on: FILE:LINE:COL: error: key.path: message.
 * Loading and checking collect them here (first error first, up to a limit);
 * only main prints them and picks the exit code. */
#ifndef HG_DIAG_H
#define HG_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define HG_DIAG_MAX 50

struct hg_diag {
	unsigned line, column;   /* 1-based; 0 when unknown */
	char path[160];          /* key path: threads[1].workload.exec */
	char message[512];
};

struct hg_diags {
	const char *file;
	size_t count;            /* may exceed HG_DIAG_MAX: the rest are dropped */
	struct hg_diag items[HG_DIAG_MAX];
};

void hg_diags_init(struct hg_diags *d, const char *file);
/* Adds one error; line 0 = unknown position. */
void hg_diag_add(struct hg_diags *d, unsigned line, unsigned column,
		 const char *path, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void hg_diag_vadd(struct hg_diags *d, unsigned line, unsigned column,
		  const char *path, const char *fmt, va_list ap);
/* Orders by position (stable), so errors read top to bottom. */
void hg_diags_sort(struct hg_diags *d);
void hg_diags_print(const struct hg_diags *d, FILE *out);

#endif
