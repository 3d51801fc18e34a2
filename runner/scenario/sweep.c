/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Applying sweep overrides to a YAML document and checking every point. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/sweep.h"

#define MAX_CHECKED_POINTS 4096
/* Checking loads the scenario (without its sweep:) once per value and per
 * checked combination, at about 5 MiB of YAML per second here: every value
 * must be checked within MAX_VALUE_CHECK_BYTES (or the grid is refused), and
 * combinations are checked while MAX_POINT_CHECK_BYTES lasts (each run
 * checks its own point again before it starts).  Together they keep
 * `validate` under a second for any grid. */
#define MAX_VALUE_CHECK_BYTES (3u << 20)
#define MAX_POINT_CHECK_BYTES (2u << 20)

size_t hg_sweep_n_points(const struct hg_sweep_plan *sp)
{
	size_t n = 1;
	for (size_t i = 0; i < sp->n_axes; i++) {
		size_t k = sp->axes[i].n_values ? sp->axes[i].n_values : 1;
		if (__builtin_mul_overflow(n, k, &n))
			return SIZE_MAX;
	}
	return sp->n_axes ? n : 0;
}

size_t hg_sweep_coord(const struct hg_sweep_plan *sp, size_t point, size_t axis)
{
	for (size_t i = sp->n_axes; i-- > axis + 1;)
		point /= sp->axes[i].n_values;
	return point % sp->axes[axis].n_values;
}

/* ---- editing the document (by node id: adding nodes moves them) -------- */

static int node_id(yaml_document_t *doc, yaml_node_t *n)
{
	return (int)(n - doc->nodes.start) + 1;
}

static int add_scalar(yaml_document_t *doc, const char *text)
{
	return yaml_document_add_scalar(doc, NULL, (yaml_char_t *)text, -1,
					YAML_ANY_SCALAR_STYLE);
}

static yaml_node_pair_t *pair_of(yaml_document_t *doc, int map, const char *key)
{
	yaml_node_t *m = yaml_document_get_node(doc, map);
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		if (k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return p;
	}
	return NULL;
}

/* Sets map[key] = value node; adds the key when missing. */
static int set_key(yaml_document_t *doc, int map, const char *key, int value)
{
	yaml_node_pair_t *p = pair_of(doc, map, key);
	if (p) {
		p->value = value;
		return 0;
	}
	int k = add_scalar(doc, key);
	return k && yaml_document_append_mapping_pair(doc, map, k, value) ? 0 : -1;
}

/* The mapping at map[key], created when missing; 0 when it is not a mapping. */
static int child_mapping(yaml_document_t *doc, int map, const char *key)
{
	yaml_node_pair_t *p = pair_of(doc, map, key);
	if (p) {
		yaml_node_t *v = yaml_document_get_node(doc, p->value);
		return v->type == YAML_MAPPING_NODE ? p->value : 0;
	}
	int m = yaml_document_add_mapping(doc, NULL, YAML_BLOCK_MAPPING_STYLE);
	return m && set_key(doc, map, key, m) == 0 ? m : 0;
}

/* threads[NAME] / loads[NAME]: the list item whose name is NAME; else,
 * when NAME is a number N, the N-th item (threads[0], as errors name it). */
static int named_item(yaml_document_t *doc, int root, const char *list, const char *name)
{
	yaml_node_pair_t *p = pair_of(doc, root, list);
	yaml_node_t *seq = p ? yaml_document_get_node(doc, p->value) : NULL;
	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		return 0;
	int index = hg_item_index(name);
	for (yaml_node_item_t *i = seq->data.sequence.items.start; i < seq->data.sequence.items.top; i++) {
		yaml_node_t *item = yaml_document_get_node(doc, *i);
		if (item->type != YAML_MAPPING_NODE)
			continue;
		yaml_node_pair_t *n = pair_of(doc, *i, "name");
		yaml_node_t *v = n ? yaml_document_get_node(doc, n->value) : NULL;
		if (v && v->type == YAML_SCALAR_NODE && !strcmp((char *)v->data.scalar.value, name))
			return *i;
	}
	yaml_node_item_t *at = seq->data.sequence.items.start + index;
	if (index >= 0 && at < seq->data.sequence.items.top &&
	    yaml_document_get_node(doc, *at)->type == YAML_MAPPING_NODE)
		return *at;
	return 0;
}

int hg_item_index(const char *name)
{
	size_t len = strspn(name, "0123456789");
	return len && len < 7 && !name[len] ? atoi(name) : -1;
}

/* A sequence node of the values written in `text`: a flow list "[a, b]"
 * or one value.  0 with err set when it is neither. */
