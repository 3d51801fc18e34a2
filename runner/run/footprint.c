/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Memory a plan needs, from the same sizes the threads will allocate.
 * Records stream to disk through fixed rings, so nothing here grows with
 * the run's duration. */
#include <stdio.h>
#include <string.h>

#include "plan/load.h"
#include "plan/workload.h"
#include "run/footprint.h"
#include "run/gaptrace.h"

static uint64_t mem_available(void)
{
	char line[256];
	unsigned long long kib = 0;
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

void hg_footprint_of(const struct hg_plan *plan, struct hg_footprint *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_thread_plan *tp = &plan->threads[i];
		uint64_t finish = tp->finish_ns < plan->duration_ns ? tp->finish_ns : plan->duration_ns;
		uint64_t active = finish > tp->start_ns ? finish - tp->start_ns : 0;
		f->trace_bytes += hg_ring_bytes(plan->trace_records, sizeof(struct hg_gap_record));
		if (tp->workload.ops->footprint)
			f->workload_bytes += tp->workload.ops->footprint(tp, active);
	}
	for (size_t i = 0; i < plan->n_loads; i++) {
		const struct hg_load_plan *l = &plan->loads[i];
		if (l->ops->footprint)
			f->load_bytes += l->ops->footprint(l);
	}
	f->total = f->trace_bytes + f->workload_bytes + f->load_bytes;
	f->available = mem_available();
}

static double gib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024 * 1024);
}

int hg_footprint_check(const struct hg_footprint *f, const struct hg_plan *plan,
		       char *msg, size_t size)
{
	if (!f->available || f->total <= f->available / 4 * 3)
		return 0;
	snprintf(msg, size,
		 "this run needs %.2f GiB of memory (trace rings %.2f GiB = %zu threads x %llu "
		 "records (rounded up to a power of two) x %zu B; workloads %.2f GiB; memory loads "
		 "%.2f GiB) but %.2f GiB is "
		 "available, and a run takes at most 3/4 of it: lower trace.records, the thread "
		 "count, or the sizes",
		 gib(f->total), gib(f->trace_bytes), plan->n_threads,
		 (unsigned long long)plan->trace_records, sizeof(struct hg_gap_record),
		 gib(f->workload_bytes), gib(f->load_bytes), gib(f->available));
	return -1;
}
