/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep.json, the index of a sweep directory: what the sweep is (resolved
 * scenario, grid, repeat, --set) and where each run goes (pNNN/rM).  Shards
 * and resumed sweeps compare their index with the one on disk. */
#ifndef HG_SWEEP_INDEX_H
#define HG_SWEEP_INDEX_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "plan/plan.h"

/* The index of a sweep of `base` (new reference).  overrides: --set
 * (borrowed); source: the scenario file's name. */
json_t *hg_sweep_index(const struct hg_plan *base, const char *source, json_t *overrides);
/* Point `p`'s id ("p007") for a sweep of n_points. */
void hg_sweep_point_id(size_t n_points, size_t p, char out[32]);
/* The grid values of point p as {"PATH": "VALUE"} (new reference). */
json_t *hg_sweep_point_values(const struct hg_sweep_plan *sp, size_t p);

/* Reads DIR/sweep.json (a regular file, not a link, at most 64 MiB) and
 * checks it (hg_sweep_index_check).  Returns the index, or NULL with err
 * set (*missing when there is none). */
json_t *hg_sweep_index_read(const char *dir, bool *missing, char *err, size_t errlen);
int hg_sweep_index_write(const char *dir, json_t *index);
/* NULL when the two indexes describe the same sweep (scenario, axes,
 * repeat, overrides); else the first difference in buf, naming each side:
 * "scenario.duration_ns: sweep.json has 1000000, this sweep has 2000000". */
const char *hg_sweep_index_differs(json_t *recorded, json_t *now, const char *recorded_name,
				   const char *now_name, char *buf, size_t size);
/* Whether DIR/RUN/result.json exists and says complete: true (RUN a run
 * name, its directories and the file not links, the file regular). */
bool hg_sweep_run_complete(const char *dir, const char *run);
/* Whether a parsed result.json says complete: true. */
bool hg_sweep_result_complete(json_t *result);
/* Run `run`'s name ("p007/r2": point run % n_points, repeat run /
 * n_points), the path of its directory in the sweep's. */
void hg_sweep_run_name(size_t n_points, size_t run, char out[64]);
/* Splits a run name "p007/r2" into its point and repeat directories;
 * false for anything else ("../x", "p1/../../y", "/etc", "p1/r2/x"). */
bool hg_sweep_run_name_split(const char *name, char point[32], char rep[32]);
/* pNNN/rM of run `name` below the open directory dir, each opened as a
 * directory, never through a link (create: made when missing): the rM
 * fd, or -errno (-EINVAL: not a run name; -ELOOP, -ENOTDIR: a link or a
 * file there).  point: when not NULL, gets pNNN's fd (the caller closes
 * it; -1 on failure). */
int hg_sweep_open_run_at(int dir, const char *name, bool create, int *point);
/* An index read from disk: its format, and every run name a name
 * hg_sweep_run_name_split accepts.  0, or -EINVAL with the first problem
 * in err.  hg_sweep_index_read applies it. */
int hg_sweep_index_check(json_t *index, char *err, size_t errlen);

#endif
