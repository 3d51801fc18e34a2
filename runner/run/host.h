/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host a run happened on, as result.json's "host" object: kernel,
 * preemption model (the decision in run/preempt_model.c), lockdown, clocksource, CPUs, RT throttling, governor, TSC flags,
 * CPU isolation.  Every read is defensive: what cannot be read is null. */
#ifndef HG_HOST_H
#define HG_HOST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "run/preempt_model.h"

/* The host object (new reference), or NULL only when out of memory. */
json_t *hg_host_capture(void);

/* Whether /proc/cpuinfo lists `flag` (e.g. "constant_tsc") in its flags.
 * Returns 1, 0, or -errno (-ENOENT when there is no flags line, e.g. on
 * non-x86 machines). */
int hg_host_cpu_flag(const char *flag);

/* The preemption model of this kernel and its dynamic mode
 * (run/preempt_model.h), from the facts the kernel gives. */
void hg_host_preempt(struct hg_preempt_model *m);

#endif
