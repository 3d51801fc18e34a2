/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /dev/cpu_dma_latency takes a binary 32-bit value in microseconds; the
 * request lasts while the file is open. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "run/pmqos.h"

int hg_pmqos_hold(uint32_t us)
{
	int fd = open("/dev/cpu_dma_latency", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int32_t value = (int32_t)us;
	if (write(fd, &value, sizeof(value)) != (ssize_t)sizeof(value)) {
		int e = errno ? errno : EIO;
		close(fd);
		return -e;
	}
	return fd;
}

void hg_pmqos_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
