/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun doctor [SCENARIO]`: is this machine ready for a measurement
 * (docs/doctor.md)?  The checks are run/doctor.h's. */
#ifndef HG_DOCTOR_CMD_H
#define HG_DOCTOR_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "plan/plan.h"

/* Checks the machine for `plan` (NULL: any scenario) and prints each check,
 * as text or (json) one JSON object (format hgrun-doctor/1,
 * schemas/doctor.schema.json).  Returns 0, or 5 when a check is `bad`. */
int hg_doctor_command(const struct hg_plan *plan, FILE *out, bool json);

#endif
