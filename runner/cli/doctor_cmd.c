/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun doctor`: the checks of run/doctor.h printed for people or scripts. */
#include <jansson.h>
#include <string.h>

#include "base/exitcodes.h"
#include "cli/doctor_cmd.h"
#include "cli/help.h"
#include "run/doctor.h"

#define MAX_CHECKS 32

/* Text folded at 78 columns after an indent and a label. */
static void fold(FILE *out, const char *label, const char *text)
{
	const int indent = 7 + (int)strlen(label);
	fprintf(out, "%*s%s", 7, "", label);
	hg_help_wrap(out, text, indent, indent, 78);
}

static void print_text(FILE *out, const struct hg_doctor_use *u,
		       const struct hg_doctor_check *c, size_t n, const size_t counts[4])
{
	if (u->given)
		fprintf(out, "hgrun doctor: this machine for scenario '%s' (findings weighed by "
			"what it uses)\n\n", u->name);
	else
		fprintf(out, "hgrun doctor: this machine for a measurement (give a scenario to "
			"weigh the findings by what it uses)\n\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "[%-4s] %-14s %s: %s\n", hg_doctor_severity_name(c[i].severity),
			c[i].id, c[i].title, c[i].value);
		if (c[i].severity == HG_DOC_OK)
			continue;
		fold(out, "why: ", c[i].why);
		if (c[i].fix[0])
			fold(out, "fix: ", c[i].fix);
	}
	fprintf(out, "\n%zu checks: %zu bad, %zu warn, %zu info, %zu ok%s\n", n, counts[HG_DOC_BAD],
		counts[HG_DOC_WARN], counts[HG_DOC_INFO], counts[HG_DOC_OK],
		counts[HG_DOC_BAD] ? " (exit 5)" : "");
}

static json_t *to_json(const struct hg_doctor_use *u, const struct hg_doctor_check *c, size_t n,
		       const size_t counts[4])
{
	json_t *list = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "id",
						      c[i].id, "title", c[i].title, "severity",
						      hg_doctor_severity_name(c[i].severity),
						      "value", c[i].value, "why", c[i].why, "fix",
						      c[i].fix[0] ? json_string(c[i].fix) : json_null()));
	json_t *summary = json_pack("{s:I, s:I, s:I, s:I}", "bad", (json_int_t)counts[HG_DOC_BAD],
				    "warn", (json_int_t)counts[HG_DOC_WARN], "info",
				    (json_int_t)counts[HG_DOC_INFO], "ok", (json_int_t)counts[HG_DOC_OK]);
	return json_pack("{s:s, s:o, s:o, s:o}", "format", "hgrun-doctor/1", "scenario",
			 u->given ? json_string(u->name) : json_null(), "checks", list, "summary",
			 summary);
}

int hg_doctor_command(const struct hg_plan *plan, FILE *out, bool json)
{
	struct hg_doctor_use u;
	struct hg_doctor_check checks[MAX_CHECKS];
	size_t counts[4] = { 0 };
	hg_doctor_use_of(plan, &u);
	size_t n = hg_doctor_run(&u, checks, MAX_CHECKS);
	for (size_t i = 0; i < n; i++)
		counts[checks[i].severity]++;
	if (!json) {
		print_text(out, &u, checks, n, counts);
	} else {
		json_t *j = to_json(&u, checks, n, counts);
		if (!j) {
			fprintf(stderr, "hgrun: doctor: out of memory\n");
			return HG_EXIT_FAILED;
		}
		json_dumpf(j, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
		json_decref(j);
	}
	return counts[HG_DOC_BAD] ? HG_EXIT_EXPECT : HG_EXIT_OK;
}
