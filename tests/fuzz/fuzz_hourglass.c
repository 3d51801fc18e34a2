/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: `hgrun hourglass ARGS...`, the translator of Hourglass
 * command lines (runner/cli/hourglass.c).  The input is its arguments,
 * separated by NUL bytes.  Beyond not crashing, a command line it accepts
 * (exit 0) becomes text the scenario loader reads (the translator loads it
 * itself, and says so with exit 2 when it does not), and the scenario has
 * the duration -d asked for (an exact time cut short once became minutes).
 * Built with -DHG_FUZZ=ON (clang); see docs/fuzzing.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "cli/hourglass.h"
#include "cli/plugins.h"
#include "plan/plan.h"
#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	char *text = malloc(size + 1), *argv[MAX_ARGS + 1];
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	int argc = 0;
	for (char *p = text; p < text + size && argc < MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	char *yaml = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&yaml, &len), *err = fopen("/dev/null", "w");
	int rc = out && err ? hg_hourglass_command(argc, argv, out, err) : -1;
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	if (rc == 0) {
		struct hg_diags d;
		struct hg_plan *plan = hg_scenario_load_string("hourglass.yaml", yaml,
							       &hg_builtin_plugins, &d);
		/* the last -d's value (to the nearest ns) is the scenario's duration */
		const char *d_arg = NULL;
		for (int i = 0; i + 1 < argc; i++)
			if (!strcmp(argv[i], "-d"))
				d_arg = argv[++i];
		uint64_t ns;
		bool rounded;
		char msg[HG_ERRLEN];
		if (!plan)
			abort();   /* exit 0, yet validate would refuse it */
		if (d_arg && hg_parse_duration_nearest(d_arg, &ns, &rounded, msg) == 0 &&
		    plan->duration_ns != ns)
			abort();
		hg_plan_free(plan);
	}
	free(yaml);
	free(text);
	return 0;
}
