/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load 'tcp_stream': a full-speed TCP stream, the netperf TCP_STREAM load of
 * Hourglass section 5.4 (table 2's throughput column).  Default: a receiver
 * and a sender process on loopback (port bound by hgrun before forking);
 * connect: host:port sends to a remote sink; listen: port receives from a
 * remote sender, one connection at a time.  `bytes` counts what the
 * receiver got (the sender's bytes when only sending).  The sender keeps
 * trying while its peer refuses or cannot be reached, and connects again
 * after a reset: the remote side may start after this load, or restart
 * (docs/loads.md#tcp_stream); `connections` counts the streams made. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/tcp.h>           /* struct tcp_info with tcpi_bytes_acked (glibc's lacks it) */
#include <stddef.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/timeutil.h"
#include "plan/load.h"
#include "plan/plan.h"

struct params {
	char *connect;
	uint64_t listen;
};

static const struct hg_param params[] = {
	{ .name = "connect", .kind = HG_PARAM_ENDPOINT, .offset = offsetof(struct params, connect),
	  .help = "send to a remote sink host:port instead of the loopback receiver" },
	{ .name = "listen", .kind = HG_PARAM_UINT, .offset = offsetof(struct params, listen),
	  .min = 1, .max = 65535,
	  .help = "receive a stream from a remote sender on this port instead of the loopback sender" },
	HG_PARAMS_END
};

enum { C_CALLS, C_BYTES, C_SENT, C_CONNECTIONS };
enum mode { LOOPBACK, SEND_ONLY, RECV_ONLY };
#define BUF_SIZE (128u << 10)
#define RETRY_FIRST_NS 10000000LL       /* 10 ms, doubling ... */
#define RETRY_MAX_NS 1000000000LL       /* ... up to 1 s between attempts */
#define CONNECT_WAIT_S 1                 /* an attempt with no answer gives up after it */

struct tcp {
	enum mode mode;
	int listen_fd;
	struct sockaddr_storage peer;   /* where the sender connects */
	socklen_t peer_len;
};

static int listen_on(struct tcp *t, struct sockaddr *a, socklen_t len, char *err, size_t errlen)
{
	int one = 1, e;
	t->listen_fd = socket(a->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (t->listen_fd < 0)
		goto fail;
	setsockopt(t->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(t->listen_fd, a, len) != 0 || listen(t->listen_fd, 4) != 0)
		goto fail;
	t->peer_len = sizeof(t->peer);
	return getsockname(t->listen_fd, (struct sockaddr *)&t->peer, &t->peer_len) == 0 ? 0 : -errno;
fail:
	e = errno;
	snprintf(err, errlen, "listening socket: %s", strerror(e));
	return -e;
}

static int resolve(struct tcp *t, const char *target, char *err, size_t errlen)
{
	char host[256];
	const char *colon = strrchr(target, ':');
	size_t n = (size_t)(colon - target);
	if (target[0] == '[' && n >= 2 && target[n - 1] == ']')
		target++, n -= 2;               /* [2001:db8::1]:5001 */
	snprintf(host, sizeof(host), "%.*s", (int)n, target);
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	int rc = getaddrinfo(host, colon + 1, &hints, &res);
	if (rc != 0) {
		snprintf(err, errlen, "connect: cannot resolve '%s': %s", host, gai_strerror(rc));
		return -EINVAL;
	}
	memcpy(&t->peer, res->ai_addr, res->ai_addrlen);
	t->peer_len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static int tcp_prepare(struct hg_load_run *l, char *err, size_t errlen)
{
	const struct params *p = l->plan->params;
	struct tcp *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->listen_fd = -1;
	l->priv = t;
	l->n_procs = 1;
	if (p->connect) {
		t->mode = SEND_ONLY;
		return resolve(t, p->connect, err, errlen);
	}
	if (p->listen) {
		t->mode = RECV_ONLY;
		struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)p->listen),
					   .sin6_addr = IN6ADDR_ANY_INIT };
		if (listen_on(t, (struct sockaddr *)&a6, sizeof(a6), err, errlen) == 0)
			return 0;       /* dual stack: IPv4 too */
		struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)p->listen),
					  .sin_addr.s_addr = htonl(INADDR_ANY) };
		if (t->listen_fd >= 0)
			close(t->listen_fd);
		int rc = listen_on(t, (struct sockaddr *)&a4, sizeof(a4), err, errlen);
		if (rc != 0)
			snprintf(err, errlen, "listen: port %u: %s", (unsigned)p->listen, strerror(-rc));
		return rc;
	}
	t->mode = LOOPBACK;
	l->n_procs = 2;
	struct sockaddr_in lo = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	return listen_on(t, (struct sockaddr *)&lo, sizeof(lo), err, errlen);
}

