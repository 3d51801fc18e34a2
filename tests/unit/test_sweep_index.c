/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What hgrun accepts of a sweep.json read back from a shard or an earlier
 * sweep (runner/sweep/sweep_index.c): run names that are pNNN/rM and
 * nothing else, and a comparison that is symmetric (the fuzz target
 * tests/fuzz/fuzz_results.c found an index without `overrides` that differed
 * from itself). */
#include <string.h>
#include <unistd.h>

#include "sweep/sweep_index.h"
#include "unit.h"

static const struct { const char *name; bool ok; } names[] = {
	{ "p000/r0", true }, { "p1/r2", true }, { "p123456789/r0", true },
	{ "../../victim/cron.d", false }, { "/etc/cron.d", false }, { "p000/../../x", false },
	{ "p000/r0/x", false }, { "p000/r0/", false }, { "p000//r0", false }, { "p000", false },
	{ "r0", false }, { "p/r0", false }, { "p000/r", false }, { "p-1/r0", false },
	{ "p1234567890/r0", false }, { " p000/r0", false }, { "", false }, { "..", false },
};

static json_t *index_with_run(const char *run)
{
	json_t *i = json_pack("{s:s, s:{s:i}, s:[], s:i, s:[{s:[s]}]}", "format", "hgrun-sweep/1",
			      "scenario", "duration_ns", 1, "axes", "repeat", 1, "points", "runs",
			      run);
	return i;
}

int main(void)
{
	char p[32], r[32], err[256], buf[512];
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		bool ok = hg_sweep_run_name_split(names[i].name, p, r);
		CHECK(ok == names[i].ok, "run name '%s': %s", names[i].name, ok ? "accepted" : "refused");
		json_t *index = index_with_run(names[i].name);
		int rc = hg_sweep_index_check(index, err, sizeof(err));
		CHECK((rc == 0) == names[i].ok, "index with run '%s': %d (%s)", names[i].name, rc,
		      rc ? err : "");
		if (!names[i].ok)
			CHECK(strstr(err, "is not a run name (pNNN/rM)") != NULL, "message: %s", err);
		json_decref(index);
	}
	CHECK(!hg_sweep_run_name_split(NULL, p, r), "NULL name");
	json_t *no_overrides = index_with_run("p000/r0");
	CHECK(hg_sweep_index_differs(no_overrides, no_overrides, "a", "b", buf, sizeof(buf)) == NULL,
	      "an index without overrides differs from itself: %s", buf);
	json_t *with = json_deep_copy(no_overrides);
	json_object_set_new(with, "overrides", json_object());
	CHECK(!hg_sweep_index_differs(no_overrides, with, "a", "b", buf, sizeof(buf)) &&
	      !hg_sweep_index_differs(with, no_overrides, "a", "b", buf, sizeof(buf)),
	      "no overrides and {} are the same, both ways");
	json_object_set_new(with, "overrides", json_pack("{s:s}", "duration", "2s"));
	CHECK(hg_sweep_index_differs(no_overrides, with, "a", "b", buf, sizeof(buf)) != NULL,
	      "a --set is a difference");
	json_decref(with);
	json_decref(no_overrides);
	/* Both sides' keys at every level, recursing twice into the shared
	 * ones, took 2^depth: 77 s for a 1 KB sweep.json of the fuzzer. */
	alarm(10);
	json_t *deep = index_with_run("p000/r0"), *leaf = json_integer(1);
	for (int level = 0; level < 64; level++) {
		json_t *up = json_object();
		json_object_set_new(up, "d", leaf);
		leaf = up;
	}
	json_object_set_new(json_object_get(deep, "scenario"), "nested", leaf);
	CHECK(hg_sweep_index_differs(deep, deep, "a", "b", buf, sizeof(buf)) == NULL,
	      "a deep index is itself, in linear time");
	json_t *more = json_deep_copy(deep);
	json_object_set_new(json_object_get(more, "scenario"), "extra", json_integer(7));
	const char *d = hg_sweep_index_differs(deep, more, "a", "b", buf, sizeof(buf));
	CHECK(d && strcmp(d, "scenario.extra: a has nothing, b has 7") == 0,
	      "a key of the second side only: %s", d ? d : "(none)");
	alarm(0);
	json_decref(more);
	json_decref(deep);
	json_t *bad = json_pack("{s:s, s:{s:s}}", "format", "hgrun-sweep/1", "points", "runs", "x");
	CHECK(hg_sweep_index_check(bad, err, sizeof(err)) != 0, "points not a list");
	json_decref(bad);
	return unit_report("test_sweep_index");
}
