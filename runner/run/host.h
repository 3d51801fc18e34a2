/* The host a run happened on, as result.json's "host" object: kernel,
 * preemption model, clocksource, CPUs, RT throttling, governor, TSC flags,
 * CPU isolation.  Every read is defensive: what cannot be read is null. */
#ifndef HG_HOST_H
#define HG_HOST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The host object (new reference), or NULL only when out of memory. */
json_t *hg_host_capture(void);

/* Reads the first line of a (sysfs, procfs) file into buf without its
 * newline and trailing blanks.  Returns its length, or -errno (buf is then ""). */
int hg_read_first_line(const char *path, char *buf, size_t size);

/* Whether /proc/cpuinfo lists `flag` (e.g. "constant_tsc") in its flags.
 * Returns 1, 0, or -errno (-ENOENT when there is no flags line, e.g. on
 * non-x86 machines). */
int hg_host_cpu_flag(const char *flag);

/* The preemption model ("none", "voluntary", "full", "lazy", "rt",
 * "dynamic" when only PREEMPT_DYNAMIC is known, or "unknown") and where it
 * was read (a path, "uname", or "none"). */
void hg_host_preempt(char *model, size_t size, const char **source);

/* host_kernel.c: the preemption model from debugfs mounted in a private
 * mount namespace of a child process (needs root); false when unknown. */
bool hg_host_preempt_private_debugfs(char *model, size_t size);
/* host_kernel.c: the last "Dynamic Preempt:" line of the kernel log, and
 * the default model of the kernel's build configuration. */
bool hg_host_preempt_klog(char *model, size_t size);
bool hg_host_preempt_config(char *model, size_t size);
/* host_kernel.c: hz, preempt_config_default, config_no_hz_full,
 * kernel_config (where the build configuration was read). */
void hg_host_kernel_config(json_t *host);

#endif
