/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsing the command line (getopt_long after the subcommand); each option
 * says which commands take it, so a misplaced one is named with its
 * command, and a mistyped one gets a "did you mean". */
#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#include <unistd.h>

#include "base/names.h"
#include "base/units.h"
#include "cli/cli.h"

#define ON(c) (1u << (c))
#define RUNS (ON(HG_CMD_RUN) | ON(HG_CMD_SWEEP))

static const struct {
	const char *name;
	enum hg_command command;
} commands[] = {
	{ "run", HG_CMD_RUN }, { "sweep", HG_CMD_SWEEP }, { "sweep-merge", HG_CMD_MERGE },
	{ "validate", HG_CMD_VALIDATE }, { "list", HG_CMD_LIST },
	{ "calibrate", HG_CMD_CALIBRATE }, { "schema", HG_CMD_SCHEMA },
	{ "hourglass", HG_CMD_HOURGLASS }, { "doctor", HG_CMD_DOCTOR },
	{ "completion", HG_CMD_COMPLETION }, { "help", HG_CMD_HELP }, { "version", HG_CMD_VERSION },
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char *command_name(enum hg_command c)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (commands[i].command == c)
			return commands[i].name;
	return "?";
}

enum { OPT_DURATION = 256, OPT_STRICT, OPT_RESOLVED, OPT_JSON, OPT_QUIET, OPT_SHARD,
       OPT_LIST, OPT_SET, OPT_FORCE, OPT_RESUME, OPT_KERNEL_TRACE, OPT_CUT, OPT_SCALE,
       OPT_PATH, OPT_SEED, OPT_GRID_ORDER };

static const struct option options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "set", required_argument, NULL, OPT_SET },
	{ "cut", no_argument, NULL, OPT_CUT },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "resume", no_argument, NULL, OPT_RESUME },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "kernel-trace", no_argument, NULL, OPT_KERNEL_TRACE },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "resolved", no_argument, NULL, OPT_RESOLVED },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "grid-order", no_argument, NULL, OPT_GRID_ORDER },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "path", no_argument, NULL, OPT_PATH },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};
#define N_OPTIONS (sizeof(options) / sizeof(options[0]) - 1)

/* Which commands take each option (by its getopt value). */
static unsigned takers(int opt)
{
	switch (opt) {
	case 'o': case OPT_DURATION: case OPT_STRICT: case OPT_QUIET: case OPT_FORCE:
	case OPT_KERNEL_TRACE: case OPT_CUT: case OPT_SCALE: return RUNS;
	case OPT_SET: return RUNS | ON(HG_CMD_VALIDATE) | ON(HG_CMD_DOCTOR);
	case OPT_RESUME: case OPT_SHARD: case OPT_LIST: case OPT_SEED: case OPT_GRID_ORDER:
		return ON(HG_CMD_SWEEP);
	case OPT_RESOLVED: return ON(HG_CMD_VALIDATE);
	case OPT_PATH: return ON(HG_CMD_SCHEMA);
	case OPT_JSON: return ON(HG_CMD_LIST) | ON(HG_CMD_CALIBRATE) | ON(HG_CMD_RUN) |
			      ON(HG_CMD_DOCTOR);
	default: return ~0u;
	}
}

