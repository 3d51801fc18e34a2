/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load 'memory': streams over a buffer of size bytes, mapping and unmapping
 * it (page faults, munmap): the memory stress of the Abeni study, whose
 * worst latencies came from munmap() of a 128 MB array. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "plan/load.h"
#include "plan/plan.h"
#include "loads/rows.h"

struct params {
	uint64_t size_bytes, workers, stagger_ns;
};

static const struct hg_param params[] = {
	HG_LOAD_ROW_SIZE(struct params, size_bytes, "the buffer each process maps, writes and unmaps"),
	HG_LOAD_ROW_WORKERS(struct params, workers),
	HG_LOAD_ROW_STAGGER(struct params, stagger_ns),
	HG_PARAMS_END
};

enum { C_PASSES, C_BYTES };

/* One pass: map, write every page (one fault each: no huge pages), unmap. */
static int memory_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	const struct params *p = l->plan->params;
	size_t size = (size_t)p->size_bytes;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	for (;;) {
		char *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return hg_load_fail(slot, "mmap of %zu bytes: %s", size, strerror(errno));
		madvise(m, size, MADV_NOHUGEPAGE);
		for (size_t off = 0; off < size; off += page)
			m[off] = (char)(off >> 12);
		munmap(m, size);
		hg_load_add(slot, C_PASSES, 1);
		hg_load_add(slot, C_BYTES, size);
	}
	return 0;
}

static uint64_t memory_footprint(const struct hg_load_plan *lp)
{
	const struct params *p = lp->params;
	return p->size_bytes * p->workers;
}

const struct hg_load_ops hg_load_memory = {
	.name = "memory",
	.summary = "streams over a buffer of size bytes, mapping and unmapping it (page faults, munmap)",
	.params = { params, sizeof(struct params) },
	.footprint = memory_footprint,
	.counters = { "passes", "bytes" },
	.run = memory_run,
};
