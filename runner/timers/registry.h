/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of timers: each is one file of timers/ ending in one
 * `const struct hg_timer_ops hg_timer_NAME` (plan/timer.h), named once
 * here.  registry.c builds the table from it; cli/plugins.c hands the
 * table to the loader (plan/plugins.h). */
#ifndef HG_TIMER_REGISTRY_H
#define HG_TIMER_REGISTRY_H

#include "plan/timer.h"

#define HG_TIMER_LIST(X) X(sleep) X(absolute) X(timerfd) X(signal) X(spin)

#define HG_TIMER_DECLARE(n) extern const struct hg_timer_ops hg_timer_##n;
HG_TIMER_LIST(HG_TIMER_DECLARE)
#undef HG_TIMER_DECLARE

#define HG_TIMER_ONE(n) +1
#define HG_N_TIMERS (0 HG_TIMER_LIST(HG_TIMER_ONE))

extern const struct hg_timer_ops *const hg_timers[HG_N_TIMERS];

#endif
