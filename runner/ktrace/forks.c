/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hgrun's process tree from the proc connector (ktrace/forks.h). */
#include <errno.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/cpuset.h"
#include "base/grow.h"
#include "ktrace/forks.h"

#define FORKS_NICE 19
#define RECV_TIMEOUT_MS 50

struct fork_rec {
	pid_t parent_tgid, child_pid, child_tgid;
};

/* A set of pids: open addressing, 0 empty (no task has pid 0 here). */
struct pidset {
	pid_t *v;
	size_t cap, n;
};

struct hg_forks {
	int sock;
	char why[160];
	pthread_t thread;
	bool started;
	atomic_int stop;
	atomic_ullong lost;
	struct pidset tree;          /* tgids of hgrun and its descendants: the filter */
	struct fork_rec *recs;       /* forks inside the tree, in the order they came */
	size_t n_recs, cap_recs;
};

static size_t slot_of(const struct pidset *s, pid_t p)
{
	size_t i = ((uint32_t)p * 2654435761u) & (s->cap - 1);
	while (s->v[i] && s->v[i] != p)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static bool pidset_has(const struct pidset *s, pid_t p)
{
	return s->cap && s->v[slot_of(s, p)] == p;
}

static int pidset_add(struct pidset *s, pid_t p)
{
	if (p <= 0 || pidset_has(s, p))
		return 0;
	if ((s->n + 1) * 2 > s->cap) {
		struct pidset g = { calloc(s->cap ? s->cap * 2 : 64, sizeof(pid_t)),
				    s->cap ? s->cap * 2 : 64, 0 };
		if (!g.v)
			return -ENOMEM;
		for (size_t i = 0; i < s->cap; i++)
			if (s->v[i])
				g.v[slot_of(&g, s->v[i])] = s->v[i], g.n++;
		free(s->v);
		*s = g;
	}
	s->v[slot_of(s, p)] = p;
	s->n++;
	return 0;
}

/* A process's parent is the task that forked it; a thread's (CLONE_THREAD)
 * is its process's parent, so a thread is known by its tgid instead. */
static void on_fork(struct hg_forks *f, const struct proc_event *ev)
{
	pid_t parent = ev->event_data.fork.parent_tgid;
	if (!pidset_has(&f->tree, parent) && !pidset_has(&f->tree, ev->event_data.fork.child_tgid))
		return;
	struct fork_rec *r = hg_grown(f->recs, &f->cap_recs, f->n_recs, sizeof(*r), 256);
	if (!r || pidset_add(&f->tree, ev->event_data.fork.child_tgid) < 0) {
		atomic_fetch_add(&f->lost, 1);
		return;
	}
	f->recs = r;
	f->recs[f->n_recs++] = (struct fork_rec){ parent, ev->event_data.fork.child_pid,
						  ev->event_data.fork.child_tgid };
}

static void *listen_main(void *arg)
{
	struct hg_forks *f = arg;
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), FORKS_NICE);
	_Alignas(struct nlmsghdr) char buf[16384];
	while (!atomic_load(&f->stop)) {
		ssize_t n = recv(f->sock, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == ENOBUFS)
				atomic_fetch_add(&f->lost, 1);
			continue;          /* EAGAIN: the timeout, look at the stop flag */
		}
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_ERROR || h->nlmsg_type == NLMSG_NOOP)
				continue;
			const struct cn_msg *cn = NLMSG_DATA(h);
			if (cn->id.idx != CN_IDX_PROC || cn->len < sizeof(struct proc_event))
				continue;
			const struct proc_event *ev = (const struct proc_event *)cn->data;
			if (ev->what == PROC_EVENT_FORK)
				on_fork(f, ev);
		}
	}
	return NULL;
}

