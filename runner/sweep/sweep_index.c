/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep.json: built with jansson, compared key by key so a refusal names
 * the first difference ("scenario.threads[0].priority: 80 here, 70 in
 * sweep.json"). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/jsonfile.h"
#include "base/sha256.h"
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
	json_t *index = json_pack("{s:s, s:s, s:s, s:o, s:O, s:o, s:i, s:I, s:o}",
			 "format", "hgrun-sweep/1", "hgrun_version", HG_VERSION, "source", source,
			 "scenario", hg_plan_to_json(base), "overrides", overrides, "axes", axes,
			 "repeat", (int)sp->repeat, "runs", (json_int_t)(n_points * sp->repeat),
			 "points", points);
	char id[65];
	hg_sweep_id(index, id);
	json_object_set_new(index, "id", json_string(id));
	return index;
}

char *hg_sweep_identity(json_t *index)
{
	json_t *none = json_object(), *overrides = json_object_get(index, "overrides");
	json_t *id = json_pack("{s:O?, s:O?, s:O?, s:O}", "scenario",
			       json_object_get(index, "scenario"), "axes",
			       json_object_get(index, "axes"), "repeat",
			       json_object_get(index, "repeat"), "overrides", overrides ? overrides : none);
	char *text = id ? json_dumps(id, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(id);
	json_decref(none);
	return text;
}

void hg_sweep_id(json_t *index, char hex[65])
{
	char *text = hg_sweep_identity(index);
	hex[0] = '\0';
	if (text)
		hg_sha256_hex(text, strlen(text), hex);
	free(text);
}

void hg_sweep_run_name(size_t n_points, size_t run, char out[64])
{
	char id[32];
	hg_sweep_point_id(n_points, run % n_points, id);
	snprintf(out, 64, "%s/r%zu", id, run / n_points);
}

/* "p" or "r" then 1..9 digits: the only names hgrun gives points and
 * repeats (hg_sweep_point_id, hg_sweep_index). */
static bool id_ok(const char *s, size_t len, char letter)
{
	if (len < 2 || len > 10 || s[0] != letter)
		return false;
	for (size_t i = 1; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

bool hg_sweep_run_name_split(const char *name, char point[32], char rep[32])
{
	const char *slash = name ? strchr(name, '/') : NULL;
	if (!slash || !id_ok(name, (size_t)(slash - name), 'p') ||
	    !id_ok(slash + 1, strlen(slash + 1), 'r'))
		return false;
	snprintf(point, 32, "%.*s", (int)(slash - name), name);
	snprintf(rep, 32, "%s", slash + 1);
	return true;
}

int hg_sweep_index_check(json_t *index, char *err, size_t errlen)
{
	const char *format = json_string_value(json_object_get(index, "format"));
	if (!json_is_object(index) || !format || strcmp(format, "hgrun-sweep/1") != 0) {
		snprintf(err, errlen, "not an hgrun-sweep/1 index");
		return -EINVAL;
	}
	json_t *points = json_object_get(index, "points"), *point, *run;
	if (!json_is_array(points)) {
		snprintf(err, errlen, "points: not a list");
		return -EINVAL;
	}
	size_t i, k;
	char p[32], r[32];
	json_array_foreach(points, i, point) {
		json_t *runs = json_object_get(point, "runs");
		if (!json_is_array(runs)) {
			snprintf(err, errlen, "points[%zu].runs: not a list", i);
			return -EINVAL;
		}
		json_array_foreach(runs, k, run) {
			const char *name = json_string_value(run);
			if (!hg_sweep_run_name_split(name, p, r)) {
				/* a name read from a file is never made into a path
				 * unless it is one hgrun writes: "../../etc/cron.d" */
				snprintf(err, errlen, "points[%zu].runs[%zu]: %.80s%s%s is not a run "
					 "name (pNNN/rM)", i, k, name ? "'" : "", name ? name : "not a string",
					 name ? "'" : "");
				return -EINVAL;
			}
		}
	}
	return 0;
}

json_t *hg_sweep_index_read_at(int dir, const char *shown, bool *missing, char *err,
			       size_t errlen)
{
	char why[256];
	json_t *index = hg_json_read_at(dir, "sweep.json", HG_JSONFILE_MAX, missing, why,
					sizeof(why));
	if (!index) {
		if (*missing)
			snprintf(err, errlen, "%s has no sweep.json: not a sweep directory", shown);
		else
			snprintf(err, errlen, "%s/sweep.json: %s", shown, why);
		return NULL;
	}
	if (hg_sweep_index_check(index, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s/sweep.json: %s", shown, why);
		json_decref(index);
		return NULL;
	}
	return index;
}

int hg_sweep_index_write_at(int dir, json_t *index)
{
	char *text = json_dumps(index, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	int rc = text ? hg_write_buffer_at(dir, "sweep.json", text, strlen(text)) : -ENOMEM;
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
		/* Keys of both sides were compared above: b's own keys are
		 * left (recursing into the shared ones again would take 2^depth). */
		json_object_foreach(b, key, v) {
			if (json_object_get(a, key))
				continue;
			snprintf(path + len, size - len, ".%s", key);
			*da = NULL;
			*db = v;
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
		json_t *r = json_object_get(recorded, keys[i]), *n = json_object_get(now, keys[i]);
		snprintf(path, sizeof(path), "%s", keys[i]);
		/* An index written before --set existed has no overrides: none
		 * (on either side: the comparison is symmetric). */
		bool opt = strcmp(keys[i], "overrides") == 0;
		bool same = !differ(r || !opt ? r : none, n || !opt ? n : none, path, sizeof(path),
				    &da, &db);
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

bool hg_sweep_result_complete(json_t *result)
{
	return json_is_object(result) && json_is_true(json_object_get(result, "complete"));
}

int hg_sweep_open_run_at(int dir, const char *name, bool create, int *point)
{
	char p[32], r[32];
	if (point)
		*point = -1;
	if (!hg_sweep_run_name_split(name, p, r))
		return -EINVAL;
	int pfd = hg_open_dir_at(dir, p, create);
	if (pfd < 0)
		return pfd;
	int rfd = hg_open_dir_at(pfd, r, create);
	if (point && rfd >= 0)
		*point = pfd;
	else
		close(pfd);
	return rfd;
}

/* The run's result.json says it is RUN of this sweep. */
static bool of_this_run(json_t *result, const char *id, const char *point, const char *rep)
{
	json_t *sp = json_object_get(result, "sweep_point");
	const char *sid = json_string_value(json_object_get(sp, "sweep_id"));
	const char *pid = json_string_value(json_object_get(sp, "id"));
	json_t *r = json_object_get(sp, "repeat");
	char want[32];
	snprintf(want, sizeof(want), "r%" JSON_INTEGER_FORMAT, json_integer_value(r));
	return sid && id && id[0] && !strcmp(sid, id) && pid && !strcmp(pid, point) &&
	       json_is_integer(r) && !strcmp(want, rep);
}

bool hg_sweep_run_read_at(int top, const char *run, const char *id, json_t **result, char **text,
			  size_t *len)
{
	char p[32], r[32], why[256];
	bool missing, complete = false;
	if (result)
		*result = NULL;
	if (text)
		*text = NULL;
	if (!hg_sweep_run_name_split(run, p, r))
		return false;
	int pfd = top >= 0 ? hg_open_own_dir_at(top, p, false, NULL) : -1;
	int rfd = pfd >= 0 ? hg_open_own_dir_at(pfd, r, false, NULL) : -1;
	char *buf = NULL;
	size_t n = 0;
	json_t *res = rfd >= 0 ? hg_json_read_owned_at(rfd, "result.json", HG_JSONFILE_MAX,
						       geteuid(), &missing, text ? &buf : NULL, &n,
						       why, sizeof(why)) : NULL;
	complete = hg_sweep_result_complete(res) && of_this_run(res, id, p, r);
	if (complete && result)
		*result = json_incref(res);
	if (complete && text) {
		*text = buf;
		*len = n;
	} else {
		free(buf);
	}
	json_decref(res);
	if (rfd >= 0)
		close(rfd);
	if (pfd >= 0)
		close(pfd);
	return complete;
}

bool hg_sweep_run_complete_at(int top, const char *run, const char *id)
{
	return hg_sweep_run_read_at(top, run, id, NULL, NULL, NULL);
}
