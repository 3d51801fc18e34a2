/* Parsing the command line (getopt_long after the subcommand). */
#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#include <unistd.h>

#include "base/names.h"
#include "base/units.h"
#include "cli/cli.h"

void hg_cli_usage(FILE *out)
{
	fputs("usage: hgrun [run] SCENARIO [-o DIR] [--duration TIME] [--strict] [--quiet]\n"
	      "       hgrun sweep SCENARIO [-o DIR] [--duration TIME] [--shard K/N] [--list]\n"
	      "                            [--strict] [--quiet]\n"
	      "       hgrun validate [--resolved] FILE...\n"
	      "       hgrun list [workloads|timers|priorities|loads|metrics]\n"
	      "       hgrun calibrate [--json]\n"
	      "       hgrun --help | --version\n"
	      "\n"
	      "Runs real-time experiments described in YAML scenario files (a modern\n"
	      "Hourglass): threads that poll the cycle counter and record every gap in\n"
	      "their execution, deadline hits and misses by CPU time received, timer\n"
	      "wake-up latency; results as JSON in one directory per run.\n"
	      "\n"
	      "commands:\n"
	      "  run SCENARIO      run it (the default command); results go to\n"
	      "                    results/<name>/<UTC time>/ unless -o DIR is given\n"
	      "  sweep SCENARIO    run it once per point of its sweep: grid and repeat; results\n"
	      "                    go to results/<name>/sweep-<UTC time>/ unless -o DIR is given,\n"
	      "                    one directory per run, indexed by sweep.json\n"
	      "  validate FILE...  check scenarios; --resolved prints the resolved\n"
	      "                    scenario (defaults filled in, units in ns/bytes) as JSON\n"
	      "  list              the workloads, timers, priorities, loads and metrics\n"
	      "  calibrate         the counter rate, loop cost and gap threshold here\n"
	      "\n"
	      "options:\n"
	      "  -o, --output DIR  result directory of this run\n"
	      "  --duration TIME   override the scenario's duration (e.g. 2s) for quick runs\n"
	      "  --strict          exit 4 instead of warning when a policy, priority,\n"
	      "                    reservation or memory lock is not granted\n"
	      "  --quiet           no start line, progress or summary\n"
	      "  --shard K/N       sweep: run only runs j with j %% N == K (0 <= K < N), for job\n"
	      "                    arrays: --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT\n"
	      "  --list            sweep: print the runs (point, repeat, overrides) and stop\n"
	      "\n"
	      "exit codes: 0 ok, 1 run or expectation failed, 2 invalid scenario,\n"
	      "            3 bad command line, 4 privilege or kernel feature missing (--strict)\n"
	      "docs: docs/scenario.md (scenario reference), README.md\n", out);
}

static const struct {
	const char *name;
	enum hg_command command;
} commands[] = {
	{ "run", HG_CMD_RUN }, { "sweep", HG_CMD_SWEEP }, { "validate", HG_CMD_VALIDATE }, { "list", HG_CMD_LIST },
	{ "calibrate", HG_CMD_CALIBRATE }, { "help", HG_CMD_HELP }, { "version", HG_CMD_VERSION },
};

static int usage_error(FILE *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(FILE *err, const char *fmt, ...)
{
	va_list ap;
	fputs("hgrun: ", err);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputs("\n(try 'hgrun --help')\n", err);
	return HG_EXIT_USAGE;
}

static int parse_options(int argc, char **argv, struct hg_cli *cli, FILE *err)
{
	enum { OPT_DURATION = 256, OPT_STRICT, OPT_RESOLVED, OPT_JSON, OPT_QUIET, OPT_SHARD,
	       OPT_LIST };
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "resolved", no_argument, NULL, OPT_RESOLVED },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char msg[HG_ERRLEN];
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:hV", options, NULL)) != -1) {
		switch (c) {
		case 'o': cli->out_dir = optarg; break;
		case OPT_DURATION:
			if (hg_parse_duration(optarg, &cli->duration_ns, msg) != 0)
				return usage_error(err, "--duration: %s", msg);
			if (cli->duration_ns < 1000000)
				return usage_error(err, "--duration: must be at least 1ms, as a "
						   "scenario's duration (got %s)", optarg);
			cli->duration_given = true;
			break;
		case OPT_STRICT: cli->strict = true; break;
		case OPT_QUIET: cli->quiet = true; break;
		case OPT_RESOLVED: cli->resolved = true; break;
		case OPT_JSON: cli->json = true; break;
		case OPT_LIST: cli->dry_run = true; break;
		case OPT_SHARD: {
			uint64_t k, n;
			char *slash = strchr(optarg, '/');
			if (slash)
				*slash = '\0';
			if (!slash || hg_parse_uint(optarg, 0, 1000000, &k, msg) != 0 ||
			    hg_parse_uint(slash + 1, 1, 1000000, &n, msg) != 0 || k >= n)
				return usage_error(err, "--shard takes K/N with 0 <= K < N, e.g. --shard 0/4%s",
						   "");
			cli->shard = (unsigned)k;
			cli->shards = (unsigned)n;
			break;
		}
		case 'h': cli->command = HG_CMD_HELP; return 0;
		case 'V': cli->command = HG_CMD_VERSION; return 0;
		case ':':
			return usage_error(err, "option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error(err, "unknown option '%s'", argv[optind - 1]);
		}
	}
	cli->files = argv + optind;
	cli->n_files = argc - optind;
	return 0;
}

