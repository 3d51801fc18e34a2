/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end of stdout: a write that failed is not silently an exit 0
 * (docs/cli.md, "Exit codes"). */
#ifndef HG_STDOUT_END_H
#define HG_STDOUT_END_H

#include <stdbool.h>

/* Flushes stdout and says on stderr when something written to it was lost.
 * A pipe whose reader went away (`hgrun list | head`) is quiet: SIGPIPE is
 * ignored and the reader wanted no more.  Any other failure (a full disk,
 * an I/O error) is named; the exit status becomes 1 when it was 0, unless
 * `kept` (a run or sweep, whose status is its result's: the summary is lost,
 * not the run).  Returns the exit status. */
int hg_stdout_end(int rc, bool kept);

#endif
