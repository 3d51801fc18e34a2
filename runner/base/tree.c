/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Walking and removing a tree of any depth (base/tree.h).  The walk holds
 * one directory open at a time: it goes down with openat(O_NOFOLLOW),
 * checking that what it opened is what it saw, and up with "..", checking
 * that it is the directory it came from (its device and inode): a tree
 * moved during the walk stops it, never leads it elsewhere.  Back in a
 * directory it continues where it was (seekdir); removing, it reads each
 * directory again from the start until a whole pass changes nothing, so
 * entries a file system's offsets moved are not missed.  Entries it leaves
 * (another user's, or a failed removal) are remembered by device and inode
 * so no pass counts them twice. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/grow.h"
#include "base/tree.h"

/* Passes over one directory at most: a directory that changes under every
 * pass (something still writing there) ends with what is left said. */
enum { MAX_PASSES = 64 };

struct frame {
	dev_t dev;
	ino_t ino;
	long pos;               /* where to go on in this directory after a child */
	bool dirty;             /* this pass removed or went into something */
	unsigned passes;        /* passes from the start so far */
	char *name;             /* its name in the frame above */
};

/* Entries left, by device and inode: open addressing, grown at half full. */
struct seen {
	struct { dev_t dev; ino_t ino; bool used; } *slot;
	size_t cap, n;
};

static size_t hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev;
	return (size_t)(h ^ h >> 29);
}

static bool seen_has(const struct seen *s, dev_t dev, ino_t ino)
{
	for (size_t i = s->cap ? hash(dev, ino) % s->cap : 0; s->cap && s->slot[i].used;
	     i = (i + 1) % s->cap)
		if (s->slot[i].dev == dev && s->slot[i].ino == ino)
			return true;
	return false;
}

static int seen_add(struct seen *s, dev_t dev, ino_t ino)
{
	if (seen_has(s, dev, ino))
		return 0;
	if (2 * (s->n + 1) > s->cap) {
		struct seen bigger = { .cap = s->cap ? 2 * s->cap : 64 };
		bigger.slot = calloc(bigger.cap, sizeof(*bigger.slot));
		if (!bigger.slot)
			return -ENOMEM;
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i].used)
				seen_add(&bigger, s->slot[i].dev, s->slot[i].ino);
		free(s->slot);
		*s = bigger;
	}
	size_t i = hash(dev, ino) % s->cap;
	while (s->slot[i].used)
		i = (i + 1) % s->cap;
	s->slot[i].dev = dev;
	s->slot[i].ino = ino;
	s->slot[i].used = true;
	s->n++;
	return 0;
}

struct walk {
	struct hg_tree *t;
	struct frame *f;
	size_t n, cap;
	struct seen left;
};

static void fail(struct hg_tree *t, int e)
{
	if (!t->error)
		t->error = e;
}

/* Counts an entry left, naming the first one by its path below the top. */
static void note_left(struct walk *w, const char *name, const struct stat *st)
{
	struct hg_tree *t = w->t;
	t->left++;
	if (seen_add(&w->left, st->st_dev, st->st_ino) < 0)
		fail(t, ENOMEM);
	if (t->first_left[0])
		return;
	size_t used = 0;
	for (size_t i = 1; i < w->n && used < sizeof(t->first_left); i++)
		used += (size_t)snprintf(t->first_left + used, sizeof(t->first_left) - used, "%s/",
					 w->f[i].name);
	if (used < sizeof(t->first_left))
		snprintf(t->first_left + used, sizeof(t->first_left) - used, "%s", name);
}

static int push(struct walk *w, const struct stat *st, const char *name)
{
	struct frame *f = hg_grown(w->f, &w->cap, w->n, sizeof(*f), 16);
	char *copy = strdup(name);
	if (!f || !copy) {
		free(copy);
		return -ENOMEM;
	}
	w->f = f;
	w->f[w->n++] = (struct frame){ .dev = st->st_dev, .ino = st->st_ino, .name = copy };
	if (w->n - 1 > w->t->depth)
		w->t->depth = w->n - 1;
	return 0;
}

/* The directory `name` in the open directory d, opened as a directory
 * that is still the entry `st` seen there; -errno otherwise. */
static int open_child(DIR *d, const char *name, const struct stat *st)
{
	int fd = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat now;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &now) < 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/* One entry of the current directory: removed, gone into (a directory:
 * the new current one in *d, 1), or left.  0 to go on in this directory. */
