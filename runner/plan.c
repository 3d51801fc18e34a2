/* Freeing a plan. */
#include <stdlib.h>

#include "plan.h"

void hg_plan_free(struct hg_plan *plan)
{
	if (!plan)
		return;
	for (size_t i = 0; i < plan->n_threads; i++) {
		free(plan->threads[i].name);
		free(plan->threads[i].workload.exec.values_ns);
	}
	free(plan->threads);
	for (size_t i = 0; i < plan->n_loads; i++) {
		free(plan->loads[i].name);
		free(plan->loads[i].dir);
		free(plan->loads[i].connect);
		free(plan->loads[i].command);
	}
	free(plan->loads);
	for (size_t i = 0; i < plan->n_expects; i++)
		free(plan->expects[i].thread);
	free(plan->expects);
	for (size_t i = 0; i < plan->sweep.n_axes; i++) {
		for (size_t j = 0; j < plan->sweep.axes[i].n_values; j++)
			free(plan->sweep.axes[i].values[j]);
		free(plan->sweep.axes[i].values);
		free(plan->sweep.axes[i].path);
	}
	free(plan->sweep.axes);
	free(plan->source_path);
	free(plan->name);
	free(plan->description);
	free(plan);
}
