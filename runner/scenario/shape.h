/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shape check: walks the YAML nodes alongside the libcyaml schema and
 * reports, with exact marks, what libcyaml would only refuse vaguely:
 * unknown keys (with "did you mean"), a list where a value belongs, missing
 * required keys, empty values. */
#ifndef HG_SHAPE_H
#define HG_SHAPE_H

#include <cyaml/cyaml.h>

#include "scenario/diag.h"
#include "scenario/yamldoc.h"

/* Returns the number of errors added. */
size_t hg_shape_check(struct hg_yaml *y, const cyaml_schema_value_t *schema,
		      struct hg_diags *d);

/* A single, non-empty value at path: else an error, and false. */
bool hg_shape_scalar(struct hg_yaml *y, yaml_node_t *n, const char *path, struct hg_diags *d);

/* For the values libcyaml leaves to hgrun (priority mappings, exec
 * distributions): every key of `map` must be one of `keys`.  Returns the
 * number of errors added. */
size_t hg_shape_keys(struct hg_yaml *y, yaml_node_t *map, const char *path,
		     const char *const *keys, size_t n_keys, struct hg_diags *d);

#endif
