/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of timers/registry.h, from its list. */
#include "timers/registry.h"

#define HG_TIMER_ENTRY(n) &hg_timer_##n,
const struct hg_timer_ops *const hg_timers[HG_N_TIMERS] = {
	HG_TIMER_LIST(HG_TIMER_ENTRY)
};
#undef HG_TIMER_ENTRY
