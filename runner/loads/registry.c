/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of loads/registry.h, from its list. */
#include "loads/registry.h"

#define HG_LOAD_ENTRY(n) &hg_load_##n,
const struct hg_load_ops *const hg_loads[HG_N_LOADS] = {
	HG_LOAD_LIST(HG_LOAD_ENTRY)
};
#undef HG_LOAD_ENTRY
