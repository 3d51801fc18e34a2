/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load 'exec': runs a shell command line (iperf3, a real application, ...),
 * killed at stop.  hgrun forks a small keeper (loads/keeper.c) that forks
 * /bin/sh -c command and keeps it:
 *  - its stdout and stderr come through pipes into <result_dir>/load-<name>.out
 *    and .err, at most `output_max` bytes each; the rest is read and
 *    discarded (counted, the command runs on);
 *  - it is a child subreaper, so whatever the command starts stays below it
 *    even after leaving the process group (setsid, a daemon);
 *  - on SIGTERM (sent to the whole process group at stop) it waits for the
 *    shell, records its status, and kills the descendants that had left the
 *    group;
 *  - if hgrun dies (parent-death signal SIGHUP), it SIGKILLs its group and
 *    every descendant, so the command's processes do not outlive hgrun. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loads/keeper.h"
#include "loads/rows.h"
#include "plan/load.h"
#include "plan/plan.h"

struct params {
	char *command;
	uint64_t output_max;
};

static const struct hg_param params[] = {
	{ .name = "command", .kind = HG_PARAM_STRING, .offset = offsetof(struct params, command),
	  .min = 1, .required = true,
	  .help = "a shell command line, run with /bin/sh -c, output captured, killed at stop" },
	HG_LOAD_ROW_OUTPUT_MAX(struct params, output_max),
	HG_PARAMS_END
};

struct outputs {
	int fd[2];              /* load-NAME.out, .err */
};

static int exec_prepare(struct hg_load_run *l, char *err, size_t errlen)
{
	struct outputs *o = malloc(sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->fd[0] = o->fd[1] = -1;
	l->priv = o;
	return hg_keeper_open_outputs(l->result_dir_fd, l->result_dir, l->plan->name, o->fd, err,
				      errlen);
}

/* The shell (in the program's process, loads/keeper.c). */
static void shell(const void *cmd)
{
	execl("/bin/sh", "sh", "-c", (const char *)cmd, (char *)NULL);
}

static int exec_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	const struct params *par = l->plan->params;
	const struct outputs *o = l->priv;
	struct hg_keeper k = { .out = { o->fd[0], o->fd[1] }, .output_max = par->output_max,
			       .extra_fd = -1, .dir_fd = -1, .exec = shell, .arg = par->command, .what = "/bin/sh" };
	return hg_keeper_run(&k, l->plan->name, slot);
}

static void exec_cleanup(struct hg_load_run *l)
{
	struct outputs *o = l->priv;
	for (int i = 0; o && i < 2; i++)
		if (o->fd[i] >= 0)
			close(o->fd[i]);
	free(o);
	l->priv = NULL;
}

/* result.json: `output` of the load, and a warning when output was cut or
 * descendants that had left the group were killed. */
static void exec_report(const struct hg_load_run *l, const struct hg_load_slot *slot,
			int64_t t0, json_t *load, json_t *warnings)
{
	const struct params *par = l->plan->params;
	hg_keeper_report(par->output_max, l->plan->name, slot, t0, load, warnings);
}

/* result.json `files`: the two output files, by plain name. */
static void exec_files(const struct hg_load_plan *p, json_t *files)
{
	hg_keeper_files(p->name, files);
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
	.report = exec_report,
	.files = exec_files,
};
