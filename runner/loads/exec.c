/* Load 'exec': runs a shell command line (stress-ng, iperf3, ...), killed
 * at stop.  hgrun forks a small keeper that forks /bin/sh -c command and
 * keeps it:
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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/procstat.h"
#include "base/timeutil.h"
#include "base/units.h"
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
	{ .name = "output_max", .kind = HG_PARAM_SIZE,
	  .offset = offsetof(struct params, output_max), .def = "64MiB",
	  .help = "bytes of its stdout and of its stderr kept in load-NAME.out and .err; "
		  "the rest is read and discarded" },
	HG_PARAMS_END
};

static const char *const stream_ext[2] = { "out", "err" };
static const char *const stream_name[2] = { "stdout", "stderr" };

struct outputs {
	int fd[2];              /* load-NAME.out, .err */
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
	o->fd[0] = o->fd[1] = -1;
	l->priv = o;
	for (int i = 0; i < 2; i++) {
		o->fd[i] = open_output(l->result_dir, l->plan->name, stream_ext[i], err, errlen);
		if (o->fd[i] < 0)
			return o->fd[i];
	}
	return 0;
}

/* The shell: a plain signal state, /dev/null in, the two pipes out. */
static void shell(const int wr[2], const char *cmd, pid_t keeper)
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
	dup2(wr[0], 1);
	dup2(wr[1], 2);
	close_range(3, ~0U, 0);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	static const char msg[] = "hgrun: cannot exec /bin/sh\n";
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(127);
}

/* ---- the output: pipe -> file, up to output_max ------------------------- */

struct pump {
	int in;                 /* the pipe's read end, -1 at EOF */
	int out;                /* the file */
	uint64_t room;          /* bytes the file may still take */
	int null;               /* /dev/null, for what is discarded */
};

/* Moves what the pipe holds (64 KiB at most) to the file, or to /dev/null
 * once the file has output_max bytes: 1 when it moved some, 0 when the pipe
 * is empty for now, -1 at its end. */
static int pump_once(struct pump *p, int i, struct hg_load_slot *slot, const char *name)
{
	char buf[65536];
	size_t want = sizeof(buf);
	bool keep = p->room > 0;
	if (keep && want > p->room)
		want = (size_t)p->room;
	int to = keep ? p->out : p->null;
	ssize_t n = to >= 0 ? splice(p->in, NULL, to, NULL, want, SPLICE_F_NONBLOCK) : -1;
	if (n < 0 && errno != EAGAIN && errno != EINTR) {     /* no splice here: copy */
		n = read(p->in, buf, want);
		if (n > 0 && keep && write(p->out, buf, (size_t)n) != n) {
			hg_load_fail(slot, "write load-%s.%s: %s", name, stream_ext[i],
				     strerror(errno ? errno : EIO));
			p->room = 0;
		}
	}
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n == 0)
		return -1;
	if (keep && p->room) {
		p->room -= (uint64_t)n;
		slot->out_kept[i] += (uint64_t)n;
	} else {
		if (!slot->out_discarded[i])
			slot->out_cut_at[i] = hg_now_ns();
		slot->out_discarded[i] += (uint64_t)n;
	}
	return 1;
}

/* ---- the command's descendants ------------------------------------------ */

/* The processes kill_descendants has killed, to count each once (one that
 * is dying is still listed by the next pass). */
struct killed {
	pid_t pid[1024];
	unsigned n, total;
};

static void note_killed(struct killed *k, pid_t pid)
{
	for (unsigned i = 0; i < k->n; i++)
		if (k->pid[i] == pid)
			return;
	if (k->n < sizeof(k->pid) / sizeof(k->pid[0]))
		k->pid[k->n++] = pid;
	k->total++;
}

/* One pass over /proc: SIGKILLs every process that is a child of ours, or
 * (all) a member of our process group but not us; how many it found. */
static unsigned kill_pass(bool all, struct killed *k)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	pid_t self = getpid(), group = getpgrp();
	unsigned n = 0;
	struct dirent *e;
	char buf[512];
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		const char *f = hg_proc_stat_fields(e->d_name, buf, sizeof(buf));
		char state;
		int ppid, pgrp;
		pid_t pid = (pid_t)atoi(e->d_name);
		if (!f || sscanf(f, "%c %d %d", &state, &ppid, &pgrp) != 3 || pid == self ||
		    state == 'Z')
			continue;
		/* a child outside the group left it; (all) anything of the group */
		if ((ppid == self && (all || pgrp != group)) || (all && pgrp == group)) {
			kill(pid, SIGKILL);
			note_killed(k, pid);
			n++;
		}
	}
	closedir(d);
	return n;
}

/* Kills until nothing is left: killing a process hands its children to us
 * (the subreaper), the next pass finds them.  Reaps; returns how many
 * processes were killed. */
