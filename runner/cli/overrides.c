/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --set: each option is applied alone first, so an error lands on the
 * option that causes it; then all of them together. */
#include <stdlib.h>
#include <string.h>

#include "base/cpuset.h"
#include "base/names.h"
#include "base/units.h"
#include "cli/overrides.h"
#include "cli/plugins.h"
#include "plan/timeline.h"
#include "scenario/scenario.h"
#include "scenario/sweep.h"
#include "scenario/yamldoc.h"

struct hg_length hg_cli_length(const struct hg_cli *cli)
{
	return (struct hg_length){ .duration_given = cli->duration_given,
				   .duration_ns = cli->duration_ns, .cut = cli->cut,
				   .scale = cli->scale, .quiet = cli->quiet };
}

int hg_apply_length(const struct hg_cli *cli, struct hg_plan *plan, const char *what, FILE *err,
		    char *note, size_t note_size)
{
	struct hg_length len = hg_cli_length(cli);
	len.note = note;
	len.note_size = note_size;
	return hg_plan_apply_length(plan, &len, what, err) ? HG_EXIT_USAGE : 0;
}

json_t *hg_sets_json(const struct hg_cli *cli)
{
	json_t *o = json_object();
	for (size_t i = 0; i < cli->n_sets; i++)
		json_object_set_new(o, cli->sets[i].path, json_string(cli->sets[i].value));
	return o;
}

/* An option's path with threads[NAME] / loads[NAME] written as the item's
 * index, as the loader's errors name it: threads[rt].priority ->
 * threads[1].priority (unchanged without a plan or a match). */
static void indexed_path(const struct hg_plan *plan, const char *path, char *out, size_t size)
{
	const char *open = strchr(path, '['), *close = open ? strchr(open, ']') : NULL;
	snprintf(out, size, "%s", path);
	if (!plan || !close)
		return;
	bool threads = (size_t)(open - path) == 7 && !strncmp(path, "threads", 7);
	bool loads = (size_t)(open - path) == 5 && !strncmp(path, "loads", 5);
	size_t len = (size_t)(close - open - 1);
	long index = -1;
	for (size_t t = 0; threads && t < plan->n_threads && index < 0; t++)
		if (strlen(plan->threads[t].name) == len && !strncmp(plan->threads[t].name, open + 1, len))
			index = plan->threads[t].set_index;
	for (size_t t = 0; loads && t < plan->n_loads && index < 0; t++)
		if (strlen(plan->loads[t].name) == len && !strncmp(plan->loads[t].name, open + 1, len))
			index = (long)t;
	if (index >= 0)
		snprintf(out, size, "%.*s[%ld]%s", (int)(open - path), path, index, close + 1);
}

/* Whether a is b, or one of them holds the other (threads[0] and
 * threads[0].priority). */
static bool related(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;
	return !strncmp(a, b, n) && (la == lb || strchr(".[", la < lb ? b[n] : a[n]));
}

/* The --set option an error is about: its key path is the option's, or
 * within or around it; else the one option that changes the same thread
 * set or load (a stop moved before its start).  -1 when none is. */
static long option_of(const struct hg_cli *cli, const struct hg_plan *file_plan,
		      const struct hg_diag *e, bool *own)
{
	char path[HG_SET_PATH_MAX + 32];
	long same_item = -1;
	size_t n_same = 0, item = strcspn(e->path, "]");
	for (size_t i = 0; i < cli->n_sets && e->path[0]; i++) {
		indexed_path(file_plan, cli->sets[i].path, path, sizeof(path));
		if (related(path, e->path)) {
			*own = strlen(e->path) <= strlen(path);
			return (long)i;
		}
		if (e->path[item] && !strncmp(path, e->path, item + 1)) {
			same_item = (long)i;
			n_same++;
		}
	}
	*own = false;
	return n_same == 1 ? same_item : -1;
}

static bool in_file(const struct hg_diags *file, const struct hg_diag *e, size_t *at)
{
	size_t n = file->count < HG_DIAG_MAX ? file->count : HG_DIAG_MAX;
	for (*at = 0; *at < n; (*at)++)
		if (!strcmp(file->items[*at].path, e->path) &&
		    !strcmp(file->items[*at].message, e->message))
			return true;
	return false;
}

/* Each error of the edited scenario: on the option it is about ("hgrun:
 * --set P=V: message"), as the file's own (FILE:LINE:COL) when the file
 * has it too, else on the options together. */
