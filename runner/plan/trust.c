/* SPDX-License-Identifier: GPL-2.0-or-later */
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
		char note[600];
		if (l->ops && l->ops->trust_note && l->ops->trust_note(l, user, note, sizeof(note))) {
			fprintf(out, "%snote: loads[%s] %s\n", prefix, l->name, note);
			n++;
		}
	}
	if (n)
		fprintf(out, "%snote: a scenario is code: run only scenarios you trust, above all "
			"as root (docs/security.md)\n", prefix);
	return n;
}
