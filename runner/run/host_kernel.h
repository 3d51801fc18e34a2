/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's own account of itself, for run/host.c: the facts the
 * preemption model is decided from (run/preempt_model.h): debugfs, the
 * kernel log, the build configuration; kernel lockdown; and the build
 * configuration's HZ and NO_HZ_FULL (docs/kernel-trace.md). */
#ifndef HG_HOST_KERNEL_H
#define HG_HOST_KERNEL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The securityfs file of kernel lockdown: "[none] integrity confidentiality". */
#define HG_LOCKDOWN_FILE "/sys/kernel/security/lockdown"

/* The line of /sys/kernel/debug/sched/preempt ("none (voluntary) full"),
 * where debugfs is mounted, else from debugfs mounted in a private mount
 * namespace of a child process (needs root); *source says which.  False
 * when neither could be read (no PREEMPT_DYNAMIC, lockdown, no root). */
bool hg_host_preempt_debugfs(char *line, size_t size, const char **source);
/* The last "Dynamic Preempt:" line of the kernel log. */
bool hg_host_preempt_klog(char *model, size_t size);

/* What the build configuration says of preemption: the model it selects
 * (rt first), the model besides RT (a dynamic kernel's boot mode),
 * PREEMPT_DYNAMIC (1, 0; -1 unknown), and the file read. */
struct hg_config_preempt {
	char model[16], dynamic_default[16];
	int dynamic;
	const char *source;
};
bool hg_host_preempt_config(struct hg_config_preempt *c);

/* The lockdown mode in effect ("none", "integrity", "confidentiality"):
 * the bracketed word of hg_host_lockdown_file(); false when it cannot be
 * read (no lockdown LSM, securityfs not mounted).  hg_lockdown_parse: the
 * same from a line.  The file is HG_LOCKDOWN_FILE, or $HGRUN_LOCKDOWN when
 * set (tests simulate lockdown with it, as HGRUN_TRACEFS a missing tracefs). */
const char *hg_host_lockdown_file(void);
bool hg_host_lockdown(char *mode, size_t size);
bool hg_lockdown_parse(const char *line, char *mode, size_t size);

/* hz, preempt_config_default, config_no_hz_full, kernel_config (where the
 * build configuration was read) into the host object. */
void hg_host_kernel_config(json_t *host);

#endif
