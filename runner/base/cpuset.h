/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU lists as scenarios write them: [0, 2] or "0-3,6". */
#ifndef HG_CPUSET_H
#define HG_CPUSET_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/units.h"

/* Parses "0-3,6" into set.  Returns 0 or -1 with err. */
int hg_cpuset_parse(const char *s, cpu_set_t *set, char err[HG_ERRLEN]);
/* "0-3,6" from a set, into buf. */
const char *hg_cpuset_format(const cpu_set_t *set, char *buf, size_t size);
/* The CPUs online on this machine (sched_getaffinity of the process,
 * intersected with /sys/devices/system/cpu/online). */
void hg_cpuset_online(cpu_set_t *set);
/* The machine's online CPUs alone (/sys/devices/system/cpu/online),
 * whatever the process may use; false when that file cannot be read. */
bool hg_cpuset_system_online(cpu_set_t *set);

#endif
