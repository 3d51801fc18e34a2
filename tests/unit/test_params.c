/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every plugin's parameter table (runner/plan/param.h) is well formed, as
 * fio checks its option tables at start-up: names unique, a default that
 * parses and lies in the range, required keys without a default, an
 * optional key without a default echoed as null (0 outside its range),
 * offsets inside the plugin's struct; and the generic helpers (copy, free,
 * lookup, ranges in words) do what the resolver and the echo rely on. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "base/units.h"
#include "cli/plugins.h"
#include "plan/keys.h"
#include "plan/load.h"
#include "plan/param.h"
#include "plan/timer.h"
#include "plan/workload.h"

static size_t value_size(const struct hg_param *p)
{
	switch (p->kind) {
	case HG_PARAM_ENUM: return sizeof(unsigned);
	case HG_PARAM_BOOL: return sizeof(bool);
	case HG_PARAM_STRING:
	case HG_PARAM_ENDPOINT: return sizeof(char *);
	case HG_PARAM_EXEC: return sizeof(struct hg_exec);
	case HG_PARAM_ARGS: return sizeof(struct hg_args);
	default: return sizeof(uint64_t);
	}
}

/* The default parses as its kind and lies in the range. */
static bool default_ok(const struct hg_param *p)
{
	char err[HG_ERRLEN];
	uint64_t v;
	bool b;
	switch (p->kind) {
	case HG_PARAM_DURATION:
		return hg_parse_duration(p->def, &v, err) == 0 && v >= p->min && v <= hg_param_max(p);
	case HG_PARAM_SIZE:
		return hg_parse_size(p->def, &v, err) == 0 && v >= p->min && v <= hg_param_max(p);
	case HG_PARAM_UINT:
		return hg_parse_uint(p->def, p->min, hg_param_max(p), &v, err) == 0;
	case HG_PARAM_BOOL:
		return hg_parse_bool(p->def, &b, err) == 0;
	case HG_PARAM_ENUM:
		for (size_t i = 0; p->choices[i]; i++)
			if (strcmp(p->choices[i], p->def) == 0)
				return true;
		return false;
	case HG_PARAM_STRING:
		return strlen(p->def) >= p->min;
	default:
		return false;   /* ENDPOINT, EXEC: no default */
	}
}

static void check_table(const char *plugin, const struct hg_params *ps)
{
	for (size_t i = 0; i < hg_params_count(ps); i++) {
		const struct hg_param *p = &ps->table[i];
		CHECK(p->help && *p->help, "%s.%s: no help", plugin, p->name);
		CHECK(p->offset + value_size(p) <= ps->size, "%s.%s: offset outside its struct",
		      plugin, p->name);
		CHECK(hg_param_find(ps, p->name) == p, "%s.%s: named twice", plugin, p->name);
		CHECK(p->kind != HG_PARAM_ENUM || (p->choices && p->choices[0]),
		      "%s.%s: an enum without choices", plugin, p->name);
		CHECK(!(p->required && p->def), "%s.%s: required and with a default", plugin, p->name);
		if (p->def)
			CHECK(default_ok(p), "%s.%s: default '%s' is not a valid value", plugin, p->name,
			      p->def);
		/* An optional key without a default is echoed null when not given. */
		if (!p->required && !p->def)
			CHECK(p->kind == HG_PARAM_STRING || p->kind == HG_PARAM_ENDPOINT ||
			      p->kind == HG_PARAM_ARGS ||     /* none given: no arguments, null */
			      ((p->kind == HG_PARAM_UINT || p->kind == HG_PARAM_DURATION ||
				p->kind == HG_PARAM_SIZE) && p->min > 0),
			      "%s.%s: optional, no default, and 0 is a valid value", plugin, p->name);
	}
}

static void test_every_table(void)
{
	const struct hg_plugins *p = &hg_builtin_plugins;
	size_t keys = 0;
	for (size_t i = 0; i < p->n_workloads; i++) {
		check_table(p->workloads[i]->name, &p->workloads[i]->params);
		keys += hg_params_count(&p->workloads[i]->params);
	}
	CHECK(keys <= 64, "workload keys: at most 64 fit the libcyaml schema (scenario/rawscenario.c)");
	keys = 0;
	for (size_t i = 0; i < p->n_loads; i++) {
		check_table(p->loads[i]->name, &p->loads[i]->params);
		keys += hg_params_count(&p->loads[i]->params);
	}
	CHECK(keys <= 64, "load keys: at most 64 fit the libcyaml schema (scenario/rawscenario.c)");
	for (size_t i = 0; i < p->n_timers; i++)
		check_table(p->timers[i]->name, &p->timers[i]->params);
}

