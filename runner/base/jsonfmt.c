/* SPDX-License-Identifier: GPL-2.0-or-later */
/* base/jsonfmt.h. */
#include <stdio.h>

#include "base/jsonfmt.h"

void hg_json_vappendf(json_t *array, const char *fmt, va_list ap)
{
	char buf[512];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	json_array_append_new(array, json_string(buf));
}

void hg_json_appendf(json_t *array, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_json_vappendf(array, fmt, ap);
	va_end(ap);
}
