/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names of what the kernel trace saw (docs/kernel-trace.md): a task's
 * comm, an irq's name, a softirq's, a vector's number, for the results'
 * JSON and the summary. */
#ifndef HG_KERNEL_NAMES_H
#define HG_KERNEL_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "run/runstate.h"

/* The name of who within a cause (enum hg_cause) into buf. */
void hg_kernel_who_name(const struct hg_run_state *rs, uint8_t cause, int32_t who, char *buf,
			size_t size);

#endif
