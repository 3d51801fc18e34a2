/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end of stdout (cli/stdout_end.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "base/exitcodes.h"
#include "cli/stdout_end.h"

/* A pipe or socket with nobody left to read it: the kernel reports
 * POLLERR on its write end. */
static bool reader_gone(void)
{
	struct pollfd p = { .fd = 1, .events = 0 };
	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int hg_stdout_end(int rc, bool kept)
{
	errno = 0;
	int flushed = fflush(stdout), e = errno;
	if (flushed == 0 && !ferror(stdout))
		return rc;
	if (e == EPIPE || reader_gone())
		return rc;
	fprintf(stderr, "hgrun: the %s is lost: %s%s\n", kept ? "summary" : "output",
		e ? "writing to stdout: " : "a write to stdout failed", e ? strerror(e) : "");
	return kept || rc ? rc : HG_EXIT_FAILED;
}
