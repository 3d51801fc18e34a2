/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A loaded libyaml document and the way through it: nodes by key and
 * index, and a way back from a key path (threads[1].workload.exec) to the
 * line and column of the node, so errors found long after loading still
 * point at the fault.  scenario/yamldoc.h loads one. */
#ifndef HG_YAMLNODE_H
#define HG_YAMLNODE_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "scenario/diag.h"

struct hg_yaml {
	char *text;              /* the file's bytes, NUL-terminated */
	size_t len;
	yaml_document_t doc;
	bool loaded;
};

yaml_node_t *hg_yaml_root(struct hg_yaml *y);
/* Value node of `key` in a mapping node, or NULL. */
yaml_node_t *hg_yaml_get(struct hg_yaml *y, yaml_node_t *map, const char *key);
/* Key node of `key` in a mapping node, or NULL. */
yaml_node_t *hg_yaml_get_key(struct hg_yaml *y, yaml_node_t *map, const char *key);
yaml_node_t *hg_yaml_item(struct hg_yaml *y, yaml_node_t *seq, size_t i);
size_t hg_yaml_length(const yaml_node_t *seq);
/* Text of a scalar node (NULL for other kinds). */
const char *hg_yaml_scalar(const yaml_node_t *n);
/* "a mapping", "a list", "a scalar" (or "an empty value"). */
const char *hg_yaml_kind(const yaml_node_t *n);
bool hg_yaml_is_null(const yaml_node_t *n);

/* The node at `path` (grammar below), or NULL when the file lacks it. */
yaml_node_t *hg_yaml_find(struct hg_yaml *y, const char *path);
/* Line and column (1-based) of the node at `path`, or of its nearest
 * ancestor present in the file.  Path grammar: key(.key|[N])* */
void hg_yaml_locate(struct hg_yaml *y, const char *path, unsigned *line, unsigned *col);
static inline unsigned hg_yaml_line(const yaml_node_t *n) { return (unsigned)n->start_mark.line + 1; }
static inline unsigned hg_yaml_col(const yaml_node_t *n) { return (unsigned)n->start_mark.column + 1; }

/* Appends ".key" (or "[index]" when key is NULL) to base; the root is "". */
void hg_path_join(char *out, size_t size, const char *base, const char *key, long index);

/* Adds an error at `path`, positioned with hg_yaml_locate. */
void hg_yaml_error(struct hg_yaml *y, struct hg_diags *d, const char *path,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Adds an error positioned at a node. */
void hg_yaml_error_at(struct hg_diags *d, const yaml_node_t *n, const char *path,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
