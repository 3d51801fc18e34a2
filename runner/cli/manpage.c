/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The man pages hgrun(1) (from the help tables of cli/help_text.c) and
 * hgrun-scenario(5) (cli/manpage_scenario.c): `hgrun help --man [scenario]`,
 * which the build runs to install them (CMakeLists.txt, share/man). */
#include <string.h>

#include "cli/help.h"
#include "cli/manpage.h"
#include "cli/manpage_scenario.h"
#include "cli/roff.h"

static void synopsis(FILE *out, const struct hg_help *h)
{
	fputs(".B hgrun\n", out);
	hg_roff_text(out, h->synopsis);
	fputs("\n.br\n", out);
}

static void command(FILE *out, const struct hg_help *h)
{
	fputs(".SS \"", out);
	hg_roff_text(out, h->name);
	fputs("\"\n", out);
	synopsis(out, h);
	fputs(".PP\n", out);
	hg_roff_text(out, h->about);
	fputc('\n', out);
	for (const struct hg_help_option *o = h->options; o && o->flags; o++)
		hg_roff_item(out, o->flags, o->help);
	fputs(".PP\nExamples:\n.RS\n.nf\n", out);
	for (const char *const *e = h->examples; *e; e++) {
		hg_roff_text(out, *e);
		fputc('\n', out);
	}
	fputs(".fi\n.RE\n", out);
}

static void hgrun_page(FILE *out)
{
	hg_roff_head(out, "hgrun", 1, "run real-time experiments described in YAML (a modern "
		     "Hourglass)");
	fputs(".SH SYNOPSIS\n", out);
	for (size_t i = 0; i < hg_n_helps; i++)
		synopsis(out, &hg_helps[i]);
	fputs(".B hgrun\nCOMMAND \\-\\-help | help [COMMAND] | \\-\\-help | \\-\\-version\n", out);
	fputs(".SH DESCRIPTION\n", out);
	hg_roff_text(out, hg_help_description);
	fputs("\n.PP\nOptions may come before or after the files; long options may be shortened "
	      "to any unambiguous prefix. hgreport(1) analyses the result directories; the "
	      "scenario format is hgrun\\-scenario(5).\n.SH COMMANDS\n", out);
	for (size_t i = 0; i < hg_n_helps; i++)
		command(out, &hg_helps[i]);
	fputs(".SH EXIT STATUS\n", out);
	hg_roff_text(out, hg_help_exit_codes);
	fputs("\n.SH FILES\n.TP\n.I PREFIX/share/hgrun/schemas/\nthe JSON Schemas of scenarios, "
	      "result.json and doctor \\-\\-json (hgrun schema)\n.TP\n"
	      ".I PREFIX/share/hgrun/experiments/\nthe shipped scenarios\n.TP\n"
	      ".I PREFIX/share/doc/hgrun/\nthe documentation: cli.md, scenario.md, results.md, "
	      "doctor.md, peers.md\n", out);
	fputs(".SH SEE ALSO\nhgreport(1), hgrun\\-scenario(5), cyclictest(8), stress\\-ng(1)\n",
	      out);
}

int hg_manpage_command(FILE *out, FILE *err, const char *which)
{
	if (!which || !strcmp(which, "hgrun")) {
		hgrun_page(out);
		return 0;
	}
	if (!strcmp(which, "scenario")) {
		hg_manpage_scenario(out);
		return 0;
	}
	fprintf(err, "hgrun: help --man: no page '%s': the pages are hgrun and scenario\n", which);
	return 3;
}
