/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bounded work for any input: limits on the token stream before libyaml
 * builds the document (flow and total nesting, no aliases), and a
 * duplicate-key check linear in the number of keys. */
#ifndef HG_YAMLGUARD_H
#define HG_YAMLGUARD_H

#include <stddef.h>

#include "scenario/diag.h"
#include "scenario/yamlnode.h"

#define HG_YAML_MAX_FLOW_DEPTH 64
#define HG_YAML_MAX_DEPTH 128

/* Scans text's tokens; returns 0, or -1 with one error added to d. */
int hg_yaml_guard(const char *text, size_t len, struct hg_diags *d);
/* Adds an error for each key given twice in one mapping; 0 when none. */
int hg_yaml_check_duplicates(struct hg_yaml *y, struct hg_diags *d);

#endif
