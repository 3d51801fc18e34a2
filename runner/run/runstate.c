/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's warnings, added by whoever notices something (run/, results/):
 * result.json's "warnings" and the summary print them. */
#include <stdarg.h>
#include <stdio.h>

#include "base/jsonfmt.h"
#include "run/runstate.h"

void hg_run_warn(struct hg_run_state *rs, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_json_vappendf(rs->warnings, fmt, ap);
	va_end(ap);
}
