/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding stress-ng and asking it (docs/loads.md, "stress_ng"): for the
 * stress_ng load (loads/stress_ng.c). */
#ifndef HG_STRESS_NG_HOST_H
#define HG_STRESS_NG_HOST_H

#include <stdbool.h>
#include <stddef.h>

#define HG_STRESS_NG_PACKAGE "stress-ng"   /* Debian's and Fedora's package */

/* The stress-ng on PATH into path (absolute); false with the reason in why
 * ("stress-ng not found on PATH (/usr/bin:/bin); install it: apt-get install
 * stress-ng"). */
bool hg_stress_ng_find(char *path, size_t size, char *why, size_t why_size);

/* The stressors of the stress-ng on PATH (`stress-ng --stressors`), asked
 * once per process; n = 0 when it could not be asked. */
const char *const *hg_stress_ng_stressors(size_t *n);

/* Runs exe with argv and --dry-run (stress-ng checks its options and their
 * values, runs nothing): 0, or -1 with the first line it printed in err. */
int hg_stress_ng_dry_run(const char *exe, char *const *argv, char *err, size_t errlen);

#endif
