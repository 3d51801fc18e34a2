/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun completion bash|zsh`: shell completion made from hgrun's tables
 * (docs/cli.md, "Shell completion"): the commands and their options from the
 * help tables (cli/help_text.c), the scenario keys --set takes from the
 * format's schema (hg_scenario_keys) and the plugins' parameter tables, the
 * values of a few keys (priority levels, timers, workload and load types),
 * and scenario files (*.yaml) where a command takes one.  zsh runs the same
 * function through its bashcompinit. */
#include <string.h>

#include "cli/complete.h"
#include "cli/help.h"
#include "cli/plugins.h"
#include "plan/priority.h"
#include "scenario/rawscenario.h"

/* The long and short options of a help entry's flags ("-o, --output DIR"). */
static void option_words(FILE *out, const struct hg_help *h)
{
	for (const struct hg_help_option *o = h->options; o && o->flags; o++) {
		char flags[128];
		snprintf(flags, sizeof(flags), "%s", o->flags);
		for (char *w = strtok(flags, ", "); w; w = strtok(NULL, ", "))
			if (w[0] == '-')
				fprintf(out, " %.*s", (int)strcspn(w, "="), w);
	}
	fputs(" --help", out);
}

static void var_name(FILE *out, const char *name)
{
	for (const char *p = name; *p; p++)
		fputc(*p == '-' ? '_' : *p, out);
}

/* `prefix.KEY` for every parameter of the plugins (each once). */
static void params(FILE *out, const char *prefix, const struct hg_params *const *ps, size_t n)
{
	const char *seen[256];
	size_t n_seen = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < hg_params_count(ps[i]); k++) {
			const char *name = ps[i]->table[k].name;
			bool dup = false;
			for (size_t j = 0; j < n_seen && !dup; j++)
				dup = !strcmp(seen[j], name);
			if (dup || n_seen == 256)
				continue;
			seen[n_seen++] = name;
			fprintf(out, " %s%s", prefix, name);
		}
}

static void keys(FILE *out, const char *part, const char *prefix, const char *skip)
{
	const char *names[64];
	size_t n = hg_scenario_keys(part, names, 64);
	for (size_t i = 0; i < n; i++)
		if (!skip || !strstr(skip, names[i]))
			fprintf(out, " %s%s", prefix, names[i]);
}

static void tables(FILE *out)
{
	const struct hg_plugins *p = &hg_builtin_plugins;
	const struct hg_params *ps[64];
	fputs("_hgrun_commands='", out);
	for (size_t i = 0; i < hg_n_helps; i++)
		fprintf(out, "%s%s", i ? " " : "", hg_helps[i].name);
	fputs(" help'\n", out);
	for (size_t i = 0; i < hg_n_helps; i++) {
		fputs("_hgrun_opts_", out);
		var_name(out, hg_helps[i].name);
		fputs("='", out);
		option_words(out, &hg_helps[i]);
		fputs("'\n", out);
	}
	fputs("_hgrun_top='", out);
	keys(out, "scenario", "", "hgrun name threads loads expect defaults sweep trace");
	keys(out, "trace", "trace.", NULL);
	fputs("'\n_hgrun_thread='", out);
	keys(out, "thread", "", "name workload reservation");
	keys(out, "reservation", "reservation.", NULL);
	fputs(" timer.type workload.type", out);
	size_t n = 0;
	for (size_t i = 0; i < p->n_timers && n < 64; i++)
		ps[n++] = &p->timers[i]->params;
	params(out, "timer.", ps, n);
	n = 0;
	for (size_t i = 0; i < p->n_workloads && n < 64; i++)
		ps[n++] = &p->workloads[i]->params;
	params(out, "workload.", ps, n);
	fputs("'\n_hgrun_load='", out);
	keys(out, "load", "", "name");
	n = 0;
	for (size_t i = 0; i < p->n_loads && n < 64; i++)
		ps[n++] = &p->loads[i]->params;
	params(out, "", ps, n);
	fputs("'\n_hgrun_priorities='", out);
	for (size_t i = 0; i < HG_N_PRIORITY_LEVELS; i++)
		fprintf(out, "%s%s", i ? " " : "", hg_priority_levels[i].name);
	fputs("'\n_hgrun_timers='", out);
	for (size_t i = 0; i < p->n_timers; i++)
		fprintf(out, "%s%s", i ? " " : "", p->timers[i]->name);
	fputs("'\n_hgrun_workloads='", out);
	for (size_t i = 0; i < p->n_workloads; i++)
		fprintf(out, "%s%s", i ? " " : "", p->workloads[i]->name);
	fputs("'\n_hgrun_loads='", out);
	for (size_t i = 0; i < p->n_loads; i++)
		fprintf(out, "%s%s", i ? " " : "", p->loads[i]->name);
	fputs("'\n", out);
}

/* The functions: a scenario's thread set and load names, the --set paths,
 * and _hgrun itself. */
static const char functions[] =
	"# The names of the thread sets (threads) or loads (loads) of a scenario file.\n"
	"_hgrun_names() {\n"
	"\tawk -v want=\"$1\" '/^[A-Za-z_]+:/ { sec = $1; sub(/:.*/, \"\", sec) }\n"
	"\t\tsec == want && /^[ \\t]*-?[ \\t]*name:/ { sub(/^[ \\t]*-?[ \\t]*name:[ \\t]*/, \"\");\n"
	"\t\t\tsub(/[ \\t]*(#.*)?$/, \"\"); gsub(/[\"\\047]/, \"\"); if ($0 != \"\") print }' \"$2\" 2>/dev/null\n"
	"}\n"
	"\n"
	"# Every PATH= of --set for the scenario file $1.\n"
	"_hgrun_set_paths() {\n"
	"\tlocal n k\n"
	"\tfor k in $_hgrun_top sweep.repeat sweep.grid.; do printf '%s=\\n' \"$k\"; done\n"
	"\tfor n in $(_hgrun_names threads \"$1\"); do\n"
	"\t\tfor k in $_hgrun_thread; do printf 'threads[%s].%s=\\n' \"$n\" \"$k\"; done\n"
	"\tdone\n"
	"\tfor n in $(_hgrun_names loads \"$1\"); do\n"
	"\t\tfor k in $_hgrun_load; do printf 'loads[%s].%s=\\n' \"$n\" \"$k\"; done\n"
	"\tdone\n"
	"}\n"
	"\n"
	"# The values of the key a --set path ends in.\n"
	"_hgrun_set_values() {\n"
	"\tcase $1 in\n"
	"\t*.priority) printf '%s\\n' $_hgrun_priorities ;;\n"
	"\t*.timer | *.timer.type) printf '%s\\n' $_hgrun_timers ;;\n"
	"\t*.workload.type) printf '%s\\n' $_hgrun_workloads ;;\n"
	"\tloads\\[*\\].type) printf '%s\\n' $_hgrun_loads ;;\n"
	"\t*.optional | lock_memory | trace.kernel) printf '%s\\n' true false ;;\n"
	"\ttrace.mode) printf '%s\\n' full outliers none ;;\n"
	"\tesac\n"
	"}\n"
	"\n"
	"_hgrun() {\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	"\tlocal cmd='' file='' w i\n"
	"\tCOMPREPLY=()\n"
	"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	"\t\tw=${COMP_WORDS[i]}\n"
	"\t\tcase $w in\n"
	"\t\t-*) ;;\n"
	"\t\t*.yaml | *.yml) [[ -z $file ]] && file=$w ;;\n"
	"\t\t*) [[ -z $cmd && \" $_hgrun_commands \" == *\" $w \"* ]] && cmd=$w ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\t# --set PATH=VALUE: bash splits the word at '='\n"
	"\tif [[ $prev == '=' && ${COMP_WORDS[COMP_CWORD-3]} == --set ]]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(_hgrun_set_values \"${COMP_WORDS[COMP_CWORD-2]}\")\" -- \"$cur\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tif [[ $cur == '=' && $prev != --set && ${COMP_WORDS[COMP_CWORD-2]} == --set ]]; then\n"
	"\t\tCOMPREPLY=($(_hgrun_set_values \"$prev\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tcase $prev in\n"
	"\t-o | --output)\n"
	"\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n"
	"\t\treturn ;;\n"
	"\t--set)\n"
	"\t\tcompopt -o nospace 2>/dev/null\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(_hgrun_set_paths \"$file\")\" -- \"$cur\"))\n"
	"\t\treturn ;;\n"
	"\t--duration) COMPREPLY=($(compgen -W '1s 2s 10s 30s 1m 10m' -- \"$cur\")); return ;;\n"
	"\t--scale | --seed | --shard) return ;;\n"
	"\tesac\n"
	"\tif [[ $cur == -* ]]; then\n"
	"\t\tlocal v=_hgrun_opts_${cmd:-run} opts\n"
	"\t\teval \"opts=\\$${v//-/_}\"\n"
	"\t\tCOMPREPLY=($(compgen -W \"$opts --help --version\" -- \"$cur\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tcase $cmd in\n"
	"\tlist) COMPREPLY=($(compgen -W 'workloads timers priorities loads metrics' -- \"$cur\")) ;;\n"
	"\tschema) COMPREPLY=($(compgen -W 'scenario result doctor' -- \"$cur\")) ;;\n"
	"\tcompletion) COMPREPLY=($(compgen -W 'bash zsh' -- \"$cur\")) ;;\n"
	"\thelp) COMPREPLY=($(compgen -W \"$_hgrun_commands\" -- \"$cur\")) ;;\n"
	"\tcalibrate | hourglass) ;;\n"
	"\tsweep-merge) COMPREPLY=($(compgen -d -- \"$cur\")) ;;\n"
	"\t*)\n"
	"\t\tif [[ -n $file && $cmd != validate ]]; then return; fi\n"
	"\t\tlocal f\n"
	"\t\tfor f in $(compgen -f -- \"$cur\"); do\n"
	"\t\t\tif [[ -d $f ]]; then COMPREPLY+=(\"$f/\")\n"
	"\t\t\telif [[ $f == *.yaml || $f == *.yml ]]; then COMPREPLY+=(\"$f \"); fi\n"
	"\t\tdone\n"
	"\t\t[[ -z $cmd ]] && COMPREPLY+=($(compgen -W \"$_hgrun_commands\" -S ' ' -- \"$cur\"))\n"
	"\t\tcompopt -o nospace 2>/dev/null ;;\n"
	"\tesac\n"
	"}\n";

int hg_completion_command(FILE *out, FILE *err, const char *shell)
{
	bool zsh = shell && !strcmp(shell, "zsh");
	if (!shell || (!zsh && strcmp(shell, "bash"))) {
		fprintf(err, "hgrun: completion takes bash or zsh (got %s)\n(try 'hgrun completion "
			"--help')\n", shell ? shell : "nothing");
		return 3;
	}
	if (zsh)
		fputs("#compdef hgrun\n"
		      "# zsh completion for hgrun, made by `hgrun completion zsh` from its tables "
		      "(docs/cli.md):\n# the bash completion's function, run by zsh's bashcompinit.\n"
		      "autoload -U +X bashcompinit && bashcompinit\n", out);
	else
		fputs("# bash completion for hgrun, made by `hgrun completion bash` from its tables "
		      "(docs/cli.md)\n# installed as PREFIX/share/bash-completion/completions/hgrun\n",
		      out);
	fputs("# shellcheck disable=SC2207\n", out);
	tables(out);
	fputs(functions, out);
	fputs("complete -F _hgrun hgrun\n", out);
	if (zsh)
		fputs("_bash_complete -F _hgrun \"$@\"\n", out);
	return 0;
}
