/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of loads: each is one file of loads/ ending in one
 * `const struct hg_load_ops hg_load_NAME` (plan/load.h), named once
 * here.  registry.c builds the table from it; cli/plugins.c hands the
 * table to the loader (plan/plugins.h). */
#ifndef HG_LOAD_REGISTRY_H
#define HG_LOAD_REGISTRY_H

#include "plan/load.h"

#define HG_LOAD_LIST(X) X(cpu) X(memory) X(io) X(fork) X(procfs) X(tcp_stream) X(exec) X(stress_ng) \
	X(flood_ping)

#define HG_LOAD_DECLARE(n) extern const struct hg_load_ops hg_load_##n;
HG_LOAD_LIST(HG_LOAD_DECLARE)
#undef HG_LOAD_DECLARE

#define HG_LOAD_ONE(n) +1
#define HG_N_LOADS (0 HG_LOAD_LIST(HG_LOAD_ONE))

extern const struct hg_load_ops *const hg_loads[HG_N_LOADS];

#endif
