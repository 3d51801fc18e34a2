/* --set: each option is applied alone first, so an error lands on the
 * option that causes it; then all of them together. */
#include <stdlib.h>
#include <string.h>

#include "base/cpuset.h"
#include "base/names.h"
#include "cli/overrides.h"
#include "scenario/scenario.h"
#include "scenario/sweep.h"
#include "scenario/yamldoc.h"

json_t *hg_sets_json(const struct hg_cli *cli)
{
	json_t *o = json_object();
	for (size_t i = 0; i < cli->n_sets; i++)
		json_object_set_new(o, cli->sets[i].path, json_string(cli->sets[i].value));
	return o;
}

/* The last key of a path: "priority" of threads[rt].priority. */
static const char *leaf(const char *path)
{
	const char *dot = strrchr(path, '.');
	return dot ? dot + 1 : path;
}

/* "hgrun: --set P=V: [path: ]message" for each error of a point's load;
 * the key path is left out when it is the option's own key. */
static void print_set_errors(const char *label, const struct hg_diags *d, FILE *err)
{
	size_t n = d->count < HG_DIAG_MAX ? d->count : HG_DIAG_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct hg_diag *e = &d->items[i];
		bool own = !e->path[0] || strstr(label, e->path) ||
			   !strncmp(leaf(e->path), leaf(label), strcspn(leaf(label), "="));
		fprintf(err, "hgrun: %s: %s%s%s\n", label, own ? "" : e->path, own ? "" : ": ",
			e->message);
	}
}

/* Loads text with ov applied; prints the errors under `label`. */
static struct hg_plan *load_applied(const char *path, const char *text,
				    const struct hg_override *ov, size_t n, const char *label,
				    bool for_run, FILE *err)
{
	char msg[HG_ERRLEN];
	char *applied = hg_sweep_apply(text, ov, n, msg);
	if (!applied) {
		/* sweep.c speaks of sweeping: keep only the reason. */
		const char *why = strstr(msg, "': ");
		fprintf(err, "hgrun: %s: %s\n", label,
			!strncmp(msg, "cannot sweep", 12) && why ? why + 3 : msg);
		return NULL;
	}
	struct hg_diags d;
	struct hg_plan *plan = hg_scenario_load_string(path, applied, &d);
	free(applied);
	if (!plan) {
		print_set_errors(label, &d, err);
		return NULL;
	}
	struct hg_missing_cpu m;
	char buf[128];
	if (for_run && hg_plan_missing_cpu(plan, &m)) {
		fprintf(err, "hgrun: %s: %s: CPU %d is not online on this machine (online: %s)\n",
			label, m.path, m.cpu, hg_cpuset_format(&m.online, buf, sizeof(buf)));
		hg_plan_free(plan);
		return NULL;
	}
	return plan;
}

/* threads[NAME] / loads[NAME]: NAME must be a thread set or load of the
 * file ("no thread set is named 'rx' (thread sets: rt, be)"). */
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
		const char *names[256];
		size_t k = 0;
		bool found = false;
		for (size_t t = 0; t < n; t++) {
			const char *name = threads ? plan->threads[t].name : plan->loads[t].name;
			found |= (int)strlen(name) == len && !strncmp(name, open + 1, (size_t)len);
			if (k < 256 && (!k || strcmp(names[k - 1], name)))
				names[k++] = name;
		}
		if (found)
			continue;
		char word[64], hint[600];
		snprintf(word, sizeof(word), "%.*s", len < 63 ? len : 63, open + 1);
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

struct hg_plan *hg_load_with_sets(const struct hg_cli *cli, const char *path, bool for_run,
				  bool keep_file_plan, FILE *err, int *rc)
{
	struct hg_diags d;
	struct hg_plan *file_plan = for_run ? hg_scenario_load_for_run(path, &d)
					    : hg_scenario_load(path, &d);
	*rc = HG_EXIT_INVALID;
	if (!file_plan) {
		hg_diags_print(&d, err);
		return NULL;
	}
	if (!cli->n_sets) {
		*rc = 0;
		return file_plan;
	}
	char msg[256], label[600];
	char *text = hg_read_text(path, NULL, msg);
	if (!text) {
		fprintf(err, "%s: error: %s\n", path, msg);
		hg_plan_free(file_plan);
		*rc = HG_EXIT_FAILED;
		return NULL;
	}
	size_t bad = check_names(cli, file_plan, err) ||
		     (keep_file_plan && check_not_swept(cli, file_plan, err)) ? 1 : 0;
	for (size_t i = 0; i < cli->n_sets && !bad; i++) {
		snprintf(label, sizeof(label), "--set %.250s=%.250s", cli->sets[i].path,
			 cli->sets[i].value);
		struct hg_plan *p = load_applied(path, text, &cli->sets[i], 1, label, for_run, err);
		bad += !p;
		hg_plan_free(p);
	}
	struct hg_plan *plan = NULL;
	if (!bad)
		plan = load_applied(path, text, cli->sets, cli->n_sets,
				    "the --set options together", for_run, err);
	free(text);
	if (plan && keep_file_plan) {
		hg_plan_free(plan);
		plan = file_plan;
	} else {
		hg_plan_free(file_plan);
	}
	if (plan)
		*rc = 0;
	return plan;
}
