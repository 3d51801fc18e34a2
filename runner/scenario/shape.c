/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shape check of the YAML tree against the libcyaml schema. */
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "scenario/shape.h"

static size_t field_count(const cyaml_schema_field_t *f)
{
	size_t n = 0;
	while (f[n].key)
		n++;
	return n;
}

static void unknown_key(yaml_node_t *key, const char *word, const char *path,
			const char *const *names, size_t n, struct hg_diags *d)
{
	char hint[600];
	if (strcmp(word, "<<") == 0)
		hg_yaml_error_at(d, key, path,
				 "YAML merge keys are not supported; put shared thread settings under 'defaults:'");
	else
		hg_yaml_error_at(d, key, path, "unknown key '%s'%s", word,
				 hg_unknown_hint(word, names, n, hint, sizeof(hint)));
}

size_t hg_shape_keys(struct hg_yaml *y, yaml_node_t *map, const char *path,
		     const char *const *keys, size_t n_keys, struct hg_diags *d)
{
	size_t before = d->count;
	char sub[256];
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *key = yaml_document_get_node(&y->doc, p->key);
		const char *word = hg_yaml_scalar(key);
		if (!word) {
			hg_yaml_error_at(d, key, path, "a key must be a plain name, not %s",
					 hg_yaml_kind(key));
			continue;
		}
		bool known = false;
		for (size_t i = 0; i < n_keys && !known; i++)
			known = strcmp(keys[i], word) == 0;
		if (!known) {
			hg_path_join(sub, sizeof(sub), path, word, 0);
			unknown_key(key, word, sub, keys, n_keys, d);
		}
	}
	return d->count - before;
}

static void check_value(struct hg_yaml *y, yaml_node_t *n, const cyaml_schema_value_t *s,
			const char *path, struct hg_diags *d);

bool hg_shape_scalar(struct hg_yaml *y, yaml_node_t *n, const char *path, struct hg_diags *d)
{
	if (n->type != YAML_SCALAR_NODE)
		hg_yaml_error_at(d, n, path, "expected a single value, got %s", hg_yaml_kind(n));
	else if (hg_yaml_is_null(n))
		hg_yaml_error_at(d, n, path, "empty value: give one or remove the key");
	else
		return true;
	return false;
}

/* Keys first (unknown ones, with a suggestion), then each known key's
 * value against its schema, then the required keys that are missing. */
static void check_mapping(struct hg_yaml *y, yaml_node_t *n, const cyaml_schema_value_t *s,
			  const char *path, struct hg_diags *d)
{
	const cyaml_schema_field_t *fields = s->mapping.fields;
	size_t n_fields = field_count(fields);
	/* as many as the schema has: the plugins' keys make it grow */
	const char **names = calloc(n_fields ? n_fields : 1, sizeof(*names));
	char sub[256];
	if (!names) {
		hg_yaml_error_at(d, n, path, "out of memory");
		return;
	}
	for (size_t i = 0; i < n_fields; i++)
		names[i] = fields[i].key;
	hg_shape_keys(y, n, path, names, n_fields, d);
	free(names);
	for (size_t i = 0; i < n_fields; i++) {
		yaml_node_t *value = hg_yaml_get(y, n, fields[i].key);
		hg_path_join(sub, sizeof(sub), path, fields[i].key, 0);
		if (value)
			check_value(y, value, &fields[i].value, sub, d);
		else if (!(fields[i].value.flags & CYAML_FLAG_OPTIONAL))
			hg_yaml_error_at(d, n, sub, "missing required key '%s'", fields[i].key);
	}
}

static void check_value(struct hg_yaml *y, yaml_node_t *n, const cyaml_schema_value_t *s,
			const char *path, struct hg_diags *d)
{
	char sub[256];
	switch (s->type) {
	case CYAML_IGNORE:
		return;     /* several shapes allowed: scenario/resolve*.c decides */
	case CYAML_MAPPING:
		if (n->type != YAML_MAPPING_NODE) {
			hg_yaml_error_at(d, n, path, "expected a mapping of keys, got %s",
					 hg_yaml_kind(n));
			return;
		}
		check_mapping(y, n, s, path, d);
		return;
	case CYAML_SEQUENCE:
		if (n->type != YAML_SEQUENCE_NODE) {
			hg_yaml_error_at(d, n, path, "expected a list (- item per line), got %s",
					 hg_yaml_kind(n));
			return;
		}
		if (hg_yaml_length(n) < s->sequence.min) {
			hg_yaml_error_at(d, n, path, "needs at least %u entr%s", s->sequence.min,
					 s->sequence.min == 1 ? "y" : "ies");
			return;
		}
		for (size_t i = 0; i < hg_yaml_length(n); i++) {
			hg_path_join(sub, sizeof(sub), path, NULL, (long)i);
			check_value(y, hg_yaml_item(y, n, i), s->sequence.entry, sub, d);
		}
		return;
	default:
		hg_shape_scalar(y, n, path, d);
		return;
	}
}

size_t hg_shape_check(struct hg_yaml *y, const cyaml_schema_value_t *schema,
		      struct hg_diags *d)
{
	size_t before = d->count;
	yaml_node_t *root = hg_yaml_root(y);
	if (!root || root->type != YAML_MAPPING_NODE) {
		hg_yaml_error_at(d, root, NULL,
				 "a scenario is a mapping of keys (hgrun: 1, name: ..., threads: ...), not %s",
				 hg_yaml_kind(root));
		return d->count - before;
	}
	check_value(y, root, schema, "", d);
	return d->count - before;
}
