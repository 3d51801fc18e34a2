/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the load supervisor reports once the loads are stopped: result.json's
 * `loads`, the loads' run-level warnings, whether they got what they asked,
 * and the files they write (docs/loads.md).  loads/supervisor.h includes
 * this; supervisor_json.c is its only author. */
#ifndef HG_SUPERVISOR_JSON_H
#define HG_SUPERVISOR_JSON_H

#include <jansson.h>
#include <stdbool.h>

#include "plan/plan.h"

struct hg_loadrun;

/* After stop_all: `loads` of result.json, one object per load (docs/loads.md):
 * {name, type, pids, started_ns, stop_requested_ns, stopped_ns (ns from t0,
 * null if never started), ended_early, killed, processes, exit, granted,
 * stats, warnings}.  New reference. */
json_t *hg_loadrun_to_json(const struct hg_loadrun *lr);

/* Run-level warnings of the loads (stray processes killed, ...), as an array
 * of strings to append to result.json's warnings.  New reference. */
json_t *hg_loadrun_warnings(const struct hg_loadrun *lr);
/* True when a load did not get what the scenario asked: its priority, nice
 * or cpus refused, a process failed or ended (or its command exited)
 * before the stop time.  --strict turns this into exit 4. */
bool hg_loadrun_shortfall(const struct hg_loadrun *lr);

/* The files the plan's loads write into the result directory (an exec
 * load's output), added to result.json's `files` object, from the plan;
 * with lr (NULL during the run), also what a load's tidy left
 * ("load.NAME.left").  Safe from any thread. */
void hg_loadrun_files(const struct hg_plan *plan, const struct hg_loadrun *lr, json_t *files);

#endif