static int usage_error(FILE *err, enum hg_command c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int usage_error(FILE *err, enum hg_command c, const char *fmt, ...)
{
	va_list ap;
	fputs("hgrun: ", err);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	if (c == HG_CMD_HELP || c == HG_CMD_VERSION)
		fputs("\n(try 'hgrun --help')\n", err);
	else
		fprintf(err, "\n(try 'hgrun %s --help')\n", command_name(c));
	return HG_EXIT_USAGE;
}

/* "unknown option '--duraton'; did you mean '--duration'?" */
static int unknown_option(FILE *err, enum hg_command c, const char *arg)
{
	char word[64];
	const char *names[N_OPTIONS];
	char hint[512];
	if (strncmp(arg, "--", 2) != 0)
		return usage_error(err, c, "unknown option '%s'", arg);
	snprintf(word, sizeof(word), "%s", arg + 2);
	word[strcspn(word, "=")] = '\0';
	for (size_t i = 0; i < N_OPTIONS; i++)
		names[i] = options[i].name;
	const char *s = hg_suggest(word, names, N_OPTIONS);
	if (s)
		snprintf(hint, sizeof(hint), "; did you mean '--%s'?", s);
	else
		snprintf(hint, sizeof(hint), " (the options of '%s' are in 'hgrun %s --help')",
			 command_name(c), command_name(c));
	return usage_error(err, c, "unknown option '%s'%s", arg, hint);
}

static int parse_set(struct hg_cli *cli, char *arg, FILE *err)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return usage_error(err, cli->command, "--set takes PATH=VALUE, e.g. --set "
				   "threads[rt].priority=RTHIGH (got '%s')", arg);
	if (cli->n_sets == HG_MAX_SETS)
		return usage_error(err, cli->command, "at most %d --set options", HG_MAX_SETS);
	if ((size_t)(eq - arg) >= HG_SET_PATH_MAX)
		return usage_error(err, cli->command, "--set: the path is longer than %d characters",
				   HG_SET_PATH_MAX - 1);
	/* argv stays whole: result.json's command_line records it as typed. */
	char *path = cli->set_paths[cli->n_sets];
	memcpy(path, arg, (size_t)(eq - arg));
	path[eq - arg] = '\0';
	cli->sets[cli->n_sets].path = path;
	cli->sets[cli->n_sets].value = eq + 1;
	cli->n_sets++;
	return 0;
}

static int parse_shard(struct hg_cli *cli, const char *arg, FILE *err)
{
	uint64_t k, n;
	char msg[HG_ERRLEN], text[64];
	/* A copy is split: argv stays whole (result.json's command_line
	 * records `--shard 0/2`, not `--shard 0`). */
	snprintf(text, sizeof(text), "%s", arg);
	char *slash = strchr(text, '/');
	if (slash)
		*slash = '\0';
	if (!slash || strlen(arg) >= sizeof(text) || hg_parse_uint(text, 0, 1000000, &k, msg) != 0 ||
	    hg_parse_uint(slash + 1, 1, 1000000, &n, msg) != 0 || k >= n)
		return usage_error(err, cli->command, "--shard takes K/N with 0 <= K < N, e.g. "
				   "--shard 0/4");
	cli->shard = (unsigned)k;
	cli->shards = (unsigned)n;
	return 0;
}

/* Which commands take `opt`, for "--resolved belongs to 'validate'". */
static void misplaced(FILE *err, const struct hg_cli *cli, const char *arg, int opt)
{
	char list[128] = "";
	size_t used = 0;
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (takers(opt) & ON(commands[i].command))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s'%s'",
						 used ? " and " : "", commands[i].name);
	usage_error(err, cli->command, "%s belongs to %s, not '%s'", arg, list,
		    command_name(cli->command));
}

