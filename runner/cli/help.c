/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The help texts: one per command, each with its usage, options and
 * examples (docs/cli.md says the same at more length). */
#include "cli/help.h"

struct command_help {
	enum hg_command command;
	const char *usage;       /* "usage: ..." lines */
	const char *text;        /* what it does, options, examples */
};

static const struct command_help helps[] = {
	{ HG_CMD_RUN,
	  "usage: hgrun [run] SCENARIO [-o DIR] [--force] [--duration TIME [--cut] | --scale F]\n"
	  "                  [--set PATH=VALUE]... [--strict] [--kernel-trace] [--quiet] [--json]\n",
	  "Runs the scenario once.  Results go to results/<name>/<UTC time>/ (a -N suffix\n"
	  "when that exists) unless -o DIR is given.\n"
	  "\n"
	  "options:\n"
	  "  -o, --output DIR    result directory; it must be new or empty\n"
	  "  --force             -o DIR may hold an earlier run: its result.json, traces,\n"
	  "                      series.jsonl, load outputs, a killed run's leftovers and\n"
	  "                      report/ are removed first (nothing else is touched; other\n"
	  "                      files make hgrun refuse even with --force)\n"
	  "  --duration TIME     the scenario's duration for quick runs (e.g. 2s; 1ms..30d);\n"
	  "                      refused when threads or loads would start after it\n"
	  "  --cut               with --duration: run only what starts before the new end\n"
	  "  --scale F           every start, stop, finish and the duration times F (0.1:\n"
	  "                      each phase a tenth as long)\n"
	  "  --set PATH=VALUE    change one value, as a sweep grid would (repeatable; all\n"
	  "                      are applied, then checked once): duration,\n"
	  "                      threads[NAME].KEY.KEY, loads[NAME].KEY (NAME or index)\n"
	  "  --strict            exit 4 instead of warning when a policy, priority,\n"
	  "                      reservation or memory lock is not granted\n"
	  "  --kernel-trace      record kernel events and attribute each gap to a cause\n"
	  "                      (as trace.kernel: true; docs/kernel-trace.md)\n"
	  "  --quiet             no start line, progress or summary\n"
	  "  --json              stdout: one line, a JSON summary for scripts (verdict,\n"
	  "                      exit_status, threads, loads, ...); the summary on stderr\n"
	  "\n"
	  "examples:\n"
	  "  hgrun experiments/02_periodic_deadlines.yaml\n"
	  "  hgrun run experiments/02_periodic_deadlines.yaml --duration 2s -o /tmp/pd\n"
	  "  hgrun run experiments/02_periodic_deadlines.yaml --set 'threads[audio].priority=RTMED' \\\n"
	  "            --set 'threads[audio].workload.exec=3ms'\n" },
	{ HG_CMD_SWEEP,
	  "usage: hgrun sweep SCENARIO [-o DIR] [--resume | --force] [--shard K/N] [--list]\n"
	  "                   [--seed N | --grid-order]\n"
	  "                   [--duration TIME [--cut] | --scale F] [--set PATH=VALUE]...\n"
	  "                   [--strict] [--quiet]\n",
	  "Runs the scenario once per point of its sweep: grid, each point `repeat`\n"
	  "times, one directory per run (DIR/pNNN/rM/) indexed by DIR/sweep.json.\n"
	  "Results go to results/<name>/sweep-<UTC time>/ unless -o DIR is given.\n"
	  "Prints one line per run with the time left, and a final count.\n"
	  "\n"
	  "options:\n"
	  "  -o, --output DIR    sweep directory; new or empty, or one of this sweep's shards\n"
	  "  --resume            DIR holds this sweep already (same scenario, grid and --set,\n"
	  "                      else refused): skip runs with a complete result.json, rerun\n"
	  "                      the others\n"
	  "  --force             DIR may hold an earlier sweep: the files hgrun wrote there\n"
	  "                      (sweep.json, pNNN/rM/ result files) are removed first\n"
	  "  --shard K/N         run only shard K's balanced share (0 <= K < N), for job arrays:\n"
	  "                      --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT\n"
	  "  --seed N            shuffle each replicate's points with seed N (default: one\n"
	  "                      derived from the sweep, recorded in sweep.json)\n"
	  "  --grid-order        run each replicate's points in grid order\n"
	  "  --list              print the runs (index, point, repeat, values) and stop\n"
	  "  --duration TIME     every run's duration (e.g. 2s; 1ms..30d); --cut as for run\n"
	  "  --scale F           every run's timeline times F\n"
	  "  --set PATH=VALUE    change one value of every run (not a swept path; repeatable);\n"
	  "                      also sweep.repeat=N and sweep.grid.PATH=[V1, V2]\n"
	  "  --strict            exit 4 (and stop) when a privilege is not granted\n"
	  "  --kernel-trace      record kernel events in every run (docs/kernel-trace.md)\n"
	  "  --quiet             no summaries or progress; one line per failed run\n"
	  "\n"
	  "examples:\n"
	  "  hgrun sweep experiments/06_sweep.yaml --list\n"
	  "  hgrun sweep experiments/06_sweep.yaml -o /tmp/sw --duration 2s\n"
	  "  hgrun sweep experiments/06_sweep.yaml -o /tmp/sw --duration 2s --resume\n"
	  "  hgrun sweep experiments/cache_penalty.yaml -o /shared/cp --shard 3/16\n" },
	{ HG_CMD_MERGE,
	  "usage: hgrun sweep-merge OUT SHARD_DIR...\n",
	  "Brings the shards of one sweep, written to different directories, together\n"
	  "in OUT (new or empty): checks that every SHARD_DIR's sweep.json describes the\n"
	  "same sweep (scenario, grid, repeat, --set; refused otherwise, naming the\n"
	  "difference), copies each complete run, and writes one sweep.json.  Exits 1\n"
	  "when runs are missing (listed); `hgrun sweep SCENARIO -o OUT --resume` then\n"
	  "runs just those.\n"
	  "\n"
	  "example:\n"
	  "  hgrun sweep-merge /tmp/cp /scratch/node*/cp\n" },
	{ HG_CMD_VALIDATE,
	  "usage: hgrun validate [--resolved] [--set PATH=VALUE]... FILE...\n",
	  "Checks scenario files without running anything: prints 'FILE: ok (...)' for\n"
	  "each good one and every error of the bad ones (exit 2 if any is invalid).\n"
	  "A program a load runs that is not on PATH here (stress-ng, ping) is a note,\n"
	  "not an error: 'run' then stops before it measures (exit 4).\n"
	  "\n"
	  "options:\n"
	  "  --resolved          print the resolved scenario (defaults filled in, units in\n"
	  "                      ns and bytes) as JSON; with several files, a JSON list of\n"
	  "                      {\"file\": ..., \"scenario\": ...}\n"
	  "  --set PATH=VALUE    check with this value changed (as run --set would)\n"
	  "\n"
	  "examples:\n"
	  "  hgrun validate experiments/*.yaml\n"
	  "  hgrun validate --resolved experiments/rx_deadline.yaml\n"
	  "  hgrun validate experiments/rx_deadline.yaml --set 'threads[rt].priority=RTLOW'\n" },
	{ HG_CMD_LIST,
	  "usage: hgrun list [--json] [workloads|timers|priorities|loads|metrics]\n",
	  "Lists what a scenario may name: workloads and their parameters, timers,\n"
	  "priority levels, loads, expectation metrics (all of them without a topic).\n"
	  "\n"
	  "examples:\n"
	  "  hgrun list\n"
	  "  hgrun list workloads --json\n" },
	{ HG_CMD_CALIBRATE,
	  "usage: hgrun calibrate [--json]\n",
	  "Measures the counter rate, the measuring loop's cost and the gap threshold\n"
	  "`gap: auto` would choose on this machine.\n"
	  "\n"
	  "examples:\n"
	  "  hgrun calibrate\n"
	  "  hgrun calibrate --json\n" },
	{ HG_CMD_HOURGLASS,
	  "usage: hgrun hourglass HOURGLASS_OPTIONS... > scenario.yaml\n",
	  "Turns a Hourglass 0.5 command line (Regehr, USENIX 2002, appendix A) into the\n"
	  "equivalent scenario YAML on stdout; every mapping that is not one to one is\n"
	  "said on stderr (-i RTC and HR: timer absolute; NATIVE: timer sleep; threads\n"
	  "pinned to CPU 0 as on the paper's uniprocessor; a time finer than 1 ns, such\n"
	  "as the RTC's 976.5625us, rounded to the nearest ns, which it names).  Nothing\n"
	  "is run.  Threads are named t0..tN-1 (or one set t.0..t.N-1), Hourglass's ids.\n"
	  "\n"
	  "examples:\n"
	  "  hgrun hourglass -d 60s -n 10 -a -p NORMAL -w CPU_YIELD 0.9ms\n"
	  "  hgrun hourglass -d 6m -n 1 -t 0 -p RTHIGH -w LAT 5.3ms -i RTC\n" },
	{ HG_CMD_DOCTOR,
	  "usage: hgrun doctor [SCENARIO] [--set PATH=VALUE]... [--json]\n",
	  "Checks this machine for a measurement: RT throttling, the preemption model,\n"
	  "a VM, the frequency governor and boost, idle states and PM QoS, SMT, CPU\n"
	  "isolation, interrupts and irqbalance, timer slack, transparent huge pages,\n"
	  "swap, the memory-lock limit, the clocksource and the TSC.  For each: its\n"
	  "value, why it matters, how to change it, and a severity (ok, info, warn,\n"
	  "bad).  With a SCENARIO the findings are weighed by what it uses (its RT\n"
	  "threads, latency threads, CPUs, lock_memory, cpu_dma_latency).  A run's\n"
	  "warnings about the same settings name the check.  Exit 5 when a check is bad.\n"
	  "\n"
	  "options:\n"
	  "  --set PATH=VALUE    weigh the scenario with this value changed (repeatable)\n"
	  "  --json              one JSON object (format hgrun-doctor/1: checks with id,\n"
	  "                      title, severity, value, why, fix; schemas/doctor.schema.json)\n"
	  "\n"
	  "examples:\n"
	  "  hgrun doctor\n"
	  "  hgrun doctor experiments/dispatch_latency.yaml\n"
	  "  hgrun doctor experiments/rx_deadline.yaml --json | jq '.checks[] | select(.severity != \"ok\")'\n" },
	{ HG_CMD_SCHEMA,
	  "usage: hgrun schema [scenario|result|doctor] [--path]\n",
	  "Prints the JSON Schema of scenarios (the default), of result.json or of\n"
	  "hgrun doctor --json, as\n"
	  "installed with hgrun (PREFIX/share/hgrun/schemas/; a binary in its build tree\n"
	  "uses the source tree's schemas/).  Point an editor at it with a first line\n"
	  "  # yaml-language-server: $schema=/usr/local/share/hgrun/schemas/scenario.schema.json\n"
	  "\n"
	  "options:\n"
	  "  --path              print the schema file's absolute path instead\n"
	  "\n"
	  "examples:\n"
	  "  hgrun schema --path\n"
	  "  hgrun schema result --path\n"
	  "  hgrun schema            # the text; > scenario.schema.json copies it\n" },
};

