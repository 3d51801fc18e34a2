/* Load 'fork': a fork/exit storm (the fork stress of the Abeni study: page
 * tables copied in non-preemptible sections, a busier scheduler). */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "loads/rows.h"
#include "plan/load.h"

struct params {
	uint64_t workers;
};

static const struct hg_param params[] = {
	HG_LOAD_ROW_WORKERS(struct params, workers),
	HG_PARAMS_END
};

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
	.params = { params, sizeof(struct params) },
	.counters = { "forks" },
	.run = fork_run,
};
