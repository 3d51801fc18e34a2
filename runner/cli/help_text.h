/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The commands of hgrun and their help as data (cli/help_text.c), from which
 * cli/help.c prints --help, cli/manpage.c writes hgrun(1) and cli/complete.c
 * the shell completion. */
#ifndef HG_HELP_TEXT_H
#define HG_HELP_TEXT_H

#include <stddef.h>

enum hg_command { HG_CMD_RUN, HG_CMD_SWEEP, HG_CMD_MERGE, HG_CMD_VALIDATE, HG_CMD_LIST,
		  HG_CMD_CALIBRATE, HG_CMD_SCHEMA, HG_CMD_HOURGLASS, HG_CMD_DOCTOR,
		  HG_CMD_COMPLETION, HG_CMD_HELP, HG_CMD_VERSION };

struct hg_help_option {
	const char *flags;       /* as printed: "-o, --output DIR", "--cut" */
	const char *help;        /* one paragraph, wrapped when printed */
};

struct hg_help {
	enum hg_command command;
	const char *name;        /* "run", "sweep-merge" */
	const char *synopsis;    /* after "hgrun": "[run] SCENARIO [-o DIR] ..." */
	const char *summary;     /* a line of the overview's command list */
	const char *about;       /* what it does: one paragraph */
	const struct hg_help_option *options;  /* ends with { NULL, NULL }; NULL: none */
	const char *const *examples;           /* command lines, NULL-terminated */
};

extern const struct hg_help hg_helps[];
extern const size_t hg_n_helps;

#endif
