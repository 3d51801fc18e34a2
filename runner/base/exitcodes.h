/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The exit codes of every hgrun command (docs/cli.md, "Exit codes").  A
 * finding (5: the runs are whole, an expectation failed) is kept apart from
 * a failure (1: a run broke or is incomplete), so CI can tell a regression
 * from a broken rig without reading result.json. */
#ifndef HG_EXITCODES_H
#define HG_EXITCODES_H

enum hg_exit {
	HG_EXIT_OK = 0,
	HG_EXIT_FAILED = 1,       /* a run failed or is incomplete */
	HG_EXIT_INVALID = 2,      /* invalid scenario */
	HG_EXIT_USAGE = 3,        /* bad command line */
	HG_EXIT_PRIVILEGE = 4,    /* missing privilege or kernel feature (--strict), or a
				     program a load runs (docs/loads.md) */
	HG_EXIT_EXPECT = 5,       /* every run complete and valid, an expectation failed */
	HG_EXIT_SIGHUP = 129,     /* ended by SIGHUP (a result is still written) */
	HG_EXIT_SIGINT = 130,     /* interrupted by SIGINT (a result is still written) */
	HG_EXIT_SIGQUIT = 131,    /* ended by SIGQUIT (a result is still written) */
	HG_EXIT_SIGTERM = 143,    /* ended by SIGTERM (a result is still written) */
};

/* An exit status as a word, for scripts: "ok", "expectation_failed", ... */
static inline const char *hg_exit_word(int st)
{
	switch (st) {
	case HG_EXIT_OK: return "ok";
	case HG_EXIT_EXPECT: return "expectation_failed";
	case HG_EXIT_INVALID: return "invalid";
	case HG_EXIT_USAGE: return "usage";
	case HG_EXIT_PRIVILEGE: return "not_granted";
	default: return st > 128 ? "interrupted" : "failed";
	}
}

#endif
