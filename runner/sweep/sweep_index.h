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
/* What makes a sweep the same sweep (its resolved scenario, axes, repeat
 * and --set, as hg_sweep_index_differs compares them) as one canonical
 * line of JSON (malloc'd), from an index built or read back; NULL when out
 * of memory. */
char *hg_sweep_identity(json_t *index);
/* The sweep's id: the SHA-256 of that line, in hex; sweep.json's "id" and
 * each run's result.json sweep_point.sweep_id, so that a run is known to be
 * this sweep's.  "" when out of memory. */
void hg_sweep_id(json_t *index, char hex[65]);
/* Point `p`'s id ("p007") for a sweep of n_points. */
void hg_sweep_point_id(size_t n_points, size_t p, char out[32]);
/* The grid values of point p as {"PATH": "VALUE"} (new reference). */
json_t *hg_sweep_point_values(const struct hg_sweep_plan *sp, size_t p);

/* Reads sweep.json in the open directory dir (shown: its name for
 * messages; a regular file, not a link, at most 64 MiB) and checks it
 * (hg_sweep_index_check).  Returns the index, or NULL with err set
 * (*missing when there is none). */
json_t *hg_sweep_index_read_at(int dir, const char *shown, bool *missing, char *err,
			       size_t errlen);
/* Writes sweep.json in the open directory dir.  0 or -errno. */
int hg_sweep_index_write_at(int dir, json_t *index);
/* NULL when the two indexes describe the same sweep (scenario, axes,
 * repeat, overrides); else the first difference in buf, naming each side:
 * "scenario.duration_ns: sweep.json has 1000000, this sweep has 2000000". */
const char *hg_sweep_index_differs(json_t *recorded, json_t *now, const char *recorded_name,
				   const char *now_name, char *buf, size_t size);
/* Whether RUN/result.json in the open sweep directory dir is a finished
 * run of this sweep (id: hg_sweep_id): RUN a run name, its directories and
 * the file the user's and not links, the file regular and read bounded
 * (never a FIFO or a device), complete: true, and its sweep_point of this
 * sweep and of RUN's point and repeat.  Anything else, planted or of
 * another sweep, is not (and is run again by --resume).  With text, the
 * bytes read are kept there (*text malloc'd, *len), and the result in
 * *result (new reference), when it is. */
bool hg_sweep_run_complete_at(int dir, const char *run, const char *id);
bool hg_sweep_run_read_at(int dir, const char *run, const char *id, json_t **result, char **text,
			  size_t *len);
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
 * in err.  hg_sweep_index_read_at applies it. */
int hg_sweep_index_check(json_t *index, char *err, size_t errlen);

#endif