/* Binds to the proc connector's group and asks the kernel to send. */
static int subscribe(struct hg_forks *f)
{
	f->sock = socket(PF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (f->sock < 0)
		return -errno;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
	if (bind(f->sock, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	struct timeval tv = { 0, RECV_TIMEOUT_MS * 1000 };
	setsockopt(f->sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	int big = 4 << 20;
	setsockopt(f->sock, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	struct {
		struct nlmsghdr h;
		struct cn_msg cn;
		enum proc_cn_mcast_op op;
	} __attribute__((packed)) msg;
	memset(&msg, 0, sizeof(msg));
	msg.h.nlmsg_len = sizeof(msg);
	msg.h.nlmsg_type = NLMSG_DONE;
	msg.cn.id.idx = CN_IDX_PROC;
	msg.cn.id.val = CN_VAL_PROC;
	msg.cn.len = sizeof(msg.op);
	msg.op = PROC_CN_MCAST_LISTEN;
	if (send(f->sock, &msg, sizeof(msg), 0) < 0)
		return -errno;
	return 0;
}

struct hg_forks *hg_forks_start(const cpu_set_t *measured)
{
	struct hg_forks *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->sock = -1;
	if (pidset_add(&f->tree, getpid()) < 0) {
		snprintf(f->why, sizeof(f->why), "out of memory");
		return f;
	}
	int rc = subscribe(f);
	if (rc < 0) {
		snprintf(f->why, sizeof(f->why), "the proc connector (NETLINK_CONNECTOR): %s%s",
			 strerror(-rc), rc == -EPERM || rc == -EACCES ? " (needs CAP_NET_ADMIN)" : "");
		return f;
	}
	rc = pthread_create(&f->thread, NULL, listen_main, f);
	if (rc) {
		snprintf(f->why, sizeof(f->why), "pthread_create: %s", strerror(rc));
		return f;
	}
	f->started = true;
	pthread_setname_np(f->thread, "hg-forks");
	cpu_set_t others;
	hg_cpuset_online(&others);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, measured))
			CPU_CLR(cpu, &others);
	if (CPU_COUNT(&others) > 0)
		pthread_setaffinity_np(f->thread, sizeof(others), &others);
	return f;
}

bool hg_forks_active(const struct hg_forks *f)
{
	return f && f->started;
}

const char *hg_forks_why(const struct hg_forks *f)
{
	return f ? f->why : "out of memory";
}

void hg_forks_stop(struct hg_forks *f)
{
	if (!f || !f->started || atomic_exchange(&f->stop, 1))
		return;
	pthread_join(f->thread, NULL);
}

void hg_forks_free(struct hg_forks *f)
{
	if (!f)
		return;
	hg_forks_stop(f);
	if (f->sock >= 0)
		close(f->sock);
	free(f->tree.v);
	free(f->recs);
	free(f);
}

uint64_t hg_forks_lost(const struct hg_forks *f)
{
	return f ? atomic_load(&f->lost) : 0;
}

long hg_forks_descendants(const struct hg_forks *f, const pid_t *roots, size_t n_roots,
			  pid_t **out)
{
	struct pidset seen = { 0 };
	size_t cap = n_roots + (f ? 2 * f->n_recs : 0) + 1, n = 0;
	pid_t *v = malloc(cap * sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < n_roots; i++) {
		v[n++] = roots[i];
		if (pidset_add(&seen, roots[i]) < 0)
			goto oom;
	}
	for (size_t i = 0; f && i < f->n_recs; i++) {
		const struct fork_rec *r = &f->recs[i];
		if (!pidset_has(&seen, r->parent_tgid) && !pidset_has(&seen, r->child_tgid))
			continue;
		pid_t ids[2] = { r->child_tgid, r->child_pid };
		for (int k = 0; k < 2; k++)
			if (!pidset_has(&seen, ids[k])) {
				if (pidset_add(&seen, ids[k]) < 0)
					goto oom;
				v[n++] = ids[k];
			}
	}
	free(seen.v);
	*out = v;
	return (long)n;
oom:
	free(seen.v);
	free(v);
	return -1;
}