static void print_errors(const struct hg_cli *cli, const struct hg_plan *file_plan,
			 const struct hg_diags *file, const struct hg_diags *d, FILE *err)
{
	size_t n = d->count < HG_DIAG_MAX ? d->count : HG_DIAG_MAX, at;
	for (size_t k = 0; k < n; k++) {
		const struct hg_diag *e = &d->items[k];
		if (k && !strcmp(e->message, d->items[k - 1].message))
			continue;   /* one error seen from both ends (start and stop) */
		bool own = false;
		long i = option_of(cli, file_plan, e, &own);
		if (i < 0 && !file_plan && in_file(file, e, &at)) {
			struct hg_diags one = { .file = file->file, .count = 1 };
			one.items[0] = file->items[at];
			hg_diags_print(&one, err);
			continue;
		}
		if (i < 0 && cli->n_sets == 1)
			i = 0;
		if (i >= 0) {
			fprintf(err, "hgrun: --set %s=%s: %s%s%s\n", cli->sets[i].path,
				cli->sets[i].value, own || !e->path[0] ? "" : e->path,
				own || !e->path[0] ? "" : ": ", e->message);
			continue;
		}
		fputs("hgrun: with", err);
		for (size_t j = 0; j < cli->n_sets; j++)
			fprintf(err, " --set %s=%s", cli->sets[j].path, cli->sets[j].value);
		fprintf(err, ": %s%s%s\n", e->path, e->path[0] ? ": " : "", e->message);
	}
}

/* threads[NAME] / loads[NAME]: NAME must be a thread set or load of the
 * file, or an index of its list ("no thread set is named 'rx' (thread
 * sets: rt, be)"). */
static int check_names(const struct hg_cli *cli, const struct hg_plan *plan, FILE *err)
{
	for (size_t i = 0; i < cli->n_sets; i++) {
		const char *path = cli->sets[i].path, *open = strchr(path, '[');
		const char *close = open ? strchr(open, ']') : NULL;
		if (!open || !close)
			continue;
		bool threads = (size_t)(open - path) == 7 && !strncmp(path, "threads", 7);
		bool loads = (size_t)(open - path) == 5 && !strncmp(path, "loads", 5);
		if (!threads && !loads)
			continue;
		int len = (int)(close - open - 1);
		size_t n = threads ? plan->n_threads : plan->n_loads;
		size_t items = threads ? plan->n_thread_sets : plan->n_loads;
		const char *names[256];
		size_t k = 0;
		bool found = false;
		for (size_t t = 0; t < n; t++) {
			const char *name = threads ? plan->threads[t].name : plan->loads[t].name;
			found |= (int)strlen(name) == len && !strncmp(name, open + 1, (size_t)len);
			if (k < 256 && (!k || strcmp(names[k - 1], name)))
				names[k++] = name;
		}
		char word[64], hint[600];
		snprintf(word, sizeof(word), "%.*s", len < 63 ? len : 63, open + 1);
		int index = hg_item_index(word);
		if (found || (index >= 0 && (size_t)index < items))
			continue;
		if (k)
			hg_unknown_hint(word, names, k, hint, sizeof(hint));
		else
			snprintf(hint, sizeof(hint), " (the scenario has no %s)",
				 threads ? "threads" : "loads");
		fprintf(err, "hgrun: --set %s=%s: no %s is named '%s'%s\n", path, cli->sets[i].value,
			threads ? "thread set" : "load", word, hint);
		return -1;
	}
	return 0;
}

/* sweep.repeat and sweep.grid.PATH can be set; another sweep.KEY is
 * refused by name. */
