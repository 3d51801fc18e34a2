/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bounded waits for helper children (runner/base/child.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/child.h"

#define SLICE_MS 50   /* how often a pending stop signal is looked for */

int hg_stop_signal_pending(void)
{
	sigset_t p;
	if (sigpending(&p) != 0)
		return 0;
	return sigismember(&p, SIGINT) == 1 || sigismember(&p, SIGTERM) == 1 ||
	       sigismember(&p, SIGHUP) == 1 || sigismember(&p, SIGQUIT) == 1;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

ssize_t hg_child_read(pid_t pid, int fd, char *buf, size_t size, unsigned timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;
	size_t len = 0;
	ssize_t rc = 0;
	int eof = 0;
	while (!eof && len + 1 < size) {
		if (hg_stop_signal_pending()) {
			rc = -EINTR;
			break;
		}
		long long left = deadline - now_ms();
		if (left <= 0) {
			rc = -ETIMEDOUT;
			break;
		}
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int n = poll(&pfd, 1, left < SLICE_MS ? (int)left : SLICE_MS);
		if (n < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
		if (n <= 0)
			continue;
		ssize_t got = read(fd, buf + len, size - 1 - len);
		if (got < 0 && errno != EINTR && errno != EAGAIN) {
			rc = -errno;
			break;
		}
		if (got == 0)
			eof = 1;
		else if (got > 0)
			len += (size_t)got;
	}
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	close(fd);
	if (!eof)
		kill(pid, SIGKILL);  /* a child that ends by itself is reaped the same */
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return rc < 0 ? rc : (ssize_t)len;
}
