/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The notes validate and run print about what a scenario does beyond
 * measuring (plan/trust.c). */
#ifndef HG_TRUST_H
#define HG_TRUST_H

#include <stddef.h>
#include <stdio.h>

#include "plan/plan.h"

/* Prints one "PREFIXnote: ..." line per shell command, per directory written
 * outside the result directory and per connection, then one naming
 * docs/security.md; returns how many it printed before that one. */
size_t hg_plan_trust_notes(const struct hg_plan *plan, const char *prefix, FILE *out);

#endif
