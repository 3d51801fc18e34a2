/* Resolving a thread's `timer`: a timer name, or a mapping
 * {type, tick, slack} (docs/scenario.md#timers). */
#include <stdio.h>
#include <string.h>

#include "plan/timer.h"
#include "scenario/resolve_internal.h"
#include "scenario/shape.h"

#define MAX_TICK_NS 1000000000ull       /* 1s: Linux's slowest tick was 10ms */
#define MIN_TICK_NS 1000ull             /* 1us: below it, it is no tick */
#define MAX_SLACK_NS 1000000000ull

static bool timer_type(struct hg_resolver *r, const char *text, const char *path,
		       struct hg_thread_plan *tp)
{
	const char *names[16];
	for (size_t i = 0; i < hg_n_timers; i++)
		names[i] = hg_timers[i]->name;
	int i = hg_r_choice(r, text, path, "timer", names, hg_n_timers);
	if (i >= 0)
		tp->timer = hg_timers[i];
	return i >= 0;
}

/* A scalar under the timer mapping: its text, or NULL after an error. */
static const char *member(struct hg_resolver *r, yaml_node_t *n, const char *path,
			  const char *key, char *sub, size_t size)
{
	yaml_node_t *v = hg_yaml_get(r->y, n, key);
	hg_path_join(sub, size, path, key, 0);
	if (!v)
		return NULL;
	if (!hg_yaml_scalar(v) || hg_yaml_is_null(v)) {
		hg_yaml_error_at(r->d, v, sub, "expected a single value, got %s", hg_yaml_kind(v));
		return NULL;
	}
	return hg_yaml_scalar(v);
}

static bool timer_mapping(struct hg_resolver *r, yaml_node_t *n, const char *path,
			  struct hg_thread_plan *tp)
{
	static const char *const keys[] = { "type", "tick", "slack" };
	char sub[HG_PATH];
	const char *text;
	if (hg_shape_keys(r->y, n, path, keys, 3, r->d))
		return false;
	bool ok = true;
	if ((text = member(r, n, path, "type", sub, sizeof(sub))))
		ok &= timer_type(r, text, sub, tp);
	if ((text = member(r, n, path, "tick", sub, sizeof(sub))) &&
	    hg_r_duration(r, text, sub, &tp->timer_tick_ns) && tp->timer_tick_ns &&
	    (tp->timer_tick_ns < MIN_TICK_NS || tp->timer_tick_ns > MAX_TICK_NS)) {
		hg_yaml_error(r->y, r->d, sub,
			      "must be 0 (no tick) or 1us..1s (Linux 2.4's tick was 10ms), got %s", text);
		ok = false;
	}
	if ((text = member(r, n, path, "slack", sub, sizeof(sub))) &&
	    hg_r_duration(r, text, sub, &tp->timer_slack_ns)) {
		tp->timer_slack_set = true;
		if (tp->timer_slack_ns > MAX_SLACK_NS) {
			hg_yaml_error(r->y, r->d, sub, "must be at most 1s, got %s", text);
			ok = false;
		}
	}
	return ok;
}

bool hg_r_timer(struct hg_resolver *r, yaml_node_t *n, const char *path,
		struct hg_thread_plan *tp)
{
	tp->timer = &hg_timer_absolute;
	tp->timer_tick_ns = 0;
	tp->timer_slack_set = false;
	tp->timer_slack_ns = 0;
	if (n->type == YAML_SCALAR_NODE && !hg_yaml_is_null(n))
		return timer_type(r, hg_yaml_scalar(n), path, tp);
	if (n->type == YAML_MAPPING_NODE)
		return timer_mapping(r, n, path, tp);
	hg_yaml_error_at(r->d, n, path,
			 "expected a timer name (sleep absolute timerfd signal spin) or "
			 "{type: absolute, tick: 10ms, slack: 50us}, got %s", hg_yaml_kind(n));
	return false;
}
