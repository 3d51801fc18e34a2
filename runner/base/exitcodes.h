/* The exit codes of every hgrun command (docs/scenario.md, "Errors and exit
 * codes"). */
#ifndef HG_EXITCODES_H
#define HG_EXITCODES_H

enum hg_exit {
	HG_EXIT_OK = 0,
	HG_EXIT_FAILED = 1,       /* run failed, or an expectation failed */
	HG_EXIT_INVALID = 2,      /* invalid scenario */
	HG_EXIT_USAGE = 3,        /* bad command line */
	HG_EXIT_PRIVILEGE = 4,    /* missing privilege or kernel feature (--strict) */
	HG_EXIT_SIGHUP = 129,     /* ended by SIGHUP (a result is still written) */
	HG_EXIT_SIGINT = 130,     /* interrupted by SIGINT (a result is still written) */
	HG_EXIT_SIGQUIT = 131,    /* ended by SIGQUIT (a result is still written) */
	HG_EXIT_SIGTERM = 143,    /* ended by SIGTERM (a result is still written) */
};

#endif
