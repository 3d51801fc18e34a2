/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the bounded wait for helper children (runner/base/child.c): an
 * answer is read, a child that never answers is killed at the timeout, and
 * a pending stop signal ends the wait at once and stays pending. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "base/child.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A child that writes text (NULL: nothing) and then sleeps hang_s seconds. */
static pid_t spawn(int *fd, const char *text, unsigned hang_s)
{
	int p[2];
	if (pipe(p) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (text && write(p[1], text, strlen(text)) < 0)
			_exit(1);
		if (hang_s)
			sleep(hang_s);
		_exit(0);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

/* The child is gone (reaped by hg_child_read): no zombie left to wait for. */
static int reaped(pid_t pid)
{
	return waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD;
}

int main(void)
{
	char buf[64];
	int fd;

	pid_t pid = spawn(&fd, "none voluntary (full) lazy\n", 0);
	ssize_t n = hg_child_read(pid, fd, buf, sizeof(buf), 2000);
	CHECK(n == 27 && strcmp(buf, "none voluntary (full) lazy\n") == 0,
	      "answer: n=%zd '%s'", n, buf);
	CHECK(reaped(pid), "answering child not reaped");

	pid = spawn(&fd, "0123456789", 0);
	n = hg_child_read(pid, fd, buf, 5, 2000);
	CHECK(n == 4 && strcmp(buf, "0123") == 0, "truncated: n=%zd '%s'", n, buf);
	CHECK(reaped(pid), "child of a full buffer not reaped");

	/* Hangs for 30 s; the wait ends at 0.3 s and kills it. */
	double t0 = now_s();
	pid = spawn(&fd, NULL, 30);
	n = hg_child_read(pid, fd, buf, sizeof(buf), 300);
	double took = now_s() - t0;
	CHECK(n == -ETIMEDOUT, "hanging child: got %zd, want -ETIMEDOUT", n);
	CHECK(took >= 0.25 && took < 10, "hanging child: waited %.2f s for a 0.3 s bound", took);
	CHECK(reaped(pid) && buf[0] == '\0', "hanging child not killed and reaped");

	/* A SIGTERM kept blocked and pending (as a run keeps it): the wait ends
	 * at once and the signal is still there for the run to take. */
	sigset_t term, old;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	CHECK(!hg_stop_signal_pending(), "stop signal pending before raise");
	raise(SIGTERM);
	t0 = now_s();
	pid = spawn(&fd, NULL, 30);
	n = hg_child_read(pid, fd, buf, sizeof(buf), 20000);
	took = now_s() - t0;
	CHECK(n == -EINTR, "pending SIGTERM: got %zd, want -EINTR", n);
	CHECK(took < 5, "pending SIGTERM: waited %.2f s", took);
	CHECK(reaped(pid), "child not reaped after a stop signal");
	struct timespec zero = { 0, 0 };
	CHECK(sigtimedwait(&term, NULL, &zero) == SIGTERM, "SIGTERM no longer pending");
	sigprocmask(SIG_SETMASK, &old, NULL);
	return unit_report("test_child");
}
