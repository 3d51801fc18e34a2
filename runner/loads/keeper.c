/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The keeper of a load that runs a program (exec, stress_ng): it forks
 * the program and keeps it (loads/keeper.h). */
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
#include "loads/keeper.h"

static const char *const stream_ext[2] = { "out", "err" };
static const char *const stream_name[2] = { "stdout", "stderr" };

int hg_keeper_open_outputs(int dir, const char *shown, const char *name, int fd[2], char *err,
			   size_t errlen)
{
	char file[NAME_MAX + 1];
	for (int i = 0; i < 2; i++) {
		snprintf(file, sizeof(file), "load-%.200s.%s", name, stream_ext[i]);
		fd[i] = hg_open_new_at(dir, file, O_WRONLY, 0644);
		if (fd[i] < 0) {
			int e = -fd[i];
			snprintf(err, errlen, "cannot create %s/%s: %s", shown, file, strerror(e));
			return -e;
		}
	}
	return 0;
}

/* The program's process: a plain signal state, /dev/null in, the two
 * pipes out, the extra fd as 3, nothing else open. */
static void program(const struct hg_keeper *k, const int wr[2], pid_t keeper)
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
	/* fd 4 first: dup2 onto 3 must not close the directory if it is 3. */
	int dir = k->dir_fd >= 0 && k->extra_fd >= 0 ? fcntl(k->dir_fd, F_DUPFD, 5) : -1;
	if (k->extra_fd >= 0)
		dup2(k->extra_fd, 3);
	if (dir >= 0)
		dup2(dir, 4);        /* without FD_CLOEXEC: the program's /proc/self/fd/4 */
	close_range(dir >= 0 ? 5 : k->extra_fd >= 0 ? 4 : 3, ~0U, 0);
	k->exec(k->arg);
	char msg[128];
	int len = snprintf(msg, sizeof(msg), "hgrun: cannot exec %s: %s\n", k->what, strerror(errno));
	(void)!write(2, msg, (size_t)len);
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

int hg_keeper_run(const struct hg_keeper *k, const char *name, struct hg_load_slot *slot)
{
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
		program(k, wr, getppid());
	close(wr[0]);
	close(wr[1]);
	struct pump pumps[2];
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	for (int i = 0; i < 2; i++)
		pumps[i] = (struct pump){ .in = pin[i], .out = k->out[i], .room = k->output_max,
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
			if (fds[1 + i].revents && pump_once(&pumps[i], i, slot, name) < 0) {
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
		while (pumps[i].in >= 0 && pump_once(&pumps[i], i, slot, name) > 0)
			;
	slot->escaped_killed = kill_descendants(false, sh, &st, &done);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void hg_keeper_report(uint64_t output_max, const char *name, const struct hg_load_slot *slot,
		      int64_t t0, json_t *load, json_t *warnings)
{
	if (load) {
		json_t *out = json_pack("{s:I}", "max_bytes", (json_int_t)output_max);
		for (int i = 0; i < 2; i++)
			json_object_set_new(out, stream_name[i], json_pack("{s:s+++, s:I, s:I, s:o}",
				"file", "load-", name, ".", stream_ext[i],
				"bytes", (json_int_t)slot->out_kept[i],
				"discarded_bytes", (json_int_t)slot->out_discarded[i],
				"cut_at_ns", slot->out_cut_at[i] ? json_integer(slot->out_cut_at[i] - t0)
							       : json_null()));
		json_object_set_new(load, "output", out);
	}
	char a[32], b[32];
	for (int i = 0; i < 2; i++) {
		if (!slot->out_discarded[i])
			continue;
		double at = (double)(slot->out_cut_at[i] - t0) / 1e9;
		if (slot->out_kept[i] < output_max)   /* a write failed (warned apart) */
			json_array_append_new(warnings, json_sprintf(
				"its %s could not be written from %.3f s on: %s more were read and "
				"discarded (load-%s.%s holds the first %s)", stream_name[i], at,
				hg_format_size_approx(slot->out_discarded[i], b), name,
				stream_ext[i], hg_format_size_approx(slot->out_kept[i], a)));
		else
			json_array_append_new(warnings, json_sprintf(
				"its %s reached output_max (%s) at %.3f s: %s more were read and "
				"discarded (load-%s.%s holds the first %s)", stream_name[i],
				hg_format_size_approx(output_max, a), at,
				hg_format_size_approx(slot->out_discarded[i], b), name,
				stream_ext[i], a));
	}
	if (slot->escaped_killed)
		json_array_append_new(warnings, json_sprintf(
			"%u process%s started by the command had left its process group (setsid?) "
			"and %s killed when it stopped", slot->escaped_killed,
			slot->escaped_killed == 1 ? "" : "es", slot->escaped_killed == 1 ? "was" : "were"));
}

void hg_keeper_files(const char *name, json_t *files)
{
	char key[64], file[64];
	for (int i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), "load.%s.%s", name, stream_ext[i]);
		snprintf(file, sizeof(file), "load-%s.%s", name, stream_ext[i]);
		json_object_set_new(files, key, json_string(file));
	}
}

