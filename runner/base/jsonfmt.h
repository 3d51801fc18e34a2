/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A printf-formatted line appended to a JSON array of strings: the run's
 * warnings (run/runstate.h), the loads' (loads/supervisor_json.h), the
 * verdict's lines (results/verdict.c).  A line is cut at 511 bytes. */
#ifndef HG_JSONFMT_H
#define HG_JSONFMT_H

#include <jansson.h>
#include <stdarg.h>

void hg_json_appendf(json_t *array, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hg_json_vappendf(json_t *array, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
