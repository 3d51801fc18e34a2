/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Walking a loaded document: node access, key paths and their marks, and
 * errors positioned at a node. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/yamlnode.h"

void hg_path_join(char *out, size_t size, const char *base, const char *key, long index)
{
	if (key)
		snprintf(out, size, "%s%s%s", base, *base ? "." : "", key);
	else
		snprintf(out, size, "%s[%ld]", base, index);
}

yaml_node_t *hg_yaml_root(struct hg_yaml *y)
{
	return y->loaded ? yaml_document_get_root_node(&y->doc) : NULL;
}

static yaml_node_pair_t *find_pair(struct hg_yaml *y, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		const char *k = hg_yaml_scalar(yaml_document_get_node(&y->doc, p->key));
		if (k && strcmp(k, key) == 0)
			return p;
	}
	return NULL;
}

yaml_node_t *hg_yaml_get(struct hg_yaml *y, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p = find_pair(y, map, key);
	return p ? yaml_document_get_node(&y->doc, p->value) : NULL;
}

yaml_node_t *hg_yaml_get_key(struct hg_yaml *y, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p = find_pair(y, map, key);
	return p ? yaml_document_get_node(&y->doc, p->key) : NULL;
}

size_t hg_yaml_length(const yaml_node_t *seq)
{
	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		return 0;
	return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

yaml_node_t *hg_yaml_item(struct hg_yaml *y, yaml_node_t *seq, size_t i)
{
	if (i >= hg_yaml_length(seq))
		return NULL;
	return yaml_document_get_node(&y->doc, seq->data.sequence.items.start[i]);
}

const char *hg_yaml_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

bool hg_yaml_is_null(const yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return false;
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = (const char *)n->data.scalar.value;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

const char *hg_yaml_kind(const yaml_node_t *n)
{
	if (!n)
		return "nothing";
	switch (n->type) {
	case YAML_MAPPING_NODE:
		return "a mapping";
	case YAML_SEQUENCE_NODE:
		return "a list";
	default:
		return hg_yaml_is_null(n) ? "an empty value" : "a single value";
	}
}

/* One step of a path: a key, or [N] on a list. */
static yaml_node_t *step(struct hg_yaml *y, yaml_node_t *n, const char **p)
{
	if (**p == '[') {
		char *end;
		unsigned long i = strtoul(*p + 1, &end, 10);
		if (*end != ']')
			return NULL;
		*p = end + 1;
		return hg_yaml_item(y, n, i);
	}
	char key[128];
	size_t len = strcspn(*p, ".[");
	if (len == 0 || len >= sizeof(key))
		return NULL;
	memcpy(key, *p, len);
	key[len] = '\0';
	*p += len;
	return hg_yaml_get(y, n, key);
}

yaml_node_t *hg_yaml_find(struct hg_yaml *y, const char *path)
{
	yaml_node_t *n = hg_yaml_root(y);
	const char *p = path;
	while (n && p && *p) {
		if (*p == '.')
			p++;
		n = step(y, n, &p);
	}
	return n;
}

void hg_yaml_locate(struct hg_yaml *y, const char *path, unsigned *line, unsigned *col)
{
	yaml_node_t *n = hg_yaml_root(y), *best = n;
	const char *p = path;
	while (n && p && *p) {
		if (*p == '.')
			p++;
		n = step(y, n, &p);
		if (n)
			best = n;
	}
	*line = best ? hg_yaml_line(best) : 0;
	*col = best ? hg_yaml_col(best) : 0;
}

void hg_yaml_error(struct hg_yaml *y, struct hg_diags *d, const char *path,
		   const char *fmt, ...)
{
	unsigned line, col;
	hg_yaml_locate(y, path, &line, &col);
	va_list ap;
	va_start(ap, fmt);
	hg_diag_vadd(d, line, col, path, fmt, ap);
	va_end(ap);
}

void hg_yaml_error_at(struct hg_diags *d, const yaml_node_t *n, const char *path,
		      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag_vadd(d, n ? hg_yaml_line(n) : 0, n ? hg_yaml_col(n) : 0, path, fmt, ap);
	va_end(ap);
}
