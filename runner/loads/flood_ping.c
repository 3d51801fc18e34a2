/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load 'flood_ping': ICMP echo floods (`ping -f`, iputils), the network
 * load of Dougan's jitter test (docs/loads.md).
 *
 * Without `peer`: both directions over a veth pair between two network
 * namespaces that exist only as long as the load's processes do.  The load
 * process forks two sides; each sets PR_SET_PDEATHSIG(SIGKILL) toward the
 * load process (which has it toward hgrun), unshares an unnamed network
 * namespace and waits; the load process then creates the veth pair with
 * each end placed directly in one side's namespace (`ip link add ... netns
 * PID`), so nothing ever appears in hgrun's namespace or in /run/netns.
 * Each side addresses and raises its end and execs `ping -f` toward the
 * other.  A namespace goes when its last process does, its veth end with
 * it (and the pair with either end): when the load stops, when it fails,
 * and when hgrun is SIGKILLed (hgrun -> load process -> sides, each by its
 * parent-death signal), there is nothing left to remove.
 *
 * With `peer`: one `ping -f` toward that address from hgrun's namespace.
 *
 * Counting: in flood mode ping writes '.' for each echo request and
 * "\b \b" for each reply (the space is counted); the load process reads both pings' stdout and
 * counts them (the header line before, nothing after: ping dies of the
 * stop's SIGTERM without a summary). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "plan/load.h"
#include "plan/plan.h"

enum { C_REQUESTS, C_REPLIES };

static const char *const side_addr[2] = { "10.254.0.1", "10.254.0.2" };

struct params {
	char *peer;
};

static const struct hg_param params[] = {
	{ .name = "peer", .kind = HG_PARAM_STRING, .offset = offsetof(struct params, peer),
	  .min = 1, .help = "flood this address (a host you may flood) instead of a veth pair "
	  "between two network namespaces the load creates" },
	HG_PARAMS_END
};

/* ---- helpers in the load's processes ------------------------------------ */

/* A process that dies with its parent (parent: its pid before the fork);
 * false if the parent is already gone. */
static bool bind_to_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	return getppid() == parent;
}

/* Runs argv (no shell), its stderr kept in msg; 0, or -1 with msg saying why. */
static int run_cmd(char *const argv[], char *msg, size_t msglen)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		snprintf(msg, msglen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t self = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(msg, msglen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (!bind_to_parent(self))
			_exit(127);
		dup2(p[1], 1);
		dup2(p[1], 2);
		execvp(argv[0], argv);
		dprintf(2, "cannot exec %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	char out[256];
	size_t n = 0;
	ssize_t r;
	while ((r = read(p[0], out + n, sizeof(out) - 1 - n)) > 0 && n + (size_t)r < sizeof(out) - 1)
		n += (size_t)r;
	if (r > 0)
		n += (size_t)r;
	out[n] = '\0';
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	close(p[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	snprintf(msg, msglen, "'%s %s %s ...' failed: %.120s", argv[0], argv[1], argv[2],
		 n ? out : "no message");
	return -1;
}

/* Execs ping -f toward dst, stdout to out, stderr to err. */
static void exec_ping(const char *dst, int out, int err)
{
	int in = open("/dev/null", O_RDONLY);
	if (in >= 0)
		dup2(in, 0);
	dup2(out, 1);
	dup2(err, 2);
	close_range(3, ~0U, 0);
	execlp("ping", "ping", "-f", "--", dst, (char *)NULL);
	dprintf(2, "cannot exec ping: %s", strerror(errno));
	_exit(127);
}

struct side {
	pid_t pid;
	int out, err;           /* ping's stdout and stderr (read ends) */
	int sync;               /* veth mode: the load process's end of the socketpair */
	int lines;              /* newlines seen on stdout: counting between 1 and 2 */
	bool eof;
};

/* A veth side: its own network namespace, then the end `ifname` up with
 * its address, then ping toward the other side.  sync: 'r' when the
 * namespace exists, then waits for 'g' (the pair made). */
static void veth_side(unsigned i, int sync, int out, int err, pid_t loadproc,
		      struct hg_load_slot *slot)
{
	if (!bind_to_parent(loadproc))
		_exit(127);
	if (unshare(CLONE_NEWNET) < 0) {
		hg_load_fail(slot, "unshare(CLONE_NEWNET): %s (needs root)", strerror(errno));
		_exit(1);
	}
	char c = 'r';
	if (write(sync, &c, 1) != 1 || read(sync, &c, 1) != 1 || c != 'g')
		_exit(1);
	char ifname[16], cidr[24], msg[200];
	snprintf(ifname, sizeof(ifname), "hg%d%c", (int)loadproc, 'a' + i);
	snprintf(cidr, sizeof(cidr), "%s/30", side_addr[i]);
	char *addr[] = { "ip", "addr", "add", cidr, "dev", ifname, NULL };
	char *up[] = { "ip", "link", "set", ifname, "up", NULL };
	if (run_cmd(addr, msg, sizeof(msg)) < 0 || run_cmd(up, msg, sizeof(msg)) < 0) {
		hg_load_fail(slot, "%s", msg);
		_exit(1);
	}
	exec_ping(side_addr[1 - i], out, err);
}

static int start_side(struct side *s, unsigned i, const char *peer, struct hg_load_slot *slot)
{
	int o[2], e[2], sv[2] = { -1, -1 };
	if (pipe2(o, O_CLOEXEC) < 0 || pipe2(e, O_CLOEXEC) < 0 ||
	    (!peer && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0))
		return hg_load_fail(slot, "pipe: %s", strerror(errno));
	pid_t self = getpid();
	s->pid = fork();
	if (s->pid < 0)
		return hg_load_fail(slot, "fork: %s", strerror(errno));
	if (s->pid == 0) {
		if (peer) {
			if (!bind_to_parent(self))
				_exit(127);
			exec_ping(peer, o[1], e[1]);
		}
		veth_side(i, sv[1], o[1], e[1], self, slot);
	}
	close(o[1]);
	close(e[1]);
	if (sv[1] >= 0)
		close(sv[1]);
	s->out = o[0];
	s->err = e[0];
	s->sync = sv[0];
	return 0;
}

/* Why a ping ended before the stop: its stderr and its status. */
static int side_ended(struct side *s, struct hg_load_slot *slot)
{
	char msg[200] = "";
	ssize_t n = read(s->err, msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = '\0';
	for (char *c = msg; *c; c++)
		if (*c == '\n')
			*c = ' ';
	for (size_t len = strlen(msg); len && msg[len - 1] == ' ';)
		msg[--len] = '\0';
	int st = 0;
	waitpid(s->pid, &st, 0);
	return hg_load_fail(slot, "ping ended before the stop (%s %d)%s%s",
			    WIFEXITED(st) ? "exit" : "signal",
			    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), msg[0] ? ": " : "", msg);
}

/* ---- the load process --------------------------------------------------- */

static int flood_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	(void)proc;
	const struct params *par = l->plan->params;
	unsigned n = par->peer ? 1 : 2;
	struct side sides[2];
	for (unsigned i = 0; i < n; i++) {
		sides[i] = (struct side){ .lines = 0 };
		if (start_side(&sides[i], i, par->peer, slot))
			return 1;
	}
	if (!par->peer) {
		char c;
		for (unsigned i = 0; i < 2; i++)
			if (read(sides[i].sync, &c, 1) != 1)
				return slot->error[0] ? 1 : hg_load_fail(slot, "a namespace side ended");
		char ifa[16], ifb[16], nsa[16], nsb[16], msg[200];
		pid_t self = getpid();
		snprintf(ifa, sizeof(ifa), "hg%da", (int)self);
		snprintf(ifb, sizeof(ifb), "hg%db", (int)self);
		snprintf(nsa, sizeof(nsa), "%d", (int)sides[0].pid);
		snprintf(nsb, sizeof(nsb), "%d", (int)sides[1].pid);
		char *veth[] = { "ip", "link", "add", ifa, "netns", nsa, "type", "veth",
				 "peer", "name", ifb, "netns", nsb, NULL };
		if (run_cmd(veth, msg, sizeof(msg)) < 0)
			return hg_load_fail(slot, "%s", msg);
		for (unsigned i = 0; i < 2; i++)
			if (write(sides[i].sync, "g", 1) != 1)
				return hg_load_fail(slot, "a namespace side ended");
	}
	char buf[4096];
	for (;;) {
		struct pollfd fds[2];
		for (unsigned i = 0; i < n; i++)
			fds[i] = (struct pollfd){ .fd = sides[i].out, .events = POLLIN };
		if (poll(fds, n, -1) < 0 && errno != EINTR)
			return hg_load_fail(slot, "poll: %s", strerror(errno));
		for (unsigned i = 0; i < n; i++) {
			if (!fds[i].revents)
				continue;
			struct side *s = &sides[i];
			ssize_t r = read(s->out, buf, sizeof(buf));
			if (r <= 0)
				return side_ended(s, slot);
			uint64_t req = 0, rep = 0;
			for (ssize_t k = 0; k < r; k++) {
				if (buf[k] == '\n')
					s->lines++;
				else if (s->lines == 1 && buf[k] == '.')
					req++;
				else if (s->lines == 1 && buf[k] == ' ')
					rep++;
			}
			hg_load_add(slot, C_REQUESTS, req);
			hg_load_add(slot, C_REPLIES, rep);
		}
	}
}

/* ---- in hgrun ----------------------------------------------------------- */

static bool veth_mode(const void *values)
{
	return ((const struct params *)values)->peer == NULL;
}

static const struct hg_load_tool tools[] = {
	{ .program = "ping", .package = "iputils-ping" },
	{ .program = "ip", .package = "iproute2", .used = veth_mode },
	{ NULL },
};

static bool flood_supported(char *why, size_t size)
{
	if (geteuid() != 0) {
		snprintf(why, size, "needs root (network namespaces, a veth pair and ping -f); "
			 "run hgrun as root");
		return false;
	}
	char path[PATH_MAX];
	for (const struct hg_load_tool *t = tools; t->program; t++)
		if (!hg_find_program(t->program, path, sizeof(path))) {
			snprintf(why, size, "%s is not on PATH; install it: apt-get install %s",
				 t->program, t->package);
			return false;
		}
	return true;
}

static int flood_prepare(struct hg_load_run *l, char *err, size_t errlen)
{
	l->n_procs = 1;
	if (!flood_supported(err, errlen))
		return -EPERM;
	return 0;
}

static void flood_check(const void *values, struct hg_param_errors *e)
{
	const struct params *p = values;
	if (p->peer && p->peer[0] == '-')
		hg_param_error(e, "peer", "'%s' is not an address: give a host name or an IP "
			       "address (it may not start with '-')", p->peer);
}

static void flood_report(const struct hg_load_run *l, const struct hg_load_slot *slot,
			 int64_t t0, json_t *load, json_t *warnings)
{
	(void)t0;
	const struct params *par = l->plan->params;
	if (load)
		json_object_set_new(load, "flood_ping", json_pack("{s:s, s:o}",
			"mode", par->peer ? "peer" : "veth",
			"peer", par->peer ? json_string(par->peer) : json_null()));
	uint64_t req = atomic_load(&slot->counters[C_REQUESTS]);
	uint64_t rep = atomic_load(&slot->counters[C_REPLIES]);
	if (req > 0 && rep == 0)
		json_array_append_new(warnings, json_sprintf(
			"%llu echo requests and no reply%s%s", (unsigned long long)req,
			par->peer ? " from " : "", par->peer ? par->peer : ""));
}

static bool flood_trust_note(const struct hg_load_plan *lp, const char *user, char *buf,
			     size_t size)
{
	(void)user;
	const struct params *p = lp->params;
	if (p->peer)
		snprintf(buf, size, "floods %s with ICMP echo requests (ping -f)", p->peer);
	else
		snprintf(buf, size, "creates two network namespaces and a veth pair (gone with "
			 "its processes)");
	return true;
}

const struct hg_load_ops hg_load_flood_ping = {
	.name = "flood_ping",
	.summary = "ICMP echo floods (ping -f) both ways over a veth pair between two "
		   "namespaces of its own, or to a peer: (root)",
	.params = { params, sizeof(struct params) },
	.check = flood_check,
	.supported = flood_supported,
	.tools = tools,
	.trust_note = flood_trust_note,
	.counters = { "requests", "replies" },
	.prepare = flood_prepare,
	.run = flood_run,
	.report = flood_report,
};
