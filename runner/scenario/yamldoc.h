/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scenario as a libyaml document: read with bounds, parsed with exact
 * marks for syntax errors; walking it is scenario/yamlnode.h. */
#ifndef HG_YAMLDOC_H
#define HG_YAMLDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "scenario/diag.h"
#include "scenario/yamlnode.h"

/* The largest scenario file read (checked before reading). */
#define HG_MAX_SCENARIO_BYTES (1u << 20)

/* The whole file, NUL-terminated (malloc'd), or NULL with err set. */
char *hg_read_text(const char *path, size_t *len, char err[256]);
/* Reads and parses `path`.  Returns 0, or -1 with errors added to d. */
int hg_yaml_open(struct hg_yaml *y, const char *path, struct hg_diags *d);
/* The same from text in memory (tests, sweeps). */
int hg_yaml_open_string(struct hg_yaml *y, const char *text, struct hg_diags *d);
void hg_yaml_close(struct hg_yaml *y);

#endif
