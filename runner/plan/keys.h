/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The keys several plugins share and generic code reads (runner/README.md,
 * "Plugins and their parameters").  Each name is written only here: the
 * rows that declare the key (workloads/rows.h, loads/rows.h,
 * timers/common.c, and a plugin's own row of it) use the macro, and code
 * outside the tables reads the value through the typed accessor below, so
 * a key renamed here is renamed everywhere and one removed fails to
 * compile.  tests/tools/check_files.py (ctest tree.keys) fails on a key
 * looked up by a string literal instead. */
#ifndef HG_KEYS_H
#define HG_KEYS_H

#include <stdint.h>

#include "plan/plan.h"

/* workloads (workloads/rows.h) */
#define HG_KEY_PERIOD "period"            /* DURATION: release period */
#define HG_KEY_EXEC "exec"                /* EXEC: CPU time of each job */
#define HG_KEY_YIELD_AFTER "yield_after"  /* DURATION: CPU time between two yields */
/* timers (timers/common.c) */
#define HG_KEY_TICK "tick"                /* DURATION: 0, no tick */
#define HG_KEY_SLACK "slack"              /* DURATION: 0, not given */
/* loads (loads/rows.h) */
#define HG_KEY_WORKERS "workers"          /* UINT: processes (0: one per CPU) */
#define HG_KEY_STAGGER "stagger"          /* DURATION: between two workers' starts */

/* A workload's period, 0 when it has none. */
uint64_t hg_workload_period(const struct hg_workload_spec *w);
/* A workload's exec, NULL when it has none. */
const struct hg_exec *hg_workload_exec(const struct hg_workload_spec *w);
/* A workload's yield_after, 0 when it has none. */
uint64_t hg_workload_yield_after(const struct hg_workload_spec *w);
/* A thread's timer tick and slack, 0 when its timer has none. */
uint64_t hg_timer_tick(const struct hg_thread_plan *tp);
uint64_t hg_timer_slack(const struct hg_thread_plan *tp);
/* A load's workers (0: one per CPU, as `cpu` takes it), 1 when the load
 * has no such key; its stagger, 0 when it has none. */
uint64_t hg_load_workers(const struct hg_load_plan *lp);
uint64_t hg_load_stagger(const struct hg_load_plan *lp);
/* The stagger row of a load, NULL when it has none (plan/timeline.c scales
 * the value in place). */
const struct hg_param *hg_load_stagger_row(const struct hg_load_plan *lp);

#endif
