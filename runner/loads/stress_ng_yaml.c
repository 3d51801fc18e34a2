/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading stress-ng's --yaml output with libyaml.  The shape (stress-ng
 * 0.15, with --metrics-brief):
 *
 *   system-info:
 *         stress-ng-version: 0.15.06
 *         ...
 *   metrics:
 *       - stressor: cpu
 *         bogo-ops: 833
 *         bogo-ops-per-second-usr-sys-time: 1376.939162
 *         bogo-ops-per-second-real-time: 828.923077
 *         wall-clock-time: 1.004918
 *         user-time: 0.604965
 *         system-time: 0.000000
 *         cpu-usage-per-instance: 60.200414
 *         max-rss: 6508
 *
 * --metrics-brief lists only stressors with bogo-ops; unknown keys are
 * ignored, so newer versions' additions do not break it.  Only the two
 * top-level sections read here are handed to libyaml: stress-ng 0.19.02
 * (Debian 13) writes a `build-info:` section that is not valid YAML (its
 * `source-date-epoch` line is not indented, the lines after it are), which
 * would otherwise lose the metrics with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "loads/stress_ng_yaml.h"

static yaml_node_t *get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		if (k && k->type == YAML_SCALAR_NODE && strcmp((char *)k->data.scalar.value, key) == 0)
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

static const char *text(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static double number(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	const char *t = text(get(d, map, key));
	return t ? strtod(t, NULL) : 0.0;
}

static void metric(yaml_document_t *d, yaml_node_t *n, struct hg_stress_ng_metric *m)
{
	const char *name = text(get(d, n, "stressor"));
	const char *ops = text(get(d, n, "bogo-ops"));
	snprintf(m->stressor, sizeof(m->stressor), "%s", name ? name : "?");
	m->bogo_ops = ops ? strtoull(ops, NULL, 10) : 0;
	m->per_s_real = number(d, n, "bogo-ops-per-second-real-time");
	m->per_s_usr_sys = number(d, n, "bogo-ops-per-second-usr-sys-time");
	m->wall_s = number(d, n, "wall-clock-time");
	m->user_s = number(d, n, "user-time");
	m->system_s = number(d, n, "system-time");
	m->cpu_usage_per_instance = number(d, n, "cpu-usage-per-instance");
	m->max_rss_kib = (uint64_t)number(d, n, "max-rss");
}

/* Whether the top-level line at p (n bytes, no newline) opens a section read here. */
static int wanted_section(const char *p, size_t n)
{
	static const char *const keep[] = { "system-info:", "metrics:" };
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		size_t k = strlen(keep[i]);
		if (n >= k && !memcmp(p, keep[i], k))
			return 1;
	}
	return 0;
}

/* Copies into out the document markers ("---", "...") and the top-level
 * sections read here, each with its indented lines; returns the length.  out
 * holds len bytes. */
static size_t keep_sections(const char *buf, size_t len, char *out)
{
	size_t o = 0;
	int keeping = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;
		const char *p = buf + i;
		if (n >= 3 && (!memcmp(p, "---", 3) || !memcmp(p, "...", 3)))
			keeping = 2;                    /* the marker line alone */
		else if (n > 0 && p[0] != ' ' && p[0] != '\t' && p[0] != '#')
			keeping = wanted_section(p, n);
		if (keeping) {
			size_t take = nl ? n + 1 : n;
			memcpy(out + o, p, take);
			o += take;
		}
		if (keeping == 2)
			keeping = 0;
		i += nl ? n + 1 : n;
	}
	return o;
}

int hg_stress_ng_parse(const char *buf, size_t len, struct hg_stress_ng_report *r, char *err,
		       size_t errlen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	memset(r, 0, sizeof(*r));
	char *kept = malloc(len + 1);
	if (!kept || !yaml_parser_initialize(&parser)) {
		free(kept);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	size_t klen = keep_sections(buf, len, kept);
	yaml_parser_set_input_string(&parser, (const unsigned char *)kept, klen);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "not YAML: %s at line %zu", parser.problem ? parser.problem : "?",
			 parser.problem_mark.line + 1);
		yaml_parser_delete(&parser);
		free(kept);
		return -1;
	}
	int rc = 0;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	yaml_node_t *metrics = get(&doc, root, "metrics");
	const char *version = text(get(&doc, get(&doc, root, "system-info"), "stress-ng-version"));
	snprintf(r->version, sizeof(r->version), "%s", version ? version : "");
	if (!root) {
		snprintf(err, errlen, "empty (stress-ng was stopped before it wrote its metrics)");
		rc = -1;
	} else if (doc.end_implicit) {   /* stress-ng ends its output with "..." */
		snprintf(err, errlen, "incomplete (no '...' at its end: stress-ng was stopped "
			 "while writing it)");
		rc = -1;
	} else if (metrics && metrics->type != YAML_SEQUENCE_NODE) {
		snprintf(err, errlen, "'metrics' is not a list");
		rc = -1;
	}
	for (yaml_node_item_t *i = metrics && rc == 0 ? metrics->data.sequence.items.start : NULL;
	     i && i < metrics->data.sequence.items.top && r->n < HG_STRESS_NG_MAX_METRICS; i++)
		metric(&doc, yaml_document_get_node(&doc, *i), &r->m[r->n++]);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	free(kept);
	return rc;
}
