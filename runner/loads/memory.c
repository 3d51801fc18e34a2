/* Load 'memory': streams over a buffer of size bytes, mapping and unmapping
 * it (page faults, munmap): the memory stress of the Abeni study, whose
 * worst latencies came from munmap() of a 128 MB array. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "plan/load.h"
#include "plan/plan.h"

enum { C_PASSES, C_BYTES };

/* One pass: map, write every page (one fault each: no huge pages), unmap. */
static int memory_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	size_t size = (size_t)l->plan->size_bytes;
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

const struct hg_load_ops hg_load_memory = {
	.name = "memory",
	.summary = "streams over a buffer of size bytes, mapping and unmapping it (page faults, munmap)",
	.takes = HG_LP_SIZE | HG_LP_WORKERS,
	.needs = HG_LP_SIZE,
	.counters = { "passes", "bytes" },
	.run = memory_run,
};
