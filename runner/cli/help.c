/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing the help tables of cli/help_text.c: the overview and each
 * command's usage, options and examples (docs/cli.md). */
#include <stdbool.h>
#include <string.h>

#include "cli/help.h"

#define WIDTH 80
#define FLAGS 20         /* the options' column */

const char hg_help_description[] =
	"Runs real-time experiments described in YAML scenario files (a modern Hourglass): "
	"threads that poll the cycle counter and record every gap in their execution, "
	"deadline hits and misses by CPU time received, timer wake-up latency; results as "
	"JSON in one directory per run.";

const char hg_help_exit_codes[] =
	"0 ok, 5 an expectation failed (every run complete and valid; doctor: a check is bad), "
	"1 a run failed or is incomplete, 2 invalid scenario, 3 bad command line, 4 privilege "
	"or kernel feature missing (--strict) or a program a load runs missing (before "
	"measuring), 130/143/129/131 stopped by SIGINT/SIGTERM/SIGHUP/SIGQUIT (a result is "
	"still written; SIGUSR1 prints a status line)";

/* The length of the word at `p`: up to the next space, or with `groups`
 * the next space outside brackets (a synopsis's "[-o DIR]" is one word). */
static int word_length(const char *p, bool groups)
{
	int depth = 0, len = 0;
	while (p[len] && (depth > 0 || p[len] != ' ')) {
		if (groups)
			depth += p[len] == '[' ? 1 : p[len] == ']' ? -1 : 0;
		len++;
	}
	return len;
}

static void wrap(FILE *out, const char *text, int col, int indent, int width, bool groups)
{
	const int start = col;
	for (const char *p = text + strspn(text, " "); *p; p += strspn(p, " ")) {
		int word = word_length(p, groups);
		if (col > start && col + 1 + word > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > start) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", word, p);
		col += word;
		p += word;
	}
	fputc('\n', out);
}

void hg_help_wrap(FILE *out, const char *text, int col, int indent, int width)
{
	wrap(out, text, col, indent, width, false);
}

static const struct hg_help *find(enum hg_command command)
{
	for (size_t i = 0; i < hg_n_helps; i++)
		if (hg_helps[i].command == command)
			return &hg_helps[i];
	return NULL;
}

/* "usage: hgrun NAME SYNOPSIS", wrapped between the bracketed groups (never
 * inside one), the lines after the first under its first argument. */
static void usage_line(FILE *out, const char *lead, const struct hg_help *h)
{
	int col = fprintf(out, "%shgrun ", lead);
	wrap(out, h->synopsis, col, col + (int)strcspn(h->synopsis, " ") + 1, WIDTH, true);
}

static void overview(FILE *out)
{
	for (size_t i = 0; i < hg_n_helps; i++)
		usage_line(out, i ? "       " : "usage: ", &hg_helps[i]);
	fputs("       hgrun COMMAND --help | hgrun help [COMMAND] | hgrun --help | hgrun --version\n\n",
	      out);
	hg_help_wrap(out, hg_help_description, 0, 0, WIDTH);
	fputs("\ncommands (hgrun COMMAND --help for each one's options and examples):\n", out);
	for (size_t i = 0; i < hg_n_helps; i++) {
		fprintf(out, "  %-16s", hg_helps[i].name);
		hg_help_wrap(out, hg_helps[i].summary, 18, 18, WIDTH);
	}
	fputs("\nexamples:\n"
	      "  hgrun doctor experiments/03_dispatch_latency.yaml\n"
	      "  hgrun experiments/03_dispatch_latency.yaml --duration 2s -o /tmp/lat\n"
	      "  hgreport /tmp/lat\n\n", out);
	fputs("exit codes: ", out);
	hg_help_wrap(out, hg_help_exit_codes, 12, 12, WIDTH);
	fputs("docs: docs/cli.md (command line), docs/scenario.md (scenario reference), README.md;\n"
	      "      man hgrun, man hgrun-scenario, man hgreport\n", out);
}

void hg_cli_usage(FILE *out, enum hg_command command)
{
	const struct hg_help *h = find(command);
	if (!h) {
		overview(out);
		return;
	}
	usage_line(out, "usage: ", h);
	fputc('\n', out);
	hg_help_wrap(out, h->about, 0, 0, WIDTH);
	if (h->options) {
		fputs("\noptions:\n", out);
		for (const struct hg_help_option *o = h->options; o->flags; o++) {
			int n = fprintf(out, "  %s", o->flags);
			if (n >= FLAGS + 1) {
				fprintf(out, "\n%*s", FLAGS + 2, "");
				n = FLAGS + 2;
			} else {
				fprintf(out, "%*s", FLAGS + 2 - n, "");
				n = FLAGS + 2;
			}
			hg_help_wrap(out, o->help, n, FLAGS + 2, WIDTH);
		}
	}
	fputs("\nexamples:\n", out);
	for (const char *const *e = h->examples; *e; e++)
		fprintf(out, "  %s\n", *e);
	fputs("\nexit codes: ", out);
	hg_help_wrap(out, hg_help_exit_codes, 12, 12, WIDTH);
	fputs("docs: docs/cli.md; man hgrun\n", out);
}