static int value_list(yaml_document_t *doc, const char *text, char err[HG_ERRLEN])
{
	yaml_parser_t parser;
	yaml_document_t v;
	int seq = 0;
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err, HG_ERRLEN, "out of memory");
		return 0;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	if (!yaml_parser_load(&parser, &v)) {
		snprintf(err, HG_ERRLEN, "'%.100s' is not a list of values such as [1ms, 2ms] (%.100s)",
			 text, parser.problem ? parser.problem : "YAML error");
		yaml_parser_delete(&parser);
		return 0;
	}
	yaml_node_t *root = yaml_document_get_root_node(&v);
	yaml_node_item_t *first = NULL, *end = NULL;
	if (root && root->type == YAML_SEQUENCE_NODE) {
		first = root->data.sequence.items.start;
		end = root->data.sequence.items.top;
	}
	bool ok = root && (root->type == YAML_SCALAR_NODE || first < end);
	for (yaml_node_item_t *i = first; ok && i < end; i++)
		ok = yaml_document_get_node(&v, *i)->type == YAML_SCALAR_NODE;
	if (!ok)
		snprintf(err, HG_ERRLEN, "'%.100s' is not a non-empty list of values such as "
			 "[1ms, 2ms]", text);
	else if ((seq = yaml_document_add_sequence(doc, NULL, YAML_FLOW_SEQUENCE_STYLE))) {
		if (root->type == YAML_SCALAR_NODE)
			yaml_document_append_sequence_item(doc, seq,
				add_scalar(doc, (char *)root->data.scalar.value));
		for (yaml_node_item_t *i = first; i < end; i++)
			yaml_document_append_sequence_item(doc, seq, add_scalar(doc,
				(char *)yaml_document_get_node(&v, *i)->data.scalar.value));
	}
	yaml_document_delete(&v);
	yaml_parser_delete(&parser);
	return seq;
}

/* sweep.repeat or sweep.grid.PATH (whose value is a list). */
static int apply_sweep(yaml_document_t *doc, const struct hg_override *ov, char err[HG_ERRLEN])
{
	int root = node_id(doc, yaml_document_get_root_node(doc));
	int sweep = child_mapping(doc, root, "sweep");
	const char *key = ov->path + 6;
	int map = sweep, value;
	if (!strncmp(key, "grid.", 5) && key[5]) {
		map = sweep ? child_mapping(doc, sweep, "grid") : 0;
		key += 5;
		value = map ? value_list(doc, ov->value, err) : 0;
		if (map && !value)
			return -1;
	} else if (!strcmp(key, "repeat")) {
		value = add_scalar(doc, ov->value);
	} else {
		snprintf(err, HG_ERRLEN, "cannot set '%.100s': only sweep.repeat and sweep.grid.PATH "
			 "can be set", ov->path);
		return -1;
	}
	if (!map) {
		snprintf(err, HG_ERRLEN, "cannot set '%.100s': sweep%s is not a mapping", ov->path,
			 sweep ? ".grid" : "");
		return -1;
	}
	if (!value || set_key(doc, map, key, value) != 0) {
		snprintf(err, HG_ERRLEN, "out of memory");
		return -1;
	}
	return 0;
}

static int apply_one(yaml_document_t *doc, const struct hg_override *ov, char err[HG_ERRLEN])
{
	if (!strncmp(ov->path, "sweep.", 6))
		return apply_sweep(doc, ov, err);
	int map = node_id(doc, yaml_document_get_root_node(doc));
	char path[256];
	snprintf(path, sizeof(path), "%s", ov->path);
	char *rest = path;
	char *open = strchr(path, '[');
	if (open) {
		char *close = strchr(open, ']');
		if (!close || close[1] != '.') {
			snprintf(err, HG_ERRLEN, "cannot sweep '%.200s'", ov->path);
			return -1;
		}
		*open = *close = '\0';
		map = named_item(doc, map, path, open + 1);
		if (!map) {
			snprintf(err, HG_ERRLEN, "cannot sweep '%.100s': no %.10s is named '%.60s'", ov->path,
				 path, open + 1);
			return -1;
		}
		rest = close + 2;
	}
	for (char *dot; (dot = strchr(rest, '.')); rest = dot + 1) {
		*dot = '\0';
		map = child_mapping(doc, map, rest);
		if (!map) {
			snprintf(err, HG_ERRLEN, "cannot sweep '%.100s': '%.60s' is not a mapping",
				 ov->path, rest);
			return -1;
		}
	}
	int value = add_scalar(doc, ov->value);
	if (!value || set_key(doc, map, rest, value) != 0) {
		snprintf(err, HG_ERRLEN, "out of memory");
		return -1;
	}
	return 0;
}

static void drop_key(yaml_document_t *doc, const char *key)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);
	yaml_node_pair_t *p = pair_of(doc, node_id(doc, root), key);
	if (!p)
		return;
	memmove(p, p + 1, (size_t)(root->data.mapping.pairs.top - p - 1) * sizeof(*p));
	root->data.mapping.pairs.top--;
}

