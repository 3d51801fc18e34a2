/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun calibrate`: what a run would measure before its threads start. */
#include <string.h>

#include "cli/calibrate_cmd.h"

#define CALIBRATE_MS 100

json_t *hg_calibration_to_json(const struct hg_calibration *cal)
{
	json_t *tsc = json_pack("{s:s, s:s, s:f, s:f, s:b, s:I, s:f, s:f}",
				"counter", cal->counter, "method", cal->method,
				"hz", cal->hz, "hz_error_ppm", cal->hz_error_ppm,
				"invariant", cal->invariant, "samples", (json_int_t)cal->samples,
				"span_ns", cal->span_ns, "bracket_ns", cal->bracket_ns);
	json_t *gap = json_pack("{s:I, s:f, s:b, s:s}",
				"threshold_ns", (json_int_t)cal->gap_auto_ns,
				"loop_ns", cal->loop_ns, "auto", 1, "rule", HG_GAP_AUTO_RULE);
	return json_pack("{s:o, s:o}", "tsc", tsc, "gap", gap);
}

static void print_text(FILE *out, const struct hg_calibration *cal)
{
	fprintf(out, "counter      %s, %s\n", cal->counter,
		cal->invariant ? "invariant" : "NOT invariant");
	fprintf(out, "rate         %.3f MHz +- %.2f ppm (%s: %u pairs over %.0f ms, "
		"brackets %.0f ns)\n", cal->hz / 1e6, cal->hz_error_ppm, cal->method,
		cal->samples, cal->span_ns / 1e6, cal->bracket_ns);
	fprintf(out, "loop cost    %.2f ns per iteration of the gap loop (median)\n",
		cal->loop_ns);
	fprintf(out, "gap: auto    %llu ns = %s\n", (unsigned long long)cal->gap_auto_ns,
		HG_GAP_AUTO_RULE);
	if (!cal->invariant)
		fprintf(out, "warning: the counter is not invariant (/proc/cpuinfo lacks "
			"constant_tsc or nonstop_tsc): its rate may change with CPU frequency "
			"and stop in deep idle states, so gaps and CPU times are unreliable\n");
}

int hg_calibrate_command(FILE *out, bool json)
{
	struct hg_calibration cal;
	int rc = hg_counter_calibrate(&cal, CALIBRATE_MS);
	if (rc) {
		fprintf(out, "hgrun: calibrate: %s\n", strerror(-rc));
		return 1;
	}
	if (!json) {
		print_text(out, &cal);
		return 0;
	}
	json_t *j = hg_calibration_to_json(&cal);
	if (!j) {
		fprintf(out, "hgrun: calibrate: out of memory\n");
		return 1;
	}
	json_dumpf(j, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(j);
	return 0;
}
