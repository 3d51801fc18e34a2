/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Execution-time generators: fixed, list (cycled), uniform, normal. */
#include <math.h>

#include "plan/jobexec.h"

uint64_t hg_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static double unit(uint64_t *state)
{
	return (double)(hg_splitmix64(state) >> 11) * 0x1.0p-53;
}

void hg_exec_init(struct hg_exec_gen *g, const struct hg_exec *exec, unsigned instance)
{
	g->exec = exec;
	g->next = 0;
	g->state = exec->seed ^ (0xd1b54a32d192ed03ull * ((uint64_t)instance + 1));
	g->has_spare = 0;
	g->spare = 0;
}

static uint64_t clamp(double v, uint64_t lo, uint64_t hi)
{
	if (!(v >= (double)lo))        /* also catches NaN */
		return lo;
	if (v >= (double)hi)
		return hi;
	return (uint64_t)llround(v);
}

/* Standard normal deviate, Box-Muller (polar form avoids trig). */
static double gaussian(struct hg_exec_gen *g)
{
	if (g->has_spare) {
		g->has_spare = 0;
		return g->spare;
	}
	double u, v, s;
	do {
		u = 2.0 * unit(&g->state) - 1.0;
		v = 2.0 * unit(&g->state) - 1.0;
		s = u * u + v * v;
	} while (s >= 1.0 || s == 0.0);
	double m = sqrt(-2.0 * log(s) / s);
	g->spare = v * m;
	g->has_spare = 1;
	return u * m;
}

uint64_t hg_exec_next(struct hg_exec_gen *g)
{
	const struct hg_exec *e = g->exec;
	switch (e->kind) {
	case HG_EXEC_FIXED:
		return e->n_values ? e->values_ns[0] : 0;
	case HG_EXEC_LIST: {
		if (!e->n_values)
			return 0;
		uint64_t v = e->values_ns[g->next];
		g->next = (g->next + 1) % e->n_values;
		return v;
	}
	case HG_EXEC_UNIFORM: {
		uint64_t span = e->max_ns - e->min_ns;
		uint64_t off = (uint64_t)(unit(&g->state) * ((double)span + 1.0));
		return e->min_ns + (off > span ? span : off);
	}
	case HG_EXEC_NORMAL:
		return clamp((double)e->mean_ns + gaussian(g) * (double)e->stddev_ns,
			     e->min_ns, e->max_ns);
	}
	return 0;
}