struct buffer {
	char *data;
	size_t len, cap;
};

static int append(void *ctx, unsigned char *bytes, size_t size)
{
	struct buffer *b = ctx;
	if (b->len + size + 1 > b->cap) {
		size_t cap = (b->len + size + 1) * 2;
		char *more = realloc(b->data, cap);
		if (!more)
			return 0;
		b->data = more;
		b->cap = cap;
	}
	memcpy(b->data + b->len, bytes, size);
	b->len += size;
	b->data[b->len] = '\0';
	return 1;
}

/* Writes the document out as text (this consumes the document). */
static char *emit(yaml_document_t *doc)
{
	yaml_emitter_t e;
	struct buffer b = { NULL, 0, 0 };
	if (!yaml_emitter_initialize(&e)) {
		yaml_document_delete(doc);
		return NULL;
	}
	yaml_emitter_set_output(&e, append, &b);
	yaml_emitter_set_unicode(&e, 1);
	int ok = yaml_emitter_open(&e) && yaml_emitter_dump(&e, doc) && yaml_emitter_close(&e);
	yaml_emitter_delete(&e);
	if (!ok) {
		free(b.data);
		return NULL;
	}
	return b.data;
}

char *hg_sweep_apply(const char *text, const struct hg_override *ov, size_t n,
		     char err[HG_ERRLEN])
{
	return hg_scenario_edit(text, ov, n, false, NULL, err);
}

char *hg_scenario_edit(const char *text, const struct hg_override *ov, size_t n,
		       bool keep_sweep, size_t *failed, char err[HG_ERRLEN])
{
	struct hg_yaml y;
	struct hg_diags d;
	hg_diags_init(&d, "");
	if (hg_yaml_open_string(&y, text, &d) != 0) {
		snprintf(err, HG_ERRLEN, "%.200s", d.count ? d.items[0].message : "cannot parse");
		hg_yaml_close(&y);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (apply_one(&y.doc, &ov[i], err) != 0) {
			if (failed)
				*failed = i;
			hg_yaml_close(&y);
			return NULL;
		}
	}
	if (!keep_sweep)
		drop_key(&y.doc, "sweep");
	char *out = emit(&y.doc);
	y.loaded = false;   /* emit() consumed the document */
	hg_yaml_close(&y);
	if (!out)
		snprintf(err, HG_ERRLEN, "cannot write the swept scenario out");
	return out;
}

/* ---- checking ----------------------------------------------------------- */

/* The value node of axis a, value v, in the file (for the error's position). */
static yaml_node_t *value_node(struct hg_yaml *y, size_t a, size_t v)
{
	yaml_node_t *grid = hg_yaml_find(y, "sweep.grid");
	if (!grid || grid->type != YAML_MAPPING_NODE)
		return grid;
	yaml_node_pair_t *p = grid->data.mapping.pairs.start + a;
	yaml_node_t *list = yaml_document_get_node(&y->doc, p->value);
	yaml_node_t *item = hg_yaml_item(y, list, v);
	return item ? item : list;
}

struct point_check {
	struct hg_yaml *y;
	const char *base;        /* the scenario without sweep: */
	size_t base_len, budget; /* bytes left to load */
	hg_point_loader load;
	const struct hg_plugins *plugins;
	struct hg_diags *d;
};

/* Loads one point; returns 0 or adds one error at `where`. */
static int check_point(struct point_check *c, const struct hg_override *ov, size_t n,
		       yaml_node_t *where, const char *path, const char *label)
{
	char err[HG_ERRLEN];
	char *text = hg_sweep_apply(c->base, ov, n, err);
	if (!text) {
		hg_yaml_error_at(c->d, where, path, "%s", err);
		return -1;
	}
	c->budget -= c->budget > c->base_len ? c->base_len : c->budget;
	struct hg_diags pd;
	struct hg_plan *plan = c->load(c->d->file, text, c->plugins, &pd);
	free(text);
	if (plan) {
		hg_plan_free(plan);
		return 0;
	}
	const struct hg_diag *e = &pd.items[0];
	hg_yaml_error_at(c->d, where, path, "with %s: %s%s%s", label, e->path,
			 e->path[0] ? ": " : "", e->message);
	return -1;
}