static unsigned kill_descendants(bool all, pid_t sh, int *sh_status, bool *sh_done)
{
	static struct killed k;      /* 4 KB: not on the keeper's stack */
	k.n = k.total = 0;
	int64_t give_up = hg_now_ns() + 5 * HG_NS_PER_SEC;
	for (;;) {
		unsigned n = kill_pass(all, &k);
		int st;
		pid_t pid;
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
			if (pid == sh && !*sh_done) {
				*sh_status = st;
				*sh_done = true;
			}
		/* none found alive (dying ones are listed until they are zombies,
		 * by when their children are ours) */
		if (n == 0 || hg_now_ns() > give_up)
			break;
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	return k.total;
}

/* ---- the keeper --------------------------------------------------------- */

/* by_itself: the command ended before the load's stop (status_valid 2). */
static void record(struct hg_load_slot *slot, int st, bool by_itself)
{
	slot->status = st;
	slot->status_valid = by_itself ? 2 : 1;
}

static int exec_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	const struct params *par = l->plan->params;
	const struct outputs *o = l->priv;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	prctl(PR_SET_PDEATHSIG, SIGHUP);        /* hgrun gone: clean up everything */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	int sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	int pin[2] = { -1, -1 }, wr[2] = { -1, -1 };
	for (int i = 0; i < 2; i++) {
		int p[2];
		if (pipe2(p, O_CLOEXEC) < 0)
			return hg_load_fail(slot, "pipe: %s", strerror(errno));
		pin[i] = p[0];
		wr[i] = p[1];
		fcntl(pin[i], F_SETFL, O_NONBLOCK);
	}
	if (sfd < 0)
		return hg_load_fail(slot, "signalfd: %s", strerror(errno));
	pid_t sh = fork();
	if (sh < 0)
		return hg_load_fail(slot, "fork: %s", strerror(errno));
	if (sh == 0)
		shell(wr, par->command, getppid());
	close(wr[0]);
	close(wr[1]);
	struct pump pumps[2];
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	for (int i = 0; i < 2; i++)
		pumps[i] = (struct pump){ .in = pin[i], .out = o->fd[i], .room = par->output_max,
					  .null = null };
	int st = 0;
	bool done = false, stopping = false;
	while (!stopping || !done) {
		struct pollfd fds[3] = { { .fd = sfd, .events = POLLIN },
					 { .fd = pumps[0].in, .events = POLLIN },
					 { .fd = pumps[1].in, .events = POLLIN } };
		if (poll(fds, 3, -1) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++)
			if (fds[1 + i].revents && pump_once(&pumps[i], i, slot, l->plan->name) < 0) {
				close(pumps[i].in);
				pumps[i].in = -1;
			}
		struct signalfd_siginfo si;
		while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			if (si.ssi_signo == SIGHUP) {
				kill_descendants(true, sh, &st, &done);
				_exit(128 + SIGKILL);
			}
			if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT)
				stopping = true;
		}
		/* SIGCHLD: the shell, or an orphan handed to us that ended */
		int cst;
		pid_t pid;
		while ((pid = waitpid(-1, &cst, WNOHANG)) > 0)
			if (pid == sh && !done) {
				st = cst;
				done = true;
				if (!stopping)  /* ended by itself: its children may live on */
					record(slot, st, true);
			}
	}
	if (slot->status_valid != 2)
		record(slot, st, false);
	/* What the pipes still hold, then the descendants that left the group
	 * (the group's own members have SIGTERM from hgrun, SIGKILL after its
	 * grace period). */
	for (int i = 0; i < 2; i++)
		while (pumps[i].in >= 0 && pump_once(&pumps[i], i, slot, l->plan->name) > 0)
			;
	slot->escaped_killed = kill_descendants(false, sh, &st, &done);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
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
	if (load) {
		json_t *out = json_pack("{s:I}", "max_bytes", (json_int_t)par->output_max);
		for (int i = 0; i < 2; i++)
			json_object_set_new(out, stream_name[i], json_pack("{s:s+++, s:I, s:I, s:o}",
				"file", "load-", l->plan->name, ".", stream_ext[i],
				"bytes", (json_int_t)slot->out_kept[i],
				"discarded_bytes", (json_int_t)slot->out_discarded[i],
				"cut_at_ns", slot->out_cut_at[i] ? json_integer(slot->out_cut_at[i] - t0)
							       : json_null()));
		json_object_set_new(load, "output", out);
	}
	char a[32], b[32];
	for (int i = 0; i < 2; i++)
		if (slot->out_discarded[i])
			json_array_append_new(warnings, json_sprintf(
				"its %s reached output_max (%s) at %.3f s: %s more were read and "
				"discarded (load-%s.%s holds the first %s)", stream_name[i],
				hg_format_size_approx(par->output_max, a),
				(double)(slot->out_cut_at[i] - t0) / 1e9,
				hg_format_size_approx(slot->out_discarded[i], b), l->plan->name,
				stream_ext[i], a));
	if (slot->escaped_killed)
		json_array_append_new(warnings, json_sprintf(
			"%u process%s started by the command had left its process group (setsid?) "
			"and %s killed when it stopped", slot->escaped_killed,
			slot->escaped_killed == 1 ? "" : "es", slot->escaped_killed == 1 ? "was" : "were"));
}

/* result.json `files`: the two output files, by plain name. */
static void exec_files(const struct hg_load_plan *p, json_t *files)
{
	char key[64], name[64];
	for (int i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), "load.%s.%s", p->name, stream_ext[i]);
		snprintf(name, sizeof(name), "load-%s.%s", p->name, stream_ext[i]);
		json_object_set_new(files, key, json_string(name));
	}
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
