/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checking: the rules across fields, on the resolved plan, each error put
 * back on the line of the YAML that holds the offending value. */
#ifndef HG_CHECK_H
#define HG_CHECK_H

#include "plan/plan.h"
#include "scenario/diag.h"
#include "scenario/yamldoc.h"

void hg_check(struct hg_yaml *y, const struct hg_plan *plan, struct hg_diags *d);

#endif
