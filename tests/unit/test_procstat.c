/* SPDX-License-Identifier: GPL-2.0-or-later */
/* base/procstat.c: /proc/<pid>/stat read past a command name that holds
 * spaces and parentheses. */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "base/procstat.h"
#include "unit.h"

int main(void)
{
	char buf[512], self[16];
	char state;
	int ppid;
	/* A name built to fool a parser that stops at the first ')'. */
	prctl(PR_SET_NAME, "a) b (c) d", 0, 0, 0);
	snprintf(self, sizeof(self), "%d", (int)getpid());
	const char *f = hg_proc_stat_fields(self, buf, sizeof(buf));
	CHECK(f != NULL, "no fields for our own pid");
	CHECK(f && sscanf(f, "%c %d", &state, &ppid) == 2 && state == 'R' && ppid == (int)getppid(),
	      "state/ppid: got '%.20s'", f ? f : "(null)");
	CHECK(hg_proc_stat_fields("999999999", buf, sizeof(buf)) == NULL, "a pid that is gone");
	CHECK(hg_proc_stat_fields(self, buf, 1) == NULL, "no room");
	return unit_report("test_procstat");
}