struct sample {
	uint64_t n;
	char *s;
	struct hg_exec e;
};

static const struct hg_param rows[] = {
	{ .name = "n", .kind = HG_PARAM_SIZE, .offset = offsetof(struct sample, n), .min = 64,
	  .help = "a size" },
	{ .name = "s", .kind = HG_PARAM_STRING, .offset = offsetof(struct sample, s), .min = 1,
	  .help = "a string" },
	{ .name = "e", .kind = HG_PARAM_EXEC, .offset = offsetof(struct sample, e), .help = "x" },
	HG_PARAMS_END
};
static const struct hg_params sample_params = { rows, sizeof(struct sample) };

static void test_helpers(void)
{
	char buf[96];
	struct sample *a = hg_params_alloc(&sample_params);
	a->n = 4096;
	a->s = strdup("hello");
	a->e.n_values = 2;
	a->e.values_ns = calloc(2, sizeof(uint64_t));
	a->e.values_ns[1] = 7;
	struct sample *b = hg_params_copy(&sample_params, a);
	CHECK(b && b->s != a->s && strcmp(b->s, "hello") == 0, "copy owns its strings");
	CHECK(b && b->e.values_ns != a->e.values_ns && b->e.values_ns[1] == 7, "copy owns exec lists");
	CHECK(hg_params_u64(&sample_params, b, "n", 1) == 4096, "u64 lookup");
	CHECK(hg_params_u64(&sample_params, b, "workers", 1) == 1, "u64 fallback");
	CHECK(hg_params_exec(&sample_params, b, "e") == &b->e, "exec lookup");
	CHECK(strcmp(hg_param_range_text(&rows[0], buf, sizeof(buf)), "at least 64B") == 0,
	      "range text: %s", buf);
	CHECK(strcmp(hg_params_names(&sample_params, buf, sizeof(buf)), "n, s, e") == 0,
	      "names: %s", buf);
	hg_params_free(&sample_params, a);
	hg_params_free(&sample_params, b);
}

/* Each key of plan/keys.h is declared, with the kind its accessor reads, by
 * at least `least` plugins of its family: an accessor cannot read a key no
 * plugin has any more (a key renamed in a row without the macro). */
static size_t takers(const struct hg_params *const *tables, size_t n, const char *key,
		     enum hg_param_kind kind)
{
	size_t found = 0;
	for (size_t i = 0; i < n; i++) {
		const struct hg_param *p = hg_param_find(tables[i], key);
		CHECK(!p || p->kind == kind, "%s: of another kind in a plugin's table", key);
		found += p != NULL;
	}
	return found;
}

static void test_shared_keys(void)
{
	const struct hg_plugins *pl = &hg_builtin_plugins;
	const struct hg_params *w[64], *t[64], *l[64];
	CHECK(pl->n_workloads <= 64 && pl->n_timers <= 64 && pl->n_loads <= 64, "room");
	for (size_t i = 0; i < pl->n_workloads; i++)
		w[i] = &pl->workloads[i]->params;
	for (size_t i = 0; i < pl->n_timers; i++)
		t[i] = &pl->timers[i]->params;
	for (size_t i = 0; i < pl->n_loads; i++)
		l[i] = &pl->loads[i]->params;
	CHECK(takers(w, pl->n_workloads, HG_KEY_PERIOD, HG_PARAM_DURATION) >= 2, "period");
	CHECK(takers(w, pl->n_workloads, HG_KEY_EXEC, HG_PARAM_EXEC) >= 2, "exec");
	CHECK(takers(w, pl->n_workloads, HG_KEY_YIELD_AFTER, HG_PARAM_DURATION) >= 2, "yield_after");
	CHECK(takers(t, pl->n_timers, HG_KEY_TICK, HG_PARAM_DURATION) == pl->n_timers,
	      "tick: every timer takes it");
	CHECK(takers(t, pl->n_timers, HG_KEY_SLACK, HG_PARAM_DURATION) >= 2, "slack");
	CHECK(takers(l, pl->n_loads, HG_KEY_WORKERS, HG_PARAM_UINT) >= 2, "workers");
	CHECK(takers(l, pl->n_loads, HG_KEY_STAGGER, HG_PARAM_DURATION) >= 2, "stagger");
}

int main(void)
{
	test_every_table();
	test_shared_keys();
	test_helpers();
	return unit_report("test_params");
}
