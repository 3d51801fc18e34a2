/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun list`: the registries the runner uses, for humans or as JSON. */
#ifndef HG_LIST_H
#define HG_LIST_H

#include <stdbool.h>
#include <stdio.h>

/* what: NULL (all) or workloads|timers|priorities|loads|metrics.
 * Returns an exit code. */
int hg_list_command(FILE *out, FILE *err, const char *what, bool json);

#endif
