/* What a scenario does beyond measuring: shell commands it runs, files it
 * writes outside the result directory, network it uses.  A scenario is code
 * (docs/security.md): validate and run say so before anything runs. */
#include <pwd.h>
#include <stdio.h>
#include <unistd.h>

#include "plan/load.h"
#include "plan/trust.h"

size_t hg_plan_trust_notes(const struct hg_plan *plan, const char *prefix, FILE *out)
{
	const struct passwd *pw = getpwuid(geteuid());
	const char *user = pw ? pw->pw_name : "this user";
	size_t n = 0;
	for (size_t i = 0; i < plan->n_loads; i++) {
		const struct hg_load_plan *l = &plan->loads[i];
		if (l->command) {
			fprintf(out, "%snote: loads[%s] runs a shell command as %s: '%s'\n", prefix,
				l->name, user, l->command);
			n++;
		}
		if (l->ops && (l->ops->takes & HG_LP_DIR)) {      /* io */
			fprintf(out, "%snote: loads[%s] writes files outside the result directory, "
				"in %s\n", prefix, l->name, l->dir ? l->dir : "/var/tmp");
			n++;
		}
		if (l->connect) {
			fprintf(out, "%snote: loads[%s] connects to %s\n", prefix, l->name, l->connect);
			n++;
		}
	}
	if (n)
		fprintf(out, "%snote: a scenario is code: run only scenarios you trust, above all "
			"as root (docs/security.md)\n", prefix);
	return n;
}
