/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun calibrate`: the counter, its rate, the loop cost and the gap
 * threshold `gap: auto` would use on this machine. */
#ifndef HG_CALIBRATE_CMD_H
#define HG_CALIBRATE_CMD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "run/counter.h"

/* Calibrates and prints, as text or (json) one JSON object.  Returns an
 * exit code: 0, or 1 when calibration failed (the reason on out). */
int hg_calibrate_command(FILE *out, bool json);

/* {"tsc": {...}, "gap": {...}} with result.json's field names. */
json_t *hg_calibration_to_json(const struct hg_calibration *cal);

#endif
