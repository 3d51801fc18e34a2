/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Removing a tree of any depth (runner/base/tree.c): a stress-ng dirdeep
 * stressor's thousands of levels go entirely, links are removed and never
 * followed, FIFOs never opened, another user's entry is left and named,
 * and looking removes nothing. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "base/tree.h"

static char base[PATH_MAX];
static int bfd = -1;

/* name/d/d/.../d, `levels` deep, a file "f" every `every` levels and, when
 * `fifo`, a FIFO and a link to `outside` at the bottom.  The bottom
 * directory's fd, or -1. */
static int chain(const char *name, int levels, int every, bool fifo, const char *outside)
{
	if (mkdirat(bfd, name, 0700) != 0)
		return -1;
	int cur = openat(bfd, name, O_RDONLY | O_DIRECTORY);
	for (int i = 0; cur >= 0 && i < levels; i++) {
		if (every && i % every == 0) {
			int f = openat(cur, "f", O_WRONLY | O_CREAT, 0600);
			if (f >= 0)
				close(f);
		}
		if (mkdirat(cur, "d", 0700) != 0) {
			close(cur);
			return -1;
		}
		int next = openat(cur, "d", O_RDONLY | O_DIRECTORY);
		close(cur);
		cur = next;
	}
	if (cur >= 0 && fifo) {
		CHECK(mkfifoat(cur, "fifo", 0600) == 0, "mkfifo");
		CHECK(symlinkat(outside, cur, "link") == 0, "symlink");
	}
	return cur;
}

static bool exists(const char *name)
{
	struct stat st;
	return fstatat(bfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static void test_deep_chain_goes_entirely(void)
{
	char victim[PATH_MAX + 16];
	snprintf(victim, sizeof(victim), "%s/victim", base);
	CHECK(mkdir(victim, 0700) == 0, "mkdir victim");
	int bottom = chain("deep", 2000, 100, true, victim);
	CHECK(bottom >= 0, "a chain 2000 levels deep");
	if (bottom >= 0)
		close(bottom);
	struct hg_tree look = { .uid = geteuid(), .remove = false };
	CHECK(hg_tree_walk(bfd, "deep", &look) == 0, "look: %s", strerror(look.error));
	CHECK(look.depth == 2000 && look.entries == 1 + 2000 + 20 + 2 && look.removed == 0,
	      "look: depth %llu, %llu entries, %llu removed", (unsigned long long)look.depth,
	      (unsigned long long)look.entries, (unsigned long long)look.removed);
	CHECK(exists("deep"), "looking removed the tree");
	struct hg_tree t = { .uid = geteuid(), .remove = true };
	int rc = hg_tree_walk(bfd, "deep", &t);
	CHECK(rc == 0 && t.left == 0, "remove: rc %d, %llu left (%s)", rc,
	      (unsigned long long)t.left, t.first_left);
	CHECK(!exists("deep"), "the tree is still there");
	CHECK(t.removed == look.entries, "removed %llu of %llu", (unsigned long long)t.removed,
	      (unsigned long long)look.entries);
	CHECK(exists("victim"), "the link's target was removed");
	rmdir(victim);
}

static void test_another_users_entry_is_left_and_named(void)
{
	if (geteuid() != 0) {
		printf("(not root: another user's file cannot be made; skipped)\n");
		return;
	}
	int bottom = chain("theirs", 40, 0, false, NULL);
	CHECK(bottom >= 0, "chain");
	int f = bottom >= 0 ? openat(bottom, "x", O_WRONLY | O_CREAT, 0600) : -1;
	CHECK(f >= 0 && fchown(f, 4242, 4242) == 0, "another user's file");
	if (f >= 0)
		close(f);
	if (bottom >= 0)
		close(bottom);
	struct hg_tree t = { .uid = geteuid(), .remove = true };
	int rc = hg_tree_walk(bfd, "theirs", &t);
	char want[256] = "";
	for (int i = 0; i < 40; i++)
		strcat(want, "d/");
	strcat(want, "x");
	CHECK(rc == -ENOTEMPTY, "rc %d", rc);
	/* the file, and each of the 40 directories above it, are left */
	CHECK(t.left == 41 && !strcmp(t.first_left, want), "%llu left, first '%s'",
	      (unsigned long long)t.left, t.first_left);
	struct hg_tree again = { .uid = geteuid(), .remove = false };
	CHECK(hg_tree_walk(bfd, "theirs", &again) == -ENOTEMPTY && again.left == 1,
	      "look again: %llu left", (unsigned long long)again.left);
	struct hg_tree root = { .uid = 4242, .remove = true };
	CHECK(hg_tree_walk(bfd, "theirs", &root) == -EPERM, "a tree of another user's is refused");
}

static void test_wide_directory(void)
{
	int top = chain("wide", 0, 0, false, NULL);
	CHECK(top >= 0, "wide");
	for (int i = 0; top >= 0 && i < 3000; i++) {
		char name[32];
		snprintf(name, sizeof(name), "%s%d", i % 3 ? "f" : "d", i);
		if (i % 3 == 0) {
			mkdirat(top, name, 0700);
			int sub = openat(top, name, O_RDONLY | O_DIRECTORY);
			int f = sub >= 0 ? openat(sub, "inner", O_WRONLY | O_CREAT, 0600) : -1;
			if (f >= 0)
				close(f);
			if (sub >= 0)
				close(sub);
		} else {
			int f = openat(top, name, O_WRONLY | O_CREAT, 0600);
			if (f >= 0)
				close(f);
		}
	}
	if (top >= 0)
		close(top);
	struct hg_tree t = { .uid = geteuid(), .remove = true };
	CHECK(hg_tree_walk(bfd, "wide", &t) == 0 && !exists("wide") && t.removed == 1 + 3000 + 1000,
	      "wide: %llu removed, %llu left", (unsigned long long)t.removed,
	      (unsigned long long)t.left);
}

static void test_top_that_is_a_link(void)
{
	CHECK(symlinkat(base, bfd, "alink") == 0, "symlink");
	struct hg_tree t = { .uid = geteuid(), .remove = true };
	int rc = hg_tree_walk(bfd, "alink", &t);
	CHECK(rc == -ELOOP || rc == -ENOTDIR, "a link as the top: %d", rc);
	unlinkat(bfd, "alink", 0);
}

int main(void)
{
	snprintf(base, sizeof(base), "/tmp/hg-test-tree-XXXXXX");
	if (!mkdtemp(base) || (bfd = open(base, O_RDONLY | O_DIRECTORY)) < 0) {
		perror("mkdtemp");
		return 1;
	}
	test_deep_chain_goes_entirely();
	test_another_users_entry_is_left_and_named();
	test_wide_directory();
	test_top_that_is_a_link();
	/* The test's own leftovers: the other user's file first (a walk as that
	 * user is refused at the top, as the test checks), then the chain. */
	char theirs[128] = "theirs/";
	for (int i = 0; i < 40; i++)
		strcat(theirs, "d/");
	strcat(theirs, "x");
	unlinkat(bfd, theirs, 0);
	struct hg_tree t = { .uid = geteuid(), .remove = true };
	if (exists("theirs"))
		hg_tree_walk(bfd, "theirs", &t);
	close(bfd);
	CHECK(rmdir(base) == 0, "%s left behind: %s", base, strerror(errno));
	return unit_report("test_tree");
}
