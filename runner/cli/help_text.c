/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The help of every command as data (cli/help.h): its synopsis, a line for
 * the overview, what it does, its options and examples (cli/help_text.h).  `hgrun --help`,
 * `hgrun COMMAND --help`, the man page hgrun(1) and the shell completion are
 * all made from these tables (cli/help.c, cli/manpage.c, cli/complete.c);
 * docs/cli.md says the same at more length. */
#include <stddef.h>

#include "cli/help_text.h"

static const struct hg_help_option run_options[] = {
	{ "-o, --output DIR",
	  "result directory; it must be new or empty" },
	{ "--force",
	  "-o DIR may hold an earlier run: its result.json, traces, series.jsonl, "
	  "load outputs, a killed run's leftovers and report/ are removed first "
	  "(nothing else is touched; other files make hgrun refuse even with "
	  "--force)" },
	{ "--duration TIME",
	  "the scenario's duration for quick runs (e.g. 2s; 1ms..30d); refused when "
	  "threads or loads would start after it" },
	{ "--cut",
	  "with --duration: run only what starts before the new end" },
	{ "--scale F",
	  "every start, stop, finish and the duration times F (0.1: each phase a "
	  "tenth as long)" },
	{ "--set PATH=VALUE",
	  "change one value, as a sweep grid would (repeatable; all are applied, "
	  "then checked once): duration, threads[NAME].KEY.KEY, loads[NAME].KEY "
	  "(NAME or index)" },
	{ "--strict",
	  "exit 4 instead of warning when a policy, priority, reservation or memory "
	  "lock is not granted" },
	{ "--kernel-trace",
	  "record kernel events and attribute each gap to a cause (as trace.kernel: "
	  "true; docs/kernel-trace.md)" },
	{ "--quiet",
	  "no start line, progress or summary" },
	{ "--json",
	  "stdout: one line, a JSON summary for scripts (verdict, exit_status, "
	  "threads, loads, ...); the summary on stderr" },
	{ NULL, NULL },
};

static const char *const run_examples[] = {
	"hgrun experiments/02_periodic_deadlines.yaml",
	"hgrun run experiments/02_periodic_deadlines.yaml --duration 2s -o /tmp/pd",
	"hgrun run experiments/02_periodic_deadlines.yaml --set 'threads[audio].priority=RTMED' \\",
	"          --set 'threads[audio].workload.exec=3ms'",
	NULL,
};

static const struct hg_help_option sweep_options[] = {
	{ "-o, --output DIR",
	  "sweep directory; new or empty, or one of this sweep's shards" },
	{ "--resume",
	  "DIR holds this sweep already (same scenario, grid and --set, else "
	  "refused): skip runs with a complete result.json, rerun the others" },
	{ "--force",
	  "DIR may hold an earlier sweep: the files hgrun wrote there (sweep.json, "
	  "pNNN/rM/ result files) are removed first" },
	{ "--shard K/N",
	  "run only shard K's balanced share (0 <= K < N), for job arrays: --shard "
	  "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" },
	{ "--seed N",
	  "shuffle each replicate's points with seed N (default: one derived from "
	  "the sweep, recorded in sweep.json)" },
	{ "--grid-order",
	  "run each replicate's points in grid order" },
	{ "--list",
	  "print the runs (index, point, repeat, values) and stop" },
	{ "--duration TIME",
	  "every run's duration (e.g. 2s; 1ms..30d)" },
	{ "--cut",
	  "with --duration: run only what starts before the new end, as for run" },
	{ "--scale F",
	  "every run's timeline times F" },
	{ "--set PATH=VALUE",
	  "change one value of every run (not a swept path; repeatable); also "
	  "sweep.repeat=N and sweep.grid.PATH=[V1, V2]" },
	{ "--strict",
	  "exit 4 (and stop) when a privilege is not granted" },
	{ "--kernel-trace",
	  "record kernel events in every run (docs/kernel-trace.md)" },
	{ "--quiet",
	  "no summaries or progress; one line per failed run" },
	{ NULL, NULL },
};

static const char *const sweep_examples[] = {
	"hgrun sweep experiments/06_sweep.yaml --list",
	"hgrun sweep experiments/06_sweep.yaml -o /tmp/sw --duration 2s",
	"hgrun sweep experiments/06_sweep.yaml -o /tmp/sw --duration 2s --resume",
	"hgrun sweep experiments/cache_penalty.yaml -o /shared/cp --shard 3/16",
	NULL,
};

static const char *const sweep_merge_examples[] = {
	"hgrun sweep-merge /tmp/cp /scratch/node*/cp",
	NULL,
};

