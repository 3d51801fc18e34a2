/* Small file-system helpers shared by the result writers. */
#ifndef HG_FSUTIL_H
#define HG_FSUTIL_H

#include <stddef.h>

/* mkdir -p.  Returns 0 or -errno. */
int hg_mkdirs(const char *path);
/* Unlinks every file directly in path (not subdirectories). */
void hg_empty_dir(const char *path);
#include <stdio.h>

/* Writes path through a temporary file in the same directory: fn writes the
 * content (returning 0 or -errno), then fsync and rename.  A failure leaves
 * no temporary file and the old path untouched.  Returns 0 or -errno. */
int hg_write_atomic_with(const char *path, int (*fn)(FILE *f, const void *ctx),
			 const void *ctx);
/* The same for a buffer. */
int hg_write_atomic(const char *path, const char *data, size_t len);

#endif
