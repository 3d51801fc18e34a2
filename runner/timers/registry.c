/* The one list of timers: HG_TIMER_LIST in timer.h. */
#include <strings.h>

#include "plan/timer.h"

#define HG_TIMER_ENTRY(n) &hg_timer_##n,
const struct hg_timer_ops *const hg_timers[] = { HG_TIMER_LIST(HG_TIMER_ENTRY) };
#undef HG_TIMER_ENTRY
const size_t hg_n_timers = sizeof(hg_timers) / sizeof(hg_timers[0]);

const struct hg_timer_ops *hg_timer_find(const char *name)
{
	for (size_t i = 0; i < hg_n_timers; i++)
		if (strcasecmp(hg_timers[i]->name, name) == 0)
			return hg_timers[i];
	return NULL;
}
