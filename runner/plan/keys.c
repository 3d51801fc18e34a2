/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The typed accessors of plan/keys.h: the one place that looks a shared
 * key up by its name. */
#include "plan/keys.h"
#include "plan/load.h"
#include "plan/timer.h"
#include "plan/workload.h"

uint64_t hg_workload_period(const struct hg_workload_spec *w)
{
	return w->ops ? hg_params_u64(&w->ops->params, w->params, HG_KEY_PERIOD, 0) : 0;
}

const struct hg_exec *hg_workload_exec(const struct hg_workload_spec *w)
{
	return w->ops ? hg_params_exec(&w->ops->params, w->params, HG_KEY_EXEC) : NULL;
}

uint64_t hg_workload_yield_after(const struct hg_workload_spec *w)
{
	return w->ops ? hg_params_u64(&w->ops->params, w->params, HG_KEY_YIELD_AFTER, 0) : 0;
}

uint64_t hg_timer_tick(const struct hg_thread_plan *tp)
{
	return tp->timer ? hg_params_u64(&tp->timer->params, tp->timer_params, HG_KEY_TICK, 0)
			 : 0;
}

uint64_t hg_timer_slack(const struct hg_thread_plan *tp)
{
	return tp->timer ? hg_params_u64(&tp->timer->params, tp->timer_params, HG_KEY_SLACK, 0)
			 : 0;
}

uint64_t hg_load_workers(const struct hg_load_plan *lp)
{
	return lp->ops ? hg_params_u64(&lp->ops->params, lp->params, HG_KEY_WORKERS, 1) : 1;
}

uint64_t hg_load_stagger(const struct hg_load_plan *lp)
{
	return lp->ops ? hg_params_u64(&lp->ops->params, lp->params, HG_KEY_STAGGER, 0) : 0;
}

const struct hg_param *hg_load_stagger_row(const struct hg_load_plan *lp)
{
	return lp->ops ? hg_param_find(&lp->ops->params, HG_KEY_STAGGER) : NULL;
}