/* The size of the grid, refused before anything is expanded. */
static int check_size(struct hg_yaml *y, const struct hg_sweep_plan *sp, size_t base_len,
		      struct hg_diags *d)
{
	size_t values = 0, points = hg_sweep_n_points(sp), runs, longest = 0;
	for (size_t a = 0; a < sp->n_axes; a++) {
		values += sp->axes[a].n_values;
		longest = strlen(sp->axes[a].path) > longest ? strlen(sp->axes[a].path) : longest;
		for (size_t v = 0; v < sp->axes[a].n_values; v++)
			if (strlen(sp->axes[a].values[v]) > longest)
				longest = strlen(sp->axes[a].values[v]);
	}
	if (sp->n_axes > HG_SWEEP_MAX_AXES)
		hg_yaml_error(y, d, "sweep.grid", "%zu axes: a sweep has at most %d; sweep fewer "
			      "parameters at once", sp->n_axes, HG_SWEEP_MAX_AXES);
	else if (points > HG_SWEEP_MAX_POINTS)
		hg_yaml_error(y, d, "sweep.grid", "the grid has %s%zu points: at most %d; use fewer "
			      "values or split the sweep into several files",
			      points == SIZE_MAX ? "more than " : "", points == SIZE_MAX ?
			      (size_t)HG_SWEEP_MAX_POINTS : points, HG_SWEEP_MAX_POINTS);
	else if (__builtin_mul_overflow(points, (size_t)sp->repeat, &runs) ||
		 runs > HG_SWEEP_MAX_RUNS)
		hg_yaml_error(y, d, "sweep.repeat", "%zu points x %u repeats is more than %d runs; "
			      "lower repeat or the grid", points, sp->repeat, HG_SWEEP_MAX_RUNS);
	else if (values > HG_SWEEP_MAX_VALUES)
		hg_yaml_error(y, d, "sweep.grid", "%zu values in all: a sweep has at most %d; use "
			      "fewer values or split the sweep into several files",
			      values, HG_SWEEP_MAX_VALUES);
	else if (longest > HG_SWEEP_MAX_LABEL)
		hg_yaml_error(y, d, "sweep.grid", "a path or value of %zu bytes: at most %d each",
			      longest, HG_SWEEP_MAX_LABEL);
	else if (base_len && values > MAX_VALUE_CHECK_BYTES / base_len)
		hg_yaml_error(y, d, "sweep.grid", "%zu values over a scenario of %zu bytes: too "
			      "much to check (each value loads the scenario; at most %zu values "
			      "at this size); use fewer values, split the sweep into several "
			      "files, or shorten the scenario", values, base_len,
			      (size_t)(MAX_VALUE_CHECK_BYTES / base_len));
	else
		return 0;
	return -1;
}

void hg_sweep_check(struct hg_yaml *y, const struct hg_plan *plan, hg_point_loader load,
		    const struct hg_plugins *plugins, struct hg_diags *d)
{
	const struct hg_sweep_plan *sp = &plan->sweep;
	char path[256], label[512], err[HG_ERRLEN];
	size_t before = d->count;
	/* Points are made from the text without sweep:, written out once, so
	 * a long grid is not parsed again for every value. */
	char *base = hg_sweep_apply(y->text, NULL, 0, err);
	if (!base) {
		hg_yaml_error(y, d, "sweep", "%s", err);
		return;
	}
	struct point_check c = { y, base, strlen(base), MAX_VALUE_CHECK_BYTES, load, plugins, d };
	if (check_size(y, sp, c.base_len, d) != 0)
		goto out;
	/* Each value on its own: errors land on the value that causes them. */
	for (size_t a = 0; a < sp->n_axes; a++) {
		for (size_t v = 0; v < sp->axes[a].n_values && d->count < HG_DIAG_MAX; v++) {
			struct hg_override ov = { sp->axes[a].path, sp->axes[a].values[v] };
			snprintf(path, sizeof(path), "sweep.grid.%s[%zu]", ov.path, v);
			snprintf(label, sizeof(label), "%s = %s", ov.path, ov.value);
			check_point(&c, &ov, 1, value_node(y, a, v), path, label);
		}
	}
	if (d->count != before || sp->n_axes < 2)
		goto out;
	/* Then the combinations (exec and period swept together, say), as many
	 * as the budget allows. */
	size_t n = hg_sweep_n_points(sp);
	c.budget = MAX_POINT_CHECK_BYTES;
	struct hg_override *ov = calloc(sp->n_axes, sizeof(*ov));
	for (size_t p = 0; ov && p < n && p < MAX_CHECKED_POINTS && c.budget >= c.base_len; p++) {
		size_t used = 0;
		for (size_t a = 0; a < sp->n_axes; a++) {
			size_t v = hg_sweep_coord(sp, p, a);
			ov[a].path = sp->axes[a].path;
			ov[a].value = sp->axes[a].values[v];
			used += (size_t)snprintf(label + used, sizeof(label) - used, "%s%s = %s",
						 a ? ", " : "", ov[a].path, ov[a].value);
			if (used >= sizeof(label))
				used = sizeof(label) - 1;
		}
		snprintf(path, sizeof(path), "sweep.grid");
		if (check_point(&c, ov, sp->n_axes, hg_yaml_find(y, "sweep.grid"), path, label))
			break;   /* one bad combination is enough to say */
	}
	free(ov);
out:
	free(base);
}