static const struct hg_help_option validate_options[] = {
	{ "--resolved",
	  "print the resolved scenario (defaults filled in, units in ns and bytes) "
	  "as JSON; with several files, a JSON list of {\"file\": ..., \"scenario\": "
	  "...}" },
	{ "--set PATH=VALUE",
	  "check with this value changed (as run --set would)" },
	{ NULL, NULL },
};

static const char *const validate_examples[] = {
	"hgrun validate experiments/*.yaml",
	"hgrun validate --resolved experiments/rx_deadline.yaml",
	"hgrun validate experiments/rx_deadline.yaml --set 'threads[rt].priority=RTLOW'",
	NULL,
};

static const struct hg_help_option list_options[] = {
	{ "--json",
	  "the lists as one JSON object (each parameter's kind, default, range, help; "
	  "whether a plugin works here)" },
	{ NULL, NULL },
};

static const struct hg_help_option calibrate_options[] = {
	{ "--json",
	  "one JSON object with result.json's field names (tsc, gap)" },
	{ NULL, NULL },
};

static const char *const list_examples[] = {
	"hgrun list",
	"hgrun list workloads --json",
	NULL,
};

static const char *const calibrate_examples[] = {
	"hgrun calibrate",
	"hgrun calibrate --json",
	NULL,
};

static const struct hg_help_option doctor_options[] = {
	{ "--set PATH=VALUE",
	  "weigh the scenario with this value changed (repeatable)" },
	{ "--json",
	  "one JSON object (format hgrun-doctor/1: checks with id, title, severity, "
	  "value, why, fix; schemas/doctor.schema.json)" },
	{ NULL, NULL },
};

static const char *const doctor_examples[] = {
	"hgrun doctor",
	"hgrun doctor experiments/dispatch_latency.yaml",
	"hgrun doctor experiments/rx_deadline.yaml --json | jq '.checks[] | select(.severity != \"ok\")'",
	NULL,
};

static const struct hg_help_option schema_options[] = {
	{ "--path",
	  "print the schema file's absolute path instead" },
	{ NULL, NULL },
};

static const char *const schema_examples[] = {
	"hgrun schema --path",
	"hgrun schema result --path",
	"hgrun schema            # the text; > scenario.schema.json copies it",
	NULL,
};

static const char *const hourglass_examples[] = {
	"hgrun hourglass -d 60s -n 10 -a -p NORMAL -w CPU_YIELD 0.9ms",
	"hgrun hourglass -d 6m -n 1 -t 0 -p RTHIGH -w LAT 5.3ms -i RTC",
	NULL,
};

static const char *const completion_examples[] = {
	"source <(hgrun completion bash)",
	"hgrun completion zsh > ~/.zfunc/_hgrun",
	NULL,
};

