/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hgrun's process tree from the proc connector (runner/ktrace/forks.c):
 * a child, its thread and a grandchild that lived a millisecond are all
 * descendants of the child; a process outside the tree is not; without
 * the connector (not root) the roots alone, and it says why. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "ktrace/forks.h"

static void *idle_thread(void *arg)
{
	(void)arg;
	return NULL;
}

static bool has(const pid_t *v, long n, pid_t p)
{
	for (long i = 0; i < n; i++)
		if (v[i] == p)
			return true;
	return false;
}

int main(void)
{
	cpu_set_t none;
	CPU_ZERO(&none);
	struct hg_forks *f = hg_forks_start(&none);
	CHECK(f != NULL, "start");
	if (!hg_forks_active(f)) {
		printf("test_forks: no connector here (%s): the fallback only\n", hg_forks_why(f));
		CHECK(hg_forks_why(f)[0] != '\0', "says why it does not listen");
		pid_t root = 4242, *v = NULL;
		long n = hg_forks_descendants(f, &root, 1, &v);
		CHECK(n == 1 && v[0] == root, "without the connector: the roots alone");
		free(v);
		hg_forks_free(f);

		return unit_report("test_forks");
	}
	int pipefd[2];
	CHECK(pipe(pipefd) == 0, "pipe");
	pid_t child = fork();
	if (child == 0) {
		pthread_t t;
		pthread_create(&t, NULL, idle_thread, NULL);
		pthread_join(t, NULL);
		pid_t grand = fork();
		if (grand == 0)
			_exit(0);                  /* lives a moment */
		waitpid(grand, NULL, 0);
		if (write(pipefd[1], &grand, sizeof(grand)) != sizeof(grand))
			_exit(1);
		_exit(0);
	}
	pid_t grand = 0;
	CHECK(read(pipefd[0], &grand, sizeof(grand)) == sizeof(grand), "grandchild pid");
	waitpid(child, NULL, 0);
	pid_t other = fork();                      /* a sibling: not the child's */
	if (other == 0)
		_exit(0);
	waitpid(other, NULL, 0);
	struct timespec ts = { 0, 200000000 };     /* the events reach the socket */
	nanosleep(&ts, NULL);
	hg_forks_stop(f);
	pid_t *v = NULL;
	long n = hg_forks_descendants(f, &child, 1, &v);
	CHECK(n >= 3, "child, its thread and the grandchild: %ld", n);
	CHECK(v && v[0] == child, "the root first");
	CHECK(has(v, n, grand), "the grandchild that lived a moment");
	CHECK(!has(v, n, other), "a sibling is not a descendant");
	CHECK(!has(v, n, getpid()), "nor the parent");
	free(v);
	CHECK(hg_forks_lost(f) == 0, "no event lost");
	hg_forks_free(f);
	hg_forks_free(NULL);
	return unit_report("test_forks");
}
