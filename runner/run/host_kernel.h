/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's own account of itself, for run/host.c: the preemption
 * model from debugfs, the kernel log or the build configuration, and the
 * build configuration's HZ and NO_HZ_FULL (docs/kernel-trace.md). */
#ifndef HG_HOST_KERNEL_H
#define HG_HOST_KERNEL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The preemption model from debugfs mounted in a private mount namespace
 * of a child process (needs root); false when unknown. */
bool hg_host_preempt_private_debugfs(char *model, size_t size);
/* The last "Dynamic Preempt:" line of the kernel log, and the default
 * model of the kernel's build configuration. */
bool hg_host_preempt_klog(char *model, size_t size);
bool hg_host_preempt_config(char *model, size_t size);
/* hz, preempt_config_default, config_no_hz_full, kernel_config (where the
 * build configuration was read) into the host object. */
void hg_host_kernel_config(json_t *host);

#endif
