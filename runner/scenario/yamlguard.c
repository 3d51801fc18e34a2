/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bounds on what a scenario file can make hgrun do, checked on libyaml's
 * token stream before the document is built, and the duplicate-key check
 * (a hash set per mapping: linear in the number of keys). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/yamlguard.h"

/* libyaml's scanner takes time proportional to the flow nesting for every
 * token (it re-checks each open simple key), so deep [[[[ is quadratic.
 * The scan below stops at the first token past the limit, so its own cost
 * is bounded by the limit, not by the file. */
int hg_yaml_guard(const char *text, size_t len, struct hg_diags *d)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		hg_diag_add(d, 0, 0, NULL, "cannot initialise the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	unsigned flow = 0, depth = 0;
	int rc = 0;
	for (;;) {
		yaml_token_t t;
		if (!yaml_parser_scan(&p, &t))
			break;      /* the syntax error is reported by the real parse */
		unsigned line = (unsigned)t.start_mark.line + 1;
		unsigned col = (unsigned)t.start_mark.column + 1;
		yaml_token_type_t type = t.type;
		yaml_token_delete(&t);
		if (type == YAML_STREAM_END_TOKEN)
			break;
		switch (type) {
		case YAML_FLOW_SEQUENCE_START_TOKEN:
		case YAML_FLOW_MAPPING_START_TOKEN:
			flow++;
			depth++;
			if (flow > HG_YAML_MAX_FLOW_DEPTH) {
				hg_diag_add(d, line, col, NULL, "YAML nested more than %d levels deep: "
					    "no scenario needs that", HG_YAML_MAX_FLOW_DEPTH);
				rc = -1;
			}
			break;
		case YAML_FLOW_SEQUENCE_END_TOKEN:
		case YAML_FLOW_MAPPING_END_TOKEN:
			flow -= flow > 0;
			depth -= depth > 0;
			break;
		case YAML_BLOCK_SEQUENCE_START_TOKEN:
		case YAML_BLOCK_MAPPING_START_TOKEN:
			depth++;
			break;
		case YAML_BLOCK_END_TOKEN:
			depth -= depth > 0;
			break;
		case YAML_ALIAS_TOKEN:
			/* An alias re-uses a node: a few of them nest into billions
			 * of values ("billion laughs").  No scenario needs them. */
			hg_diag_add(d, line, col, NULL, "YAML aliases (*name) are not allowed in a "
				    "scenario: write the value out, or put shared thread settings "
				    "under 'defaults:'");
			rc = -1;
			break;
		default:
			break;
		}
		if (rc == 0 && depth > HG_YAML_MAX_DEPTH) {
			hg_diag_add(d, line, col, NULL, "YAML nested more than %d levels deep: "
				    "no scenario needs that", HG_YAML_MAX_DEPTH);
			rc = -1;
		}
		if (rc)
			break;
	}
	yaml_parser_delete(&p);
	return rc;
}

/* ---- duplicate keys ----------------------------------------------------- */

static uint64_t hash_text(const char *s)
{
	uint64_t h = 14695981039346656037ull;     /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* One mapping's keys: the first pair of each key text, or a duplicate. */
static void check_mapping_keys(struct hg_yaml *y, yaml_node_t *n, const char *path,
			       struct hg_diags *d)
{
	size_t pairs = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	size_t size = 8;
	while (size < 2 * pairs)
		size *= 2;
	yaml_node_t **slots = calloc(size, sizeof(*slots));
	if (!slots) {
		hg_diag_add(d, 0, 0, NULL, "out of memory");
		return;
	}
	char sub[256];
	for (yaml_node_pair_t *a = n->data.mapping.pairs.start; a < n->data.mapping.pairs.top; a++) {
		yaml_node_t *key = yaml_document_get_node(&y->doc, a->key);
		const char *ka = hg_yaml_scalar(key);
		if (!ka)
			continue;
		size_t i = (size_t)hash_text(ka) & (size - 1);
		while (slots[i] && strcmp(hg_yaml_scalar(slots[i]), ka) != 0)
			i = (i + 1) & (size - 1);
		if (!slots[i]) {
			slots[i] = key;
			continue;
		}
		hg_path_join(sub, sizeof(sub), path, ka, 0);
		hg_yaml_error_at(d, key, sub, "duplicate key (first given at line %u); keep one",
				 hg_yaml_line(slots[i]));
	}
	free(slots);
}

static void check_duplicates(struct hg_yaml *y, yaml_node_t *n, const char *path, int depth,
			     struct hg_diags *d)
{
	char sub[256];
	if (!n || depth > HG_YAML_MAX_DEPTH)
		return;
	if (n->type == YAML_SEQUENCE_NODE) {
		for (size_t i = 0; i < hg_yaml_length(n); i++) {
			hg_path_join(sub, sizeof(sub), path, NULL, (long)i);
			check_duplicates(y, hg_yaml_item(y, n, i), sub, depth + 1, d);
		}
		return;
	}
	if (n->type != YAML_MAPPING_NODE)
		return;
	check_mapping_keys(y, n, path, d);
	for (yaml_node_pair_t *a = n->data.mapping.pairs.start; a < n->data.mapping.pairs.top; a++) {
		const char *ka = hg_yaml_scalar(yaml_document_get_node(&y->doc, a->key));
		hg_path_join(sub, sizeof(sub), path, ka ? ka : "?", 0);
		check_duplicates(y, yaml_document_get_node(&y->doc, a->value), sub, depth + 1, d);
	}
}

int hg_yaml_check_duplicates(struct hg_yaml *y, struct hg_diags *d)
{
	size_t before = d->count;
	check_duplicates(y, hg_yaml_root(y), "", 0, d);
	return d->count == before ? 0 : -1;
}