static int check_sweep_paths(const struct hg_cli *cli, FILE *err)
{
	static const char *const keys[] = { "repeat", "grid" };
	for (size_t i = 0; i < cli->n_sets; i++) {
		const char *path = cli->sets[i].path;
		if (strcmp(path, "sweep") && strncmp(path, "sweep.", 6))
			continue;
		const char *key = path[5] ? path + 6 : "";
		if (!strcmp(key, "repeat") || (!strncmp(key, "grid.", 5) && key[5]))
			continue;
		char word[64], what[160];
		snprintf(word, sizeof(word), "%.*s", (int)strcspn(key, "."), key);
		if (!word[0])
			snprintf(what, sizeof(what), "the sweep section cannot be set whole");
		else if (!strcmp(word, "grid"))
			snprintf(what, sizeof(what), "the grid is set one axis at a time");
		else {
			const char *near = hg_suggest(word, keys, 2);
			snprintf(what, sizeof(what), "sweep has no key '%s'%s%s%s", word,
				 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		}
		fprintf(err, "hgrun: --set %s=%s: %s; what can be set is sweep.repeat=N and "
			"sweep.grid.PATH=[V1, V2] (e.g. --set 'sweep.grid.threads[rt].timer=[sleep, "
			"absolute]')\n", path, cli->sets[i].value, what);
		return -1;
	}
	return 0;
}

/* A --set of a path the sweep's grid varies would be overwritten by it. */
static int check_not_swept(const struct hg_cli *cli, const struct hg_plan *plan, FILE *err)
{
	for (size_t i = 0; i < cli->n_sets; i++)
		for (size_t a = 0; a < plan->sweep.n_axes; a++)
			if (!strcmp(cli->sets[i].path, plan->sweep.axes[a].path)) {
				fprintf(err, "hgrun: --set %s=%s: sweep.grid varies %s already; "
					"change the grid's values instead\n", cli->sets[i].path,
					cli->sets[i].value, cli->sets[i].path);
				return -1;
			}
	return 0;
}

/* The scenario with every --set applied, loaded and checked once. */
static struct hg_plan *load_edited(const struct hg_cli *cli, const char *path, const char *text,
				   const struct hg_plan *file_plan, const struct hg_diags *file_d,
				   bool for_run, FILE *err, char **text_out)
{
	char msg[HG_ERRLEN], buf[128];
	size_t failed = 0;
	char *edited = hg_scenario_edit(text, cli->sets, cli->n_sets, true, &failed, msg);
	if (!edited) {
		/* sweep.c speaks of sweeping: keep only the reason. */
		const char *why = strstr(msg, "': ");
		fprintf(err, "hgrun: --set %s=%s: %s\n", cli->sets[failed].path,
			cli->sets[failed].value,
			!strncmp(msg, "cannot sweep", 12) && why ? why + 3 : msg);
		return NULL;
	}
	struct hg_diags d;
	struct hg_plan *plan = hg_scenario_load_string(path, edited, &hg_builtin_plugins, &d);
	if (!plan) {
		print_errors(cli, file_plan, file_d, &d, err);
		free(edited);
		return NULL;
	}
	struct hg_missing_cpu m;
	if (for_run && hg_plan_missing_cpu(plan, &m)) {
		fprintf(err, "hgrun: with the --set options: %s: CPU %d is not online on this "
			"machine (online: %s)\n", m.path, m.cpu,
			hg_cpuset_format(&m.online, buf, sizeof(buf)));
		hg_plan_free(plan);
		free(edited);
		return NULL;
	}
	if (text_out)
		*text_out = edited;
	else
		free(edited);
	return plan;
}

struct hg_plan *hg_load_with_sets(const struct hg_cli *cli, const char *path, bool for_run,
				  bool for_sweep, FILE *err, int *rc, char **text_out)
{
	struct hg_diags d;
	char msg[256];
	*rc = HG_EXIT_INVALID;
	if (text_out)
		*text_out = NULL;
	if (!cli->n_sets) {
		struct hg_plan *plan = for_run
			? hg_scenario_load_for_run(path, &hg_builtin_plugins, &d)
			: hg_scenario_load(path, &hg_builtin_plugins, &d);
		if (!plan)
			hg_diags_print(&d, err);
		else if (text_out && !(*text_out = hg_read_text(path, NULL, msg))) {
			fprintf(err, "%s: error: %s\n", path, msg);
			hg_plan_free(plan);
			*rc = HG_EXIT_FAILED;
			return NULL;
		}
		*rc = plan ? 0 : HG_EXIT_INVALID;
		return plan;
	}
	/* The file as written: its names and grid for the checks below, its
	 * errors for the ones the edit does not mend. */
	struct hg_plan *file_plan = hg_scenario_load(path, &hg_builtin_plugins, &d);
	char *text = hg_read_text(path, NULL, msg);
	if (!text) {
		fprintf(err, "%s: error: %s\n", path, msg);
		hg_plan_free(file_plan);
		*rc = HG_EXIT_FAILED;
		return NULL;
	}
	struct hg_plan *plan = NULL;
	if (!check_sweep_paths(cli, err) &&
	    !(file_plan && check_names(cli, file_plan, err)) &&
	    !(file_plan && for_sweep && check_not_swept(cli, file_plan, err)))
		plan = load_edited(cli, path, text, file_plan, &d, for_run, err, text_out);
	free(text);
	hg_plan_free(file_plan);
	if (plan)
		*rc = 0;
	return plan;
}