static int check_fit(struct hg_cli *cli, FILE *err)
{
	bool run = cli->command == HG_CMD_RUN || cli->command == HG_CMD_SWEEP;
	if (!run && (cli->out_dir || cli->duration_given || cli->strict || cli->quiet))
		return usage_error(err, "-o, --duration, --strict and --quiet belong to '%s'",
				   "run' and 'sweep");
	if (cli->command != HG_CMD_SWEEP && (cli->shards || cli->dry_run))
		return usage_error(err, "--shard and --list belong to '%s'", "sweep");
	if (cli->resolved && cli->command != HG_CMD_VALIDATE)
		return usage_error(err, "--resolved belongs to '%s'", "validate");
	if (cli->json && cli->command != HG_CMD_CALIBRATE && cli->command != HG_CMD_LIST)
		return usage_error(err, "--json belongs to '%s' and 'list'", "calibrate");
	switch (cli->command) {
	case HG_CMD_RUN:
	case HG_CMD_SWEEP:
		if (cli->n_files != 1)
			return usage_error(err, "%s takes one scenario file",
					   cli->command == HG_CMD_RUN ? "run" : "sweep");
		break;
	case HG_CMD_VALIDATE:
		if (cli->n_files < 1)
			return usage_error(err, "validate needs at least one %s", "scenario file");
		if (cli->resolved && cli->n_files != 1)
			return usage_error(err, "--resolved takes one %s", "scenario file");
		break;
	case HG_CMD_LIST:
		if (cli->n_files > 1)
			return usage_error(err, "list takes at most one %s", "topic");
		cli->list_what = cli->n_files ? cli->files[0] : NULL;
		break;
	case HG_CMD_CALIBRATE:
		if (cli->n_files)
			return usage_error(err, "calibrate takes no argument ('%s')", cli->files[0]);
		break;
	default:
		break;
	}
	return 0;
}

int hg_cli_parse(int argc, char **argv, struct hg_cli *cli, FILE *err)
{
	memset(cli, 0, sizeof(*cli));
	cli->argc = argc;
	cli->argv = argv;
	cli->command = HG_CMD_RUN;
	int first = 1;
	if (argc < 2) {
		hg_cli_usage(err);
		return HG_EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name) == 0) {
			cli->command = commands[i].command;
			first = 2;
			break;
		}
	}
	/* `hgrun valdate x.yaml`: a typo of a command, not a scenario file. */
	if (first == 1 && argv[1][0] != '-' && !strpbrk(argv[1], "./") &&
	    access(argv[1], F_OK) != 0) {
		const size_t n = sizeof(commands) / sizeof(commands[0]);
		const char *names[sizeof(commands) / sizeof(commands[0])];
		char hint[256];
		for (size_t i = 0; i < n; i++)
			names[i] = commands[i].name;
		return usage_error(err, "unknown command '%s'%s", argv[1],
				   hg_unknown_hint(argv[1], names, n, hint, sizeof(hint)));
	}
	int rc = parse_options(argc - first + 1, argv + first - 1, cli, err);
	if (rc || cli->command == HG_CMD_HELP || cli->command == HG_CMD_VERSION)
		return rc;
	return check_fit(cli, err);
}
