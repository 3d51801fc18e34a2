/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mmap'd, pre-touched, not inherited by forks. */
#include <sys/mman.h>

#include "base/buffer.h"

void *hg_buffer_alloc(size_t size)
{
	if (!size)
		return NULL;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, size, MADV_DONTFORK);   /* best effort: a kernel without it forks slower */
	volatile char *c = p;
	for (size_t i = 0; i < size; i += 4096)
		c[i] = 0;                  /* fault every page in now, not while measuring */
	return p;
}

void hg_buffer_free(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}
