/* Load 'exec': runs a shell command line (stress-ng, iperf3, ...), stdout
 * and stderr captured into <result_dir>/load-<name>.out and .err, killed at
 * stop.  hgrun forks a small keeper that forks /bin/sh -c command and waits:
 * on SIGTERM (sent to the whole process group at stop) it waits for the
 * shell and records its status; if hgrun dies (parent-death signal SIGHUP)
 * it SIGKILLs its whole process group, so the command's own children do not
 * outlive hgrun either. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>


#include "base/fsutil.h"
#include "plan/load.h"
#include "plan/plan.h"

struct params {
	char *command;
};

static const struct hg_param params[] = {
	{ .name = "command", .kind = HG_PARAM_STRING, .offset = offsetof(struct params, command),
	  .min = 1, .required = true,
	  .help = "a shell command line, run with /bin/sh -c, output captured, killed at stop" },
	HG_PARAMS_END
};

struct outputs {
	int out, err;
};

static int open_output(const char *dir, const char *name, const char *ext, char *err,
		       size_t errlen)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/load-%s.%s", dir, name, ext);
	int fd = hg_open_new(path, O_WRONLY, 0644);
	if (fd < 0) {
		int e = -fd;
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(e));
		return -e;
	}
	return fd;
}

static int exec_prepare(struct hg_load_run *l, char *err, size_t errlen)
{
	struct outputs *o = malloc(sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->out = o->err = -1;
	l->priv = o;
	o->out = open_output(l->result_dir, l->plan->name, "out", err, errlen);
	if (o->out < 0)
		return o->out;
	o->err = open_output(l->result_dir, l->plan->name, "err", err, errlen);
	return o->err < 0 ? o->err : 0;
}

/* The shell: a plain signal state, /dev/null in, the two files out. */
static void shell(const struct outputs *o, const char *cmd, pid_t keeper)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != keeper)
		_exit(127);
	int in = open("/dev/null", O_RDONLY);
	if (in >= 0)
		dup2(in, 0);
	dup2(o->out, 1);
	dup2(o->err, 2);
	close_range(3, ~0U, 0);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	static const char msg[] = "hgrun: cannot exec /bin/sh\n";
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(127);
}

/* by_itself: the command ended before the load's stop (status_valid 2). */
static void record(struct hg_load_slot *slot, int st, bool by_itself)
{
	slot->status = st;
	slot->status_valid = by_itself ? 2 : 1;
}

static int exec_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	prctl(PR_SET_PDEATHSIG, SIGHUP);        /* hgrun gone: clean up the group */
	pid_t sh = fork();
	if (sh < 0)
		return hg_load_fail(slot, "fork: %s", strerror(errno));
	if (sh == 0)
		shell(l->priv, ((const struct params *)l->plan->params)->command, getppid());
	int st = 0, sig;
	bool done = false;
	while ((sig = sigwaitinfo(&set, NULL)) != SIGTERM && sig != SIGINT) {
		if (sig == SIGHUP)
			kill(0, SIGKILL);
		if (sig == SIGCHLD && !done && waitpid(sh, &st, WNOHANG) == sh) {
			done = true;    /* ended by itself: its children may live on */
			record(slot, st, true);
		}
	}
	while (!done && waitpid(sh, &st, 0) < 0 && errno == EINTR)
		;
	if (!done)
		record(slot, st, false);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void exec_cleanup(struct hg_load_run *l)
{
	struct outputs *o = l->priv;
	if (o && o->out >= 0)
		close(o->out);
	if (o && o->err >= 0)
		close(o->err);
	free(o);
	l->priv = NULL;
}

static bool exec_supported(char *why, size_t size)
{
	if (access("/bin/sh", X_OK) == 0)
		return true;
	snprintf(why, size, "/bin/sh: %s", strerror(errno));
	return false;
}

static bool exec_trust_note(const struct hg_load_plan *lp, const char *user, char *buf,
			    size_t size)
{
	const struct params *p = lp->params;
	snprintf(buf, size, "runs a shell command as %s: '%s'", user, p->command);
	return true;
}

const struct hg_load_ops hg_load_exec = {
	.name = "exec",
	.summary = "runs a shell command line, output captured, killed at stop",
	.params = { params, sizeof(struct params) },
	.supported = exec_supported,
	.trust_note = exec_trust_note,
	.counters = { NULL },
	.prepare = exec_prepare,
	.run = exec_run,
	.cleanup = exec_cleanup,
};
