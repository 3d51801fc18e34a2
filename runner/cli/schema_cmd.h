/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun schema [scenario|result] [--path]`: the JSON Schema of scenarios
 * (for editors) or of result.json, its text or where it is installed
 * (docs/cli.md). */
#ifndef HG_SCHEMA_CMD_H
#define HG_SCHEMA_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The file of schema `which` ("scenario" or "result"): next to the binary
 * as `cmake --install` lays it out (BINDIR/../share/hgrun/schemas/), else
 * in the source tree the binary was built from.  Returns 0, or -ENOENT
 * with the places looked at in `where`. */
int hg_schema_find(const char *which, char *path, size_t size, char *where, size_t wsize);

/* Prints the schema (or with path_only its absolute path).  Returns an
 * exit code: 0, 3 for an unknown name, 1 when no schema file is found. */
int hg_schema_command(FILE *out, FILE *err, const char *which, bool path_only);

#endif