static int parse_options(int argc, char **argv, struct hg_cli *cli, FILE *err)
{
	char msg[HG_ERRLEN];
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:hV", options, NULL)) != -1) {
		if (c != ':' && c != '?' && c != 'h' && c != 'V' && !(takers(c) & ON(cli->command))) {
			/* the option, not its value: `--duration 2s` leaves optind after 2s */
			const char *opt = optarg && optind >= 2 && argv[optind - 1] == optarg
				? argv[optind - 2] : argv[optind - 1];
			misplaced(err, cli, opt, c);
			return HG_EXIT_USAGE;
		}
		switch (c) {
		case 'o': cli->out_dir = optarg; break;
		case OPT_DURATION:
			if (hg_parse_duration(optarg, &cli->duration_ns, msg) != 0)
				return usage_error(err, cli->command, "--duration: %s", msg);
			if (cli->duration_ns < 1000000)
				return usage_error(err, cli->command, "--duration: must be at least "
						   "1ms, as a scenario's duration (got %s)", optarg);
			cli->duration_given = true;
			break;
		case OPT_CUT: cli->cut = true; break;
		case OPT_SCALE:
			if (hg_parse_number(optarg, &cli->scale, msg) != 0 || !(cli->scale > 0))
				return usage_error(err, cli->command, "--scale takes a factor above 0, "
						   "e.g. --scale 0.3 for a run 0.3 times as long "
						   "(got '%s')", optarg);
			break;
		case OPT_SET:
			if (parse_set(cli, optarg, err))
				return HG_EXIT_USAGE;
			break;
		case OPT_FORCE: cli->force = true; break;
		case OPT_RESUME: cli->resume = true; break;
		case OPT_STRICT: cli->strict = true; break;
		case OPT_KERNEL_TRACE: cli->kernel_trace = true; break;
		case OPT_QUIET: cli->quiet = true; break;
		case OPT_RESOLVED: cli->resolved = true; break;
		case OPT_JSON: cli->json = true; break;
		case OPT_LIST: cli->dry_run = true; break;
		case OPT_PATH: cli->path_only = true; break;
		case OPT_SHARD:
			if (parse_shard(cli, optarg, err))
				return HG_EXIT_USAGE;
			break;
		case OPT_SEED:
			if (hg_parse_uint(optarg, 0, 999999999, &cli->seed, msg) != 0)
				return usage_error(err, cli->command, "--seed takes a whole number "
						   "0..999999999 (got '%s')", optarg);
			cli->seed_given = true;
			break;
		case OPT_GRID_ORDER: cli->grid_order = true; break;
		case 'h':
			cli->help_for = cli->command;
			cli->command = HG_CMD_HELP;
			return 0;
		case 'V': cli->command = HG_CMD_VERSION; return 0;
		case ':':
			return usage_error(err, cli->command, "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return unknown_option(err, cli->command, argv[optind - 1]);
		}
	}
	cli->files = argv + optind;
	cli->n_files = argc - optind;
	return 0;
}

static int check_fit(struct hg_cli *cli, FILE *err)
{
	enum hg_command c = cli->command;
	if (cli->resume && cli->force)
		return usage_error(err, c, "--resume keeps what DIR holds, --force removes it: "
				   "choose one");
	if ((cli->resume || cli->force) && !cli->out_dir)
		return usage_error(err, c, "%s needs -o DIR (the directory to %s)",
				   cli->resume ? "--resume" : "--force",
				   cli->resume ? "resume" : "replace");
	if (cli->scale > 0 && cli->duration_given)
		return usage_error(err, c, "--scale and --duration both set the run's length: "
				   "choose one (--scale shortens every phase alike, --duration "
				   "moves the end)");
	if (cli->grid_order && cli->seed_given)
		return usage_error(err, c, "--grid-order runs the points in grid order: --seed "
				   "(which shuffles them) does not go with it");
	if (cli->cut && !cli->duration_given)
		return usage_error(err, c, "--cut lets --duration leave out what starts after the "
				   "new end: it needs --duration");
	switch (c) {
	case HG_CMD_RUN:
	case HG_CMD_SWEEP:
		if (cli->n_files != 1)
			return usage_error(err, c, "%s takes one scenario file (got %d)",
					   command_name(c), cli->n_files);
		break;
	case HG_CMD_MERGE:
		if (cli->n_files < 2)
			return usage_error(err, c, "sweep-merge takes OUT and at least one SHARD_DIR");
		break;
	case HG_CMD_VALIDATE:
		if (cli->n_files < 1)
			return usage_error(err, c, "validate needs at least one scenario file");
		break;
	case HG_CMD_LIST:
		if (cli->n_files > 1)
			return usage_error(err, c, "list takes at most one topic");
		cli->list_what = cli->n_files ? cli->files[0] : NULL;
		break;
	case HG_CMD_SCHEMA:
		if (cli->n_files > 1)
			return usage_error(err, c, "schema takes at most one name (scenario or result)");
		cli->list_what = cli->n_files ? cli->files[0] : NULL;
		break;
	case HG_CMD_COMPLETION:
		if (cli->n_files != 1)
			return usage_error(err, c, "completion takes the shell: bash or zsh");
		break;
	case HG_CMD_DOCTOR:
		if (cli->n_files > 1)
			return usage_error(err, c, "doctor takes at most one scenario file");
		break;
	case HG_CMD_CALIBRATE:
		if (cli->n_files)
			return usage_error(err, c, "calibrate takes no argument ('%s')", cli->files[0]);
		break;
	default:
		break;
	}
	return 0;
}

