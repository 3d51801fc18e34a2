/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the scenario loader (every stage, from YAML text to a
 * checked plan) and, when the input has a sweep, the expansion of a few of
 * its points.  Built with -DHG_FUZZ=ON (clang); see docs/fuzzing.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/plugins.h"
#include "plan/plan.h"
#include "scenario/scenario.h"
#include "scenario/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Points at the start, the middle and the end of the grid. */
static void expand_some_points(const char *text, const struct hg_plan *plan)
{
	const struct hg_sweep_plan *sp = &plan->sweep;
	size_t n = hg_sweep_n_points(sp);
	struct hg_override *ov = calloc(sp->n_axes + 1, sizeof(*ov));
	if (!ov)
		return;
	size_t picks[3] = { 0, n / 2, n ? n - 1 : 0 };
	for (size_t k = 0; k < 3 && n; k++) {
		for (size_t a = 0; a < sp->n_axes; a++) {
			ov[a].path = sp->axes[a].path;
			ov[a].value = sp->axes[a].values[hg_sweep_coord(sp, picks[k], a)];
		}
		char err[HG_ERRLEN];
		char *point = hg_sweep_apply(text, ov, sp->n_axes, err);
		if (!point)
			continue;
		struct hg_diags d;
		struct hg_plan *p = hg_scenario_load_string("point.yaml", point, &hg_builtin_plugins, &d);
		hg_plan_free(p);
		free(point);
	}
	free(ov);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct hg_diags d;
	struct hg_plan *plan = hg_scenario_load_string("fuzz.yaml", text, &hg_builtin_plugins, &d);
	if (plan && plan->sweep.present)
		expand_some_points(text, plan);
	hg_plan_free(plan);
	free(text);
	return 0;
}
