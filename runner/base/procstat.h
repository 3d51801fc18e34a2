/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/<pid>/stat, read past the command name (which may hold spaces and
 * parentheses), for the few fields hgrun needs: a parent's pid, a task's
 * flags. */
#ifndef HG_PROCSTAT_H
#define HG_PROCSTAT_H

#include <stddef.h>

/* The fields after ") ", from field 3 (state) on, read into buf; NULL when
 * the task is gone or the line is not what the kernel writes. `pid` is a
 * number as text ("1234", "self"). */
const char *hg_proc_stat_fields(const char *pid, char *buf, size_t size);

#endif
