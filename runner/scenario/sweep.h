/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sweep points: the scenario with one grid point's values applied.  The
 * point's scenario is made by editing the YAML document (so every value goes
 * through the same loader, checks and messages as the file itself) and
 * writing it back out as text. */
#ifndef HG_SWEEP_H
#define HG_SWEEP_H

#include <stddef.h>

#include "base/units.h"
#include "plan/plan.h"
#include "plan/plugins.h"
#include "scenario/diag.h"
#include "scenario/yamldoc.h"

/* Limits on a sweep, refused by hg_sweep_check before anything is expanded. */
#define HG_SWEEP_MAX_AXES 32
#define HG_SWEEP_MAX_VALUES 1024       /* over all axes */
#define HG_SWEEP_MAX_POINTS 100000
#define HG_SWEEP_MAX_RUNS 1000000      /* points x repeat */
#define HG_SWEEP_MAX_LABEL 4096        /* bytes of an axis's path or of one value: hgreport
					  refuses a sweep.json past it too */

/* Grid points (product of the axes' lengths), not counting repeats;
 * SIZE_MAX when the product overflows. */
size_t hg_sweep_n_points(const struct hg_sweep_plan *sp);
/* The value index of `axis` at grid point `point` (the last axis varies fastest). */
size_t hg_sweep_coord(const struct hg_sweep_plan *sp, size_t point, size_t axis);

/* An override: set `path` (duration, threads[NAME].a.b, loads[NAME].a) to
 * `value`.  Returns the new scenario text (malloc'd, without sweep:) or
 * NULL with err set. */
struct hg_override {
	const char *path;
	const char *value;
};
char *hg_sweep_apply(const char *text, const struct hg_override *ov, size_t n,
		     char err[HG_ERRLEN]);
/* The same edit for --set: keep_sweep keeps the sweep: section, and paths
 * may also be sweep.repeat and sweep.grid.PATH (the value a list, "[a, b]").
 * On error *failed (when not NULL) is the index of the override at fault. */
char *hg_scenario_edit(const char *text, const struct hg_override *ov, size_t n,
		       bool keep_sweep, size_t *failed, char err[HG_ERRLEN]);
/* NAME of threads[NAME] as an item index ("0" -> 0), or -1: a list item
 * is named by its name, else by its index. */
int hg_item_index(const char *name);

/* Loads a point's scenario text (scenario/scenario.c passes its loader in,
 * so sweep.c does not depend on the loader that calls it). */
typedef struct hg_plan *(*hg_point_loader)(const char *name, const char *text,
					   const struct hg_plugins *plugins, struct hg_diags *d);
/* Checks the grid's size, then every value of the grid (each on its own)
 * and grid points (up to a cap), adding errors located at the grid's values. */
void hg_sweep_check(struct hg_yaml *y, const struct hg_plan *plan, hg_point_loader load,
		    const struct hg_plugins *plugins, struct hg_diags *d);

#endif
