/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading the JSON files hgrun reads back (sweep.json, a run's
 * result.json) from directories others may write to: a regular file, not
 * a link, not a FIFO (which would block), of bounded size. */
#ifndef HG_JSONFILE_H
#define HG_JSONFILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define HG_JSONFILE_MAX (64u << 20)     /* sweep.json, result.json: far above either */

/* Reads the plain name inside dir (an fd, or AT_FDCWD with a path) as JSON.
 * NULL with a message in err ("not a regular file", "larger than 64 MiB",
 * "line 3: ..."), and *missing set when there is no such file. */
json_t *hg_json_read_at(int dir, const char *name, size_t max, bool *missing, char *err,
			size_t errlen);
/* The same, refusing a file not owned by `owner` ((uid_t)-1: any), and
 * keeping the bytes read when text is not NULL (*text malloc'd, NUL-ended,
 * *len bytes): a copy of the file is then exactly what was checked. */
json_t *hg_json_read_owned_at(int dir, const char *name, size_t max, uid_t owner, bool *missing,
			      char **text, size_t *len, char *err, size_t errlen);
/* The same from bytes already in memory (the fuzz target's entry). */
json_t *hg_json_parse(const char *data, size_t len, char *err, size_t errlen);

#endif