static int entry(struct walk *w, DIR **d, const char *name)
{
	struct hg_tree *t = w->t;
	struct stat st;
	if (fstatat(dirfd(*d), name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    seen_has(&w->left, st.st_dev, st.st_ino))
		return 0;           /* gone meanwhile, or left already */
	struct frame *here = &w->f[w->n - 1];
	t->entries++;
	if (st.st_uid != t->uid) {
		note_left(w, name, &st);
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!t->remove)
			return 0;
		if (unlinkat(dirfd(*d), name, 0) == 0) {
			t->removed++;
			here->dirty = true;
		} else if (errno != ENOENT) {
			fail(t, errno);
			note_left(w, name, &st);
		}
		return 0;
	}
	long pos = telldir(*d);
	int fd = open_child(*d, name, &st);
	if (fd < 0 || push(w, &st, name) < 0) {
		fail(t, fd < 0 ? -fd : ENOMEM);
		if (fd >= 0)
			close(fd);
		note_left(w, name, &st);
		return 0;
	}
	DIR *child = fdopendir(fd);
	if (!child) {
		fail(t, errno);
		close(fd);
		free(w->f[--w->n].name);
		note_left(w, name, &st);
		return 0;
	}
	w->f[w->n - 2].pos = pos;
	w->f[w->n - 2].dirty = true;
	closedir(*d);
	*d = child;
	return 1;
}

/* Back up from the current directory (finished) to the one above, which
 * must be the one it came from; the finished one removed when removing. */
static int up(struct walk *w, DIR **d)
{
	struct hg_tree *t = w->t;
	struct frame done = w->f[w->n - 1], *above = &w->f[w->n - 2];
	int fd = openat(dirfd(*d), "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_dev != above->dev || st.st_ino != above->ino) {
		if (fd >= 0)
			close(fd);
		return -ESTALE;     /* moved meanwhile: never followed */
	}
	DIR *parent = fdopendir(fd);
	if (!parent) {
		close(fd);
		return -errno;
	}
	closedir(*d);
	*d = parent;
	w->n--;
	seekdir(parent, above->pos);
	struct stat self = { .st_dev = done.dev, .st_ino = done.ino };
	if (t->remove) {
		if (unlinkat(dirfd(parent), done.name, AT_REMOVEDIR) == 0)
			t->removed++;
		else if (errno != ENOENT) {
			if (errno != ENOTEMPTY && errno != EEXIST)
				fail(t, errno);
			if (!seen_has(&w->left, done.dev, done.ino))
				note_left(w, done.name, &self);
		}
	} else if (seen_add(&w->left, done.dev, done.ino) < 0) {
		fail(t, ENOMEM);   /* looked at: not again after a seek */
	}
	free(done.name);
	return 0;
}

static int walk_from(struct walk *w, DIR *d)
{
	struct hg_tree *t = w->t;
	int rc = 0;
	for (;;) {
		errno = 0;
		struct dirent *e = readdir(d);
		if (e) {
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				entry(w, &d, e->d_name);
			continue;
		}
		if (errno) {
			fail(t, errno);
			rc = -errno;
			break;
		}
		struct frame *here = &w->f[w->n - 1];
		if (t->remove && here->dirty && ++here->passes < MAX_PASSES) {   /* once more */
			here->dirty = false;
			rewinddir(d);
			continue;
		}
		if (w->n == 1)
			break;
		if ((rc = up(w, &d)) < 0)
			break;
	}
	closedir(d);
	return rc;
}

int hg_tree_walk(int dir, const char *name, struct hg_tree *t)
{
	t->entries = t->removed = t->left = t->depth = 0;
	t->error = 0;
	t->first_left[0] = '\0';
	if (!hg_plain_name(name))
		return -EINVAL;
	int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_uid != t->uid) {
		int e = st.st_uid != t->uid ? EPERM : errno;
		close(fd);
		return -e;
	}
	struct walk w = { .t = t };
	DIR *d = fdopendir(fd);
	int rc = d ? push(&w, &st, name) : -errno;
	if (rc < 0) {
		if (d)
			closedir(d);
		else
			close(fd);
		return rc;
	}
	t->entries = 1;
	rc = walk_from(&w, d);
	for (size_t i = 0; i < w.n; i++)
		free(w.f[i].name);
	free(w.f);
	free(w.left.slot);
	if (!rc && t->remove && !t->left) {
		if (unlinkat(dir, name, AT_REMOVEDIR) == 0)
			t->removed++;
		else if (errno != ENOENT)
			rc = -errno;
	}
	if (rc == -ESTALE && !t->first_left[0])
		snprintf(t->first_left, sizeof(t->first_left), "%s (moved during the walk)", name);
	return rc ? rc : t->left ? -ENOTEMPTY : 0;
}