const struct hg_help hg_helps[] = {
	{ HG_CMD_RUN, "run",
	  "[run] SCENARIO [-o DIR] [--force] [--duration TIME [--cut] | --scale F] "
	  "[--set PATH=VALUE]... [--strict] [--kernel-trace] [--quiet] [--json]",
	  "run it (the default command); results go to results/<name>/<UTC time>/ "
	  "unless -o DIR is given",
	  "Runs the scenario once.  Results go to results/<name>/<UTC time>/ (a -N "
	  "suffix when that exists) unless -o DIR is given.",
	  run_options, run_examples },
	{ HG_CMD_SWEEP, "sweep",
	  "sweep SCENARIO [-o DIR] [--resume | --force] [--shard K/N] [--list] "
	  "[--seed N | --grid-order] [--duration TIME [--cut] | --scale F] [--set "
	  "PATH=VALUE]... [--strict] [--kernel-trace] [--quiet]",
	  "run it once per point of its sweep: grid and repeat; results go to "
	  "results/<name>/sweep-<UTC time>/ unless -o DIR is given, one directory "
	  "per run, indexed by sweep.json; --resume",
	  "Runs the scenario once per point of its sweep: grid, each point `repeat` "
	  "times, one directory per run (DIR/pNNN/rM/) indexed by DIR/sweep.json. "
	  "Results go to results/<name>/sweep-<UTC time>/ unless -o DIR is given. "
	  "Prints one line per run with the time left, and a final count.",
	  sweep_options, sweep_examples },
	{ HG_CMD_MERGE, "sweep-merge",
	  "sweep-merge OUT SHARD_DIR...",
	  "merge the shards of one sweep into OUT",
	  "Brings the shards of one sweep, written to different directories, "
	  "together in OUT (new or empty): checks that every SHARD_DIR's sweep.json "
	  "describes the same sweep (scenario, grid, repeat, --set; refused "
	  "otherwise, naming the difference), copies each complete run, and writes "
	  "one sweep.json.  Exits 1 when runs are missing (listed); `hgrun sweep "
	  "SCENARIO -o OUT --resume` then runs just those.",
	  NULL, sweep_merge_examples },
	{ HG_CMD_VALIDATE, "validate",
	  "validate [--resolved] [--set PATH=VALUE]... FILE...",
	  "check scenarios; --resolved prints the resolved scenario (defaults "
	  "filled in, units in ns/bytes) as JSON",
	  "Checks scenario files without running anything: prints 'FILE: ok (...)' "
	  "for each good one and every error of the bad ones (exit 2 if any is "
	  "invalid). A program a load runs that is not on PATH here (stress-ng, "
	  "ping) is a note, not an error: 'run' then stops before it measures (exit "
	  "4).",
	  validate_options, validate_examples },
	{ HG_CMD_LIST, "list",
	  "list [--json] [workloads|timers|priorities|loads|metrics]",
	  "the workloads, timers, priorities, loads and metrics",
	  "Lists what a scenario may name: workloads and their parameters, timers, "
	  "priority levels, loads, expectation metrics (all of them without a "
	  "topic).",
	  list_options, list_examples },
	{ HG_CMD_CALIBRATE, "calibrate",
	  "calibrate [--json]",
	  "the counter rate, loop cost and gap threshold here",
	  "Measures the counter rate, the measuring loop's cost and the gap "
	  "threshold `gap: auto` would choose on this machine.",
	  calibrate_options, calibrate_examples },
	{ HG_CMD_DOCTOR, "doctor",
	  "doctor [SCENARIO] [--set PATH=VALUE]... [--json]",
	  "check this machine for a measurement: what to change and why",
	  "Checks this machine for a measurement: RT throttling, the preemption "
	  "model, a VM, the frequency governor and boost, idle states and PM QoS, "
	  "SMT, CPU isolation, interrupts and irqbalance, timer slack, transparent "
	  "huge pages, swap, the memory-lock limit, the clocksource and the TSC.  "
	  "For each: its value, why it matters, how to change it, and a severity "
	  "(ok, info, warn, bad).  With a SCENARIO the findings are weighed by what "
	  "it uses (its RT threads, latency threads, CPUs, lock_memory, "
	  "cpu_dma_latency).  A run's warnings about the same settings name the "
	  "check.  Exit 5 when a check is bad.",
	  doctor_options, doctor_examples },
	{ HG_CMD_SCHEMA, "schema",
	  "schema [scenario|result|doctor] [--path]",
	  "the scenario JSON Schema for editors (--path: its file)",
	  "Prints the JSON Schema of scenarios (the default), of result.json or of "
	  "hgrun doctor --json, as installed with hgrun "
	  "(PREFIX/share/hgrun/schemas/; a binary in its build tree uses the source "
	  "tree's schemas/).  Point an editor at it with a first line   # "
	  "yaml-language-server: "
	  "$schema=/usr/local/share/hgrun/schemas/scenario.schema.json",
	  schema_options, schema_examples },
	{ HG_CMD_HOURGLASS, "hourglass",
	  "hourglass HOURGLASS_OPTIONS...",
	  "a Hourglass command line (-n 1 -w LAT 5.3ms ...) as a scenario on stdout",
	  "Turns a Hourglass 0.5 command line (Regehr, USENIX 2002, appendix A) "
	  "into the equivalent scenario YAML on stdout; every mapping that is not "
	  "one to one is said on stderr (-i RTC and HR: timer absolute; NATIVE: "
	  "timer sleep; threads pinned to CPU 0 as on the paper's uniprocessor; a "
	  "time finer than 1 ns, such as the RTC's 976.5625us, rounded to the "
	  "nearest ns, which it names).  The YAML is checked as validate checks a "
	  "file: values hgrun refuses (an exec longer than its period) exit 2 with "
	  "the errors on stderr, the YAML still printed.  Nothing is run.  Threads "
	  "are named "
	  "t0..tN-1 (or one set t.0..t.N-1), Hourglass's ids.",
	  NULL, hourglass_examples },
	{ HG_CMD_COMPLETION, "completion",
	  "completion bash|zsh",
	  "the shell completion script (installed with hgrun)",
	  "Prints the bash or zsh completion of hgrun: commands, options, scenario files "
	  "and, after --set, the scenario's keys (threads[NAME].KEY with the names of the "
	  "scenario on the command line, every workload's, timer's and load's parameters) "
	  "and the values of a few (priority levels, timers, workload and load types). cmake "
	  "--install puts it in PREFIX/share/bash-completion/completions/hgrun and "
	  "PREFIX/share/zsh/site-functions/_hgrun.",
	  NULL, completion_examples },
};
const size_t hg_n_helps = sizeof(hg_helps) / sizeof(hg_helps[0]);
