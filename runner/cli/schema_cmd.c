/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding the installed JSON Schemas (runner/cli/schema_cmd.h).  The binary
 * knows where `cmake --install` puts them relative to itself
 * (HG_BIN_TO_DATA, from GNUInstallDirs: ../share/hgrun), so an installed
 * tree can move as a whole (--prefix, DESTDIR); a binary still in its
 * build tree (HG_BUILD_DIR) finds the source tree's schemas/ (HG_SOURCE_DIR),
 * and an installed one never does: a schema missing from its share/
 * directory is said, not replaced by a build tree's that may differ. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "cli/schema_cmd.h"

#ifndef HG_BIN_TO_DATA
#define HG_BIN_TO_DATA "../share/hgrun"
#endif
#ifndef HG_SOURCE_DIR
#define HG_SOURCE_DIR ""
#endif
#ifndef HG_BUILD_DIR
#define HG_BUILD_DIR ""
#endif

static const char *const names[] = { "scenario", "result", "doctor" };

static int exists_real(const char *candidate, char *path, size_t size)
{
	char real[PATH_MAX];
	if (!realpath(candidate, real) || access(real, R_OK) != 0)
		return 0;
	snprintf(path, size, "%s", real);
	return 1;
}

/* Whether the directory `dir` is the build tree this hgrun was built in. */
static bool in_build_tree(const char *dir)
{
	char a[PATH_MAX], b[PATH_MAX];
	return HG_BUILD_DIR[0] && realpath(dir, a) && realpath(HG_BUILD_DIR, b) && !strcmp(a, b);
}

int hg_schema_find(const char *which, char *path, size_t size, char *where, size_t wsize)
{
	char exe[PATH_MAX], candidate[2 * PATH_MAX];
	size_t used = 0;
	bool build = false;
	where[0] = '\0';
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(candidate, sizeof(candidate), "%s/%s/schemas/%s.schema.json", exe,
			 HG_BIN_TO_DATA, which);
		if (exists_real(candidate, path, size))
			return 0;
		used += (size_t)snprintf(where + used, wsize - used, "%s", candidate);
		build = in_build_tree(exe);
	}
	if (build && HG_SOURCE_DIR[0] && used < wsize) {
		snprintf(candidate, sizeof(candidate), "%s/schemas/%s.schema.json", HG_SOURCE_DIR,
			 which);
		if (exists_real(candidate, path, size))
			return 0;
		snprintf(where + used, wsize - used, "%s%s", used ? ", " : "", candidate);
	}
	return -ENOENT;
}

int hg_schema_command(FILE *out, FILE *err, const char *which, bool path_only)
{
	char path[PATH_MAX], where[3 * PATH_MAX];
	size_t i;
	if (!which)
		which = "scenario";
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(which, names[i]) == 0)
			break;
	if (i == sizeof(names) / sizeof(names[0])) {
		fprintf(err, "hgrun: schema: no schema '%s': the schemas are 'scenario', "
			"'result' and 'doctor'\n(try 'hgrun schema --help')\n", which);
		return HG_EXIT_USAGE;
	}
	if (hg_schema_find(which, path, sizeof(path), where, sizeof(where)) != 0) {
		fprintf(err, "hgrun: schema: %s.schema.json is not installed next to this hgrun "
			"(looked at %s); install hgrun with 'cmake --install build' (docs/cli.md)\n",
			which, where);
		return HG_EXIT_FAILED;
	}
	if (path_only) {
		fprintf(out, "%s\n", path);
		return HG_EXIT_OK;
	}
	FILE *f = fopen(path, "re");
	if (!f) {
		fprintf(err, "hgrun: schema: %s: %s\n", path, strerror(errno));
		return HG_EXIT_FAILED;
	}
	char buf[8192];
	size_t got;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, got, out);
	fclose(f);
	return HG_EXIT_OK;
}
