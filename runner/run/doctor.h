/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun doctor`: is this machine ready for a measurement (docs/doctor.md)?
 * Each check reads one setting of the machine (through the host facts of
 * run/host.h where hgrun already records them), says its value, why it
 * matters for the scenario given (or for any), how to change it, and a
 * severity.  A run's own warnings about the same settings name the check
 * ("hgrun doctor: rt_throttling"). */
#ifndef HG_DOCTOR_H
#define HG_DOCTOR_H

#include <stddef.h>

#include "run/doctor_check.h"

/* Every check, in order; returns how many (at most `max`). */
size_t hg_doctor_run(const struct hg_doctor_use *u, struct hg_doctor_check *out, size_t max);

/* "ok", "info", "warn", "bad". */
const char *hg_doctor_severity_name(enum hg_doctor_severity s);

#endif