static int receiver(struct tcp *t, char *buf, struct hg_load_slot *slot)
{
	for (;;) {
		int c = accept4(t->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0 && errno == EINTR)
			continue;
		if (c < 0)
			return hg_load_fail(slot, "accept: %s", strerror(errno));
		if (t->mode == RECV_ONLY)
			hg_load_add(slot, C_CONNECTIONS, 1);
		ssize_t n;
		while ((n = recv(c, buf, BUF_SIZE, 0)) > 0 || (n < 0 && errno == EINTR)) {
			if (n > 0) {
				hg_load_add(slot, C_CALLS, 1);
				hg_load_add(slot, C_BYTES, (uint64_t)n);
			}
		}
		close(c);       /* the sender went away: wait for the next one */
	}
}

/* Errors after which the peer may yet come (back): try again. */
static bool transient(int e)
{
	switch (e) {
	case ECONNREFUSED: case ECONNRESET: case ECONNABORTED: case ETIMEDOUT:
	case EHOSTUNREACH: case ENETUNREACH: case EHOSTDOWN: case ENETDOWN: case EPIPE:
		return true;
	default:
		return false;
	}
}

static void peer_name(const struct tcp *t, char *buf, size_t size)
{
	char host[INET6_ADDRSTRLEN] = "?";
	const struct sockaddr_in *a4 = (const void *)&t->peer;
	const struct sockaddr_in6 *a6 = (const void *)&t->peer;
	bool v6 = t->peer.ss_family == AF_INET6;
	inet_ntop(t->peer.ss_family, v6 ? (const void *)&a6->sin6_addr : (const void *)&a4->sin_addr,
		  host, sizeof(host));
	snprintf(buf, size, v6 ? "[%s]:%u" : "%s:%u", host,
		 (unsigned)ntohs(v6 ? a6->sin6_port : a4->sin_port));
}

/* The sender's state across its streams: the wait before the next attempt
 * (kept growing while streams end soon after they are made, so that a peer
 * that accepts and resets at once is not hammered) and what ended them. */
struct attempts {
	char peer[INET6_ADDRSTRLEN + 8];
	int64_t wait;
	unsigned ended;                 /* streams ended by the peer or the network */
	char last_end[64];              /* strerror of the last one */
};

static void backoff(struct attempts *at)
{
	struct timespec ts = hg_ns_to_ts(at->wait);
	nanosleep(&ts, NULL);
	at->wait = at->wait * 2 > RETRY_MAX_NS ? RETRY_MAX_NS : at->wait * 2;
}

/* What the slot says while the sender has no stream (a warning if the
 * load stops then): `what` went wrong with `attempt`, `since` the first;
 * attempt 0: a stream just ended, none tried yet. */
static void no_stream(struct hg_load_slot *slot, const struct attempts *at, const char *what,
		      unsigned attempt, int64_t since)
{
	if (attempt == 0) {
		snprintf(slot->error, sizeof(slot->error),
			 "the stream to %s ended %u time%s (last: %.40s); not made again when the "
			 "load stopped", at->peer, at->ended, at->ended == 1 ? "" : "s", what);
		return;
	}
	char ended[96] = "";
	if (at->ended)
		snprintf(ended, sizeof(ended), "after the stream ended %u time%s (last: %.40s); ",
			 at->ended, at->ended == 1 ? "" : "s", at->last_end);
	snprintf(slot->error, sizeof(slot->error),
		 "connect %s: %s (%s%u attempt%s, the last %.1f s after the first; still trying "
		 "when the load stopped)", at->peer, what, ended, attempt, attempt == 1 ? "" : "s",
		 (double)(hg_now_ns() - since) / 1e9);
}

/* An error retrying cannot cure: it replaces whatever the slot said while
 * retrying (hg_load_fail keeps the first message).  Returns 1. */
static int give_up(struct hg_load_slot *slot, const char *call, const char *peer, int e)
{
	slot->error[0] = '\0';
	return hg_load_fail(slot, "%s%s%s: %s", call, peer ? " " : "", peer ? peer : "",
			    strerror(e));
}

/* A connected socket, trying again while the failure is transient.  Until
 * it connects the slot says why not; once connected it says how many
 * streams ended before (each a warning: the load was not continuous), or
 * nothing.  -1 after hg_load_fail on an error that retrying cannot cure. */
static int connect_retrying(struct tcp *t, struct hg_load_slot *slot, struct attempts *at)
{
	int64_t since = hg_now_ns();
	for (unsigned attempt = 1;; attempt++) {
		int s = socket(t->peer.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (s < 0)
			return -give_up(slot, "socket", NULL, errno);
		/* a peer that drops the SYNs would keep connect() waiting for minutes:
		 * give up on an attempt after CONNECT_WAIT, counted as "no answer" */
		struct timeval wait = { .tv_sec = CONNECT_WAIT_S };
		setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof(wait));
		no_stream(slot, at, "no answer", attempt, since);
		if (connect(s, (struct sockaddr *)&t->peer, t->peer_len) == 0) {
			struct timeval none = { 0 };    /* send() blocks as long as it must */
			setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &none, sizeof(none));
			if (at->ended)
				snprintf(slot->error, sizeof(slot->error),
					 "the stream to %s ended %u time%s (last: %.40s); made again "
					 "each time", at->peer, at->ended, at->ended == 1 ? "" : "s",
					 at->last_end);
			else
				slot->error[0] = '\0';
			hg_load_add(slot, C_CONNECTIONS, 1);
			return s;
		}
		int e = errno;
		close(s);
		if (e != EINTR && e != EINPROGRESS && !transient(e))
			return -give_up(slot, "connect", at->peer, e);
		no_stream(slot, at, e == EINPROGRESS ? "no answer" : strerror(e), attempt, since);
		backoff(at);
	}
}

