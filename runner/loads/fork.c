/* Load 'fork': a fork/exit storm (the fork stress of the Abeni study: page
 * tables copied in non-preemptible sections, a busier scheduler). */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plan/load.h"

static int fork_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	for (;;) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0 && errno != EAGAIN)
			return hg_load_fail(slot, "fork: %s", strerror(errno));
		if (pid < 0) {          /* process limit: back off a little */
			struct timespec ts = { 0, 1000000 };
			nanosleep(&ts, NULL);
			continue;
		}
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		hg_load_add(slot, 0, 1);
	}
	return 0;
}

const struct hg_load_ops hg_load_fork = {
	.name = "fork",
	.summary = "a fork/exit storm",
	.takes = HG_LP_WORKERS,
	.needs = 0,
	.counters = { "forks" },
	.run = fork_run,
};
