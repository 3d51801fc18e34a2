/* SPDX-License-Identifier: GPL-2.0-or-later */
/* result.json as a jansson tree (docs/results.md): the final one
 * (results/results.c) and the checkpoints (results/checkpoint.c). */
#ifndef HG_RESULT_JSON_H
#define HG_RESULT_JSON_H

#include <jansson.h>

#include "run/runstate.h"


/* The result.json tree (new reference). */
json_t *hg_result_json(const struct hg_run_state *rs);

#endif
