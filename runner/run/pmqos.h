/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU power-management QoS: holding /dev/cpu_dma_latency keeps CPUs out of
 * idle states slower to leave than the given latency for as long as the
 * file stays open (what cyclictest does by default, with 0). */
#ifndef HG_PMQOS_H
#define HG_PMQOS_H

#include <stdint.h>

/* Opens /dev/cpu_dma_latency and writes `us`.  Returns the descriptor to
 * keep open (>= 0), or -errno. */
int hg_pmqos_hold(uint32_t us);
void hg_pmqos_release(int fd);

#endif
