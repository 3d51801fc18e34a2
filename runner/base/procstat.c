/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/<pid>/stat past the command name. */
#include <stdio.h>
#include <string.h>

#include "base/procstat.h"

const char *hg_proc_stat_fields(const char *pid, char *buf, size_t size)
{
	char path[300];
	if (size < 2)
		return NULL;
	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *close_paren = strrchr(buf, ')');
	return close_paren && close_paren[1] == ' ' ? close_paren + 2 : NULL;
}