/* What the peer acknowledged of stream `s` (TCP_INFO), or -1 where the
 * kernel does not say (before Linux 4.1). */
static int64_t acked(int s)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	if (getsockopt(s, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0 ||
	    len < offsetof(struct tcp_info, tcpi_bytes_acked) + sizeof(ti.tcpi_bytes_acked))
		return -1;
	return (int64_t)ti.tcpi_bytes_acked;
}

/* Adds to `bytes` what the peer acknowledged of stream `s` beyond `counted`
 * (the SYN, which TCP_INFO counts as one byte, left out), or beyond it up to
 * `guess` where the kernel does not say; returns the new count. */
static int64_t count_acked(int s, struct hg_load_slot *slot, int64_t counted, int64_t guess)
{
	int64_t a = acked(s);
	int64_t now = a >= 1 ? a - 1 : a < 0 ? guess : counted;
	if (now <= counted)
		return counted;
	hg_load_add(slot, C_BYTES, (uint64_t)(now - counted));
	return now;
}

/* Sends as fast as the stream takes it.  Only sending, `bytes` counts what
 * the peer acknowledged (what send() accepted may die in a socket buffer
 * when the peer resets); beside the loopback receiver, `bytes_sent` counts
 * what send() accepted. */
static int sender(struct tcp *t, char *buf, struct hg_load_slot *slot)
{
	bool only = t->mode == SEND_ONLY;
	struct attempts at = { .wait = RETRY_FIRST_NS };
	peer_name(t, at.peer, sizeof(at.peer));
	for (;;) {
		int s = connect_retrying(t, slot, &at);
		if (s < 0)
			return 1;
		int64_t made = hg_now_ns(), counted = 0;
		ssize_t n;
		while ((n = send(s, buf, BUF_SIZE, MSG_NOSIGNAL)) >= 0 || errno == EINTR) {
			if (n <= 0)
				continue;
			if (!only) {
				hg_load_add(slot, C_SENT, (uint64_t)n);
				continue;
			}
			hg_load_add(slot, C_CALLS, 1);
			counted = count_acked(s, slot, counted, counted + n);
		}
		int e = errno;
		if (only)
			count_acked(s, slot, counted, counted);
		close(s);
		if (!transient(e))
			return give_up(slot, "send", NULL, e);  /* not "made again": it ends here */
		at.ended++;
		snprintf(at.last_end, sizeof(at.last_end), "%s", strerror(e));
		/* the load may stop during the wait below: say the stream is gone */
		no_stream(slot, &at, at.last_end, 0, 0);
		if (hg_now_ns() - made >= RETRY_MAX_NS)
			at.wait = RETRY_FIRST_NS;       /* it lived: the peer is back */
		else
			backoff(&at);                    /* ended at once: wait longer each time */
	}
}

static int tcp_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	struct tcp *t = l->priv;
	char *buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return hg_load_fail(slot, "mmap: %s", strerror(errno));
	bool receives = t->mode == RECV_ONLY || (t->mode == LOOPBACK && proc == 0);
	if (!receives && t->listen_fd >= 0)
		close(t->listen_fd);
	return receives ? receiver(t, buf, slot) : sender(t, buf, slot);
}

static void tcp_cleanup(struct hg_load_run *l)
{
	struct tcp *t = l->priv;
	if (t && t->listen_fd >= 0)
		close(t->listen_fd);
	free(t);
	l->priv = NULL;
}

static void tcp_check(const void *values, struct hg_param_errors *e)
{
	const struct params *p = values;
	if (p->connect && p->listen)
		hg_param_error(e, "listen",
			       "a tcp_stream either connects to a remote sink or listens for a remote sender, not both");
}

static bool tcp_supported(char *why, size_t size)
{
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		snprintf(why, size, "socket(AF_INET, SOCK_STREAM): %s", strerror(errno));
		return false;
	}
	close(s);
	return true;
}

static bool tcp_trust_note(const struct hg_load_plan *lp, const char *user, char *buf,
			   size_t size)
{
	const struct params *p = lp->params;
	if (p->connect)
		snprintf(buf, size, "connects to %s", p->connect);
	return p->connect != NULL;
}

const struct hg_load_ops hg_load_tcp_stream = {
	.name = "tcp_stream",
	.summary = "a full-speed TCP stream (loopback by default; connect: host:port or listen: port)",
	.params = { params, sizeof(struct params) },
	.check = tcp_check,
	.supported = tcp_supported,
	.trust_note = tcp_trust_note,
	.counters = { "calls", "bytes", "bytes_sent", "connections" },
	.prepare = tcp_prepare,
	.run = tcp_run,
	.cleanup = tcp_cleanup,
};
