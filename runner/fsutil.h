/* Small file-system helpers shared by the result writers. */
#ifndef HG_FSUTIL_H
#define HG_FSUTIL_H

#include <stddef.h>

/* mkdir -p.  Returns 0 or -errno. */
int hg_mkdirs(const char *path);
/* Writes data to path through a temporary file in the same directory,
 * fsync and rename.  Returns 0 or -errno. */
int hg_write_atomic(const char *path, const char *data, size_t len);

#endif