static const struct command_help *find(enum hg_command command)
{
	for (size_t i = 0; i < sizeof(helps) / sizeof(helps[0]); i++)
		if (helps[i].command == command)
			return &helps[i];
	return NULL;
}

static void overview(FILE *out)
{
	fputs("usage: hgrun [run] SCENARIO [-o DIR] [--force] [--duration TIME] [--set PATH=VALUE]...\n"
	      "                  [--strict] [--kernel-trace] [--quiet]\n"
	      "       hgrun sweep SCENARIO [-o DIR] [--resume | --force] [--shard K/N] [--list] ...\n"
	      "       hgrun sweep-merge OUT SHARD_DIR...\n"
	      "       hgrun validate [--resolved] [--set PATH=VALUE]... FILE...\n"
	      "       hgrun list [--json] [workloads|timers|priorities|loads|metrics]\n"
	      "       hgrun calibrate [--json]\n"
	      "       hgrun schema [scenario|result] [--path]\n"
	      "       hgrun hourglass HOURGLASS_OPTIONS...\n"
	      "       hgrun COMMAND --help | hgrun --help | hgrun --version\n"
	      "\n"
	      "Runs real-time experiments described in YAML scenario files (a modern\n"
	      "Hourglass): threads that poll the cycle counter and record every gap in\n"
	      "their execution, deadline hits and misses by CPU time received, timer\n"
	      "wake-up latency; results as JSON in one directory per run.\n"
	      "\n"
	      "commands (hgrun COMMAND --help for each one's options and examples):\n"
	      "  run SCENARIO      run it (the default command); results go to\n"
	      "                    results/<name>/<UTC time>/ unless -o DIR is given\n"
	      "  sweep SCENARIO    run it once per point of its sweep: grid and repeat; results\n"
	      "                    go to results/<name>/sweep-<UTC time>/ unless -o DIR is given,\n"
	      "                    one directory per run, indexed by sweep.json; --resume\n"
	      "  sweep-merge OUT SHARD_DIR...  merge the shards of one sweep into OUT\n"
	      "  validate FILE...  check scenarios; --resolved prints the resolved\n"
	      "                    scenario (defaults filled in, units in ns/bytes) as JSON\n"
	      "  list              the workloads, timers, priorities, loads and metrics\n"
	      "  calibrate         the counter rate, loop cost and gap threshold here\n"
	      "  schema            the scenario JSON Schema for editors (--path: its file)\n"
	      "  hourglass ARGS    a Hourglass command line (-n 1 -w LAT 5.3ms ...) as a\n"
	      "                    scenario on stdout\n"
	      "\n"
	      "exit codes: 0 ok, 5 an expectation failed (every run complete and valid),\n"
	      "            1 a run failed or is incomplete, 2 invalid scenario,\n"
	      "            3 bad command line, 4 privilege or kernel feature missing (--strict)\n"
	      "            or a program a load runs missing (before measuring),\n"
	      "            130/143/129/131 stopped by SIGINT/SIGTERM/SIGHUP/SIGQUIT\n"
	      "            (a result is still written; SIGUSR1 prints a status line)\n"
	      "docs: docs/cli.md (command line), docs/scenario.md (scenario reference), README.md\n",
	      out);
}

void hg_cli_usage(FILE *out, enum hg_command command)
{
	const struct command_help *h = find(command);
	if (!h) {
		overview(out);
		return;
	}
	fputs(h->usage, out);
	fputc('\n', out);
	fputs(h->text, out);
	fputs("\nexit codes: 0 ok, 5 an expectation failed (runs complete and valid), 1 a run\n"
	      "failed or is incomplete, 2 invalid scenario, 3 bad command line, 4 privilege\n"
	      "missing (--strict) or a program a load runs missing, 130/143/129/131\n"
	      "SIGINT/SIGTERM/SIGHUP/SIGQUIT; see docs/cli.md\n",
	      out);
}
