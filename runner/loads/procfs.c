/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load 'procfs': reads /proc files in a loop (the procfs stress of the
 * Abeni study: kernel data structures read under locks). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "loads/rows.h"
#include "plan/load.h"

enum { C_READS, C_BYTES };
#define BUF_SIZE (64u << 10)
#define N_FILES 7

static long read_all(int fd, char *buf)
{
	long total = 0;
	ssize_t n;
	while ((n = read(fd, buf, BUF_SIZE)) > 0)
		total += n;
	return n < 0 && errno != EINTR ? -1 : total;
}

static int procfs_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	char paths[N_FILES][64] = { "/proc/interrupts", "/proc/stat", "/proc/meminfo",
				    "/proc/self/maps", "/proc/self/status", "/proc/1/status" };
	snprintf(paths[N_FILES - 1], sizeof(paths[0]), "/proc/%d/status", (int)getppid());
	char *buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return hg_load_fail(slot, "mmap: %s", strerror(errno));
	for (;;) {
		for (unsigned i = 0; i < N_FILES; i++) {
			int fd = open(paths[i], O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;       /* a pid that went away */
			long n = read_all(fd, buf);
			close(fd);
			if (n < 0)
				continue;
			hg_load_add(slot, C_READS, 1);
			hg_load_add(slot, C_BYTES, (uint64_t)n);
		}
	}
	return 0;
}

struct params {
	uint64_t workers, stagger_ns;
};

static const struct hg_param params[] = {
	HG_LOAD_ROW_WORKERS(struct params, workers),
	HG_LOAD_ROW_STAGGER(struct params, stagger_ns),
	HG_PARAMS_END
};

const struct hg_load_ops hg_load_procfs = {
	.name = "procfs",
	.summary = "reads /proc files in a loop",
	.params = { params, sizeof(struct params) },
	.counters = { "reads", "bytes" },
	.run = procfs_run,
};
