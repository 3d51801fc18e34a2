/* The run's warnings, added by whoever notices something (run/, results/):
 * result.json's "warnings" and the summary print them. */
#include <stdarg.h>
#include <stdio.h>

#include "run/runstate.h"

void hg_run_warn(struct hg_run_state *rs, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(rs->warnings, json_string(buf));
}