/* `hgrun help [COMMAND]` */
static int help_command(int argc, char **argv, struct hg_cli *cli, FILE *err)
{
	cli->command = HG_CMD_HELP;
	cli->help_for = HG_CMD_HELP;
	if (argc < 3)
		return 0;
	if (!strcmp(argv[2], "--man")) {         /* the man pages (cli/manpage.h) */
		if (argc > 4)
			return usage_error(err, HG_CMD_HELP, "help --man takes at most one page "
					   "(hgrun or scenario)");
		cli->man = true;
		cli->list_what = argc > 3 ? argv[3] : NULL;
		return 0;
	}
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(argv[2], commands[i].name) == 0)
			cli->help_for = commands[i].command;
	if (cli->help_for == HG_CMD_HELP && strcmp(argv[2], "help") != 0)
		return usage_error(err, HG_CMD_HELP, "no help on '%s': not a command", argv[2]);
	return 0;
}

int hg_cli_parse(int argc, char **argv, struct hg_cli *cli, FILE *err)
{
	memset(cli, 0, sizeof(*cli));
	cli->argc = argc;
	/* getopt_long permutes argv (files move last); result.json records the
	 * command line as typed, from this copy, which lives as long as the process. */
	cli->argv = calloc((size_t)argc + 1, sizeof(*cli->argv));
	if (cli->argv)
		memcpy(cli->argv, argv, (size_t)argc * sizeof(*argv));
	else
		cli->argv = argv;
	cli->command = HG_CMD_RUN;
	int first = 1;
	if (argc < 2) {
		hg_cli_usage(err, HG_CMD_HELP);
		return HG_EXIT_USAGE;
	}
	for (size_t i = 0; i < N_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name) == 0) {
			cli->command = commands[i].command;
			first = 2;
			break;
		}
	}
	if (first == 2 && cli->command == HG_CMD_HELP)
		return help_command(argc, argv, cli, err);
	/* `hgrun valdate x.yaml`: a typo of a command, not a scenario file. */
	if (first == 1 && argv[1][0] != '-' && !strpbrk(argv[1], "./") &&
	    access(argv[1], F_OK) != 0) {
		const char *names[N_COMMANDS];
		char hint[256];
		for (size_t i = 0; i < N_COMMANDS; i++)
			names[i] = commands[i].name;
		return usage_error(err, HG_CMD_HELP, "unknown command '%s'%s", argv[1],
				   hg_unknown_hint(argv[1], names, N_COMMANDS, hint, sizeof(hint)));
	}
	/* Hourglass's own options (-n -d -t ...) are not hgrun's: kept as typed,
	 * except that `hgrun hourglass --help` is hgrun's help. */
	if (first == 2 && cli->command == HG_CMD_HOURGLASS) {
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			cli->help_for = HG_CMD_HOURGLASS;
			cli->command = HG_CMD_HELP;
			return 0;
		}
		cli->files = argv + 2;
		cli->n_files = argc - 2;
		return 0;
	}
	if (first == 2 && cli->command == HG_CMD_VERSION) {
		if (argc > 2)
			return usage_error(err, HG_CMD_VERSION, "version takes no argument");
		return 0;
	}
	int rc = parse_options(argc - first + 1, argv + first - 1, cli, err);
	if (cli->command == HG_CMD_HELP && first == 1)
		cli->help_for = HG_CMD_HELP;   /* hgrun --help: the overview */
	if (rc || cli->command == HG_CMD_HELP || cli->command == HG_CMD_VERSION)
		return rc;
	return check_fit(cli, err);
}
