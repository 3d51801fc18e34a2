/* sweep.json: built with jansson, compared key by key so a refusal names
 * the first difference ("scenario.threads[0].priority: 80 here, 70 in
 * sweep.json"). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fsutil.h"
#include "plan/plan_json.h"
#include "scenario/sweep.h"
#include "sweep/sweep_index.h"

void hg_sweep_point_id(size_t n_points, size_t p, char out[32])
{
	int width = snprintf(NULL, 0, "%zu", n_points ? n_points - 1 : 0);
	snprintf(out, 32, "p%0*zu", width < 3 ? 3 : width, p);
}

json_t *hg_sweep_point_values(const struct hg_sweep_plan *sp, size_t p)
{
	json_t *o = json_object();
	for (size_t a = 0; a < sp->n_axes; a++)
		json_object_set_new(o, sp->axes[a].path,
				    json_string(sp->axes[a].values[hg_sweep_coord(sp, p, a)]));
	return o;
}

json_t *hg_sweep_index(const struct hg_plan *base, const char *source, json_t *overrides)
{
	const struct hg_sweep_plan *sp = &base->sweep;
	size_t n_points = hg_sweep_n_points(sp);
	json_t *axes = json_array(), *points = json_array();
	for (size_t a = 0; a < sp->n_axes; a++) {
		json_t *values = json_array();
		for (size_t v = 0; v < sp->axes[a].n_values; v++)
			json_array_append_new(values, json_string(sp->axes[a].values[v]));
		json_array_append_new(axes, json_pack("{s:s, s:o}", "path", sp->axes[a].path,
						      "values", values));
	}
	for (size_t p = 0; p < n_points; p++) {
		char id[32], run[64];
		json_t *runs = json_array();
		hg_sweep_point_id(n_points, p, id);
		for (unsigned r = 0; r < sp->repeat; r++) {
			snprintf(run, sizeof(run), "%s/r%u", id, r);
			json_array_append_new(runs, json_string(run));
		}
		json_array_append_new(points, json_pack("{s:I, s:s, s:o, s:o}", "index", (json_int_t)p,
			"id", id, "overrides", hg_sweep_point_values(sp, p), "runs", runs));
	}
	return json_pack("{s:s, s:s, s:s, s:o, s:O, s:o, s:i, s:I, s:o}",
			 "format", "hgrun-sweep/1", "hgrun_version", HG_VERSION, "source", source,
			 "scenario", hg_plan_to_json(base), "overrides", overrides, "axes", axes,
			 "repeat", (int)sp->repeat, "runs", (json_int_t)(n_points * sp->repeat),
			 "points", points);
}

json_t *hg_sweep_index_read(const char *dir, bool *missing, char *err, size_t errlen)
{
	char path[PATH_MAX];
	json_error_t je;
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	*missing = false;
	json_t *index = json_load_file(path, 0, &je);
	if (!index) {
		FILE *f = fopen(path, "r");
		*missing = !f && errno == ENOENT;
		if (f)
			fclose(f);
		if (*missing)
			snprintf(err, errlen, "%s has no sweep.json: not a sweep directory", dir);
		else
			snprintf(err, errlen, "%s: line %d: %s", path, je.line, je.text);
		return NULL;
	}
	if (!json_is_object(index) || strcmp(json_string_value(json_object_get(index, "format"))
					     ? json_string_value(json_object_get(index, "format")) : "",
					     "hgrun-sweep/1") != 0) {
		snprintf(err, errlen, "%s: not an hgrun-sweep/1 index", path);
		json_decref(index);
		return NULL;
	}
	return index;
}

int hg_sweep_index_write(const char *dir, json_t *index)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	char *text = json_dumps(index, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	int rc = text ? hg_write_atomic(path, text, strlen(text)) : -ENOMEM;
	free(text);
	return rc;
}

static void shorten(json_t *v, char *out, size_t size)
{
	char *text = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	snprintf(out, size, "%.60s%s", text ? text : "nothing",
		 text && strlen(text) > 60 ? "..." : "");
	free(text);
}

/* The path of the first difference between a and b into path, the two
 * values there into *da and *db. */
static bool differ(json_t *a, json_t *b, char *path, size_t size, json_t **da, json_t **db)
{
	size_t len = strlen(path);
	if (!a && !b)
		return false;
	if (a && b && json_is_object(a) && json_is_object(b)) {
		const char *key;
		json_t *v;
		json_object_foreach(a, key, v) {
			snprintf(path + len, size - len, ".%s", key);
			if (differ(v, json_object_get(b, key), path, size, da, db))
				return true;
		}
		json_object_foreach(b, key, v) {
			snprintf(path + len, size - len, ".%s", key);
			if (differ(json_object_get(a, key), v, path, size, da, db))
				return true;
		}
		path[len] = '\0';
		return false;
	}
	if (a && b && json_is_array(a) && json_is_array(b) && json_array_size(a) == json_array_size(b)) {
		for (size_t i = 0; i < json_array_size(a); i++) {
			snprintf(path + len, size - len, "[%zu]", i);
			if (differ(json_array_get(a, i), json_array_get(b, i), path, size, da, db))
				return true;
		}
		path[len] = '\0';
		return false;
	}
	*da = a;
	*db = b;
	return !(a && b && json_equal(a, b));
}

const char *hg_sweep_index_differs(json_t *recorded, json_t *now, const char *recorded_name,
				   const char *now_name, char *buf, size_t size)
{
	static const char *const keys[] = { "scenario", "axes", "repeat", "overrides" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char path[512], rv[80], nv[80];
		json_t *da = NULL, *db = NULL, *none = json_object();
		json_t *r = json_object_get(recorded, keys[i]);
		snprintf(path, sizeof(path), "%s", keys[i]);
		/* An index written before --set existed has no overrides: none. */
		bool same = !differ(r || strcmp(keys[i], "overrides") ? r : none,
				    json_object_get(now, keys[i]), path, sizeof(path), &da, &db);
		shorten(da, rv, sizeof(rv));
		shorten(db, nv, sizeof(nv));
		json_decref(none);
		if (same)
			continue;
		snprintf(buf, size, "%s: %.100s has %s, %.100s has %s", path, recorded_name, rv,
			 now_name, nv);
		return buf;
	}
	return NULL;
}

bool hg_sweep_run_complete(const char *dir, const char *run)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s/result.json", dir, run);
	json_t *r = json_load_file(path, 0, NULL);
	bool complete = json_is_true(json_object_get(r, "complete"));
	json_decref(r);
	return complete;
}
