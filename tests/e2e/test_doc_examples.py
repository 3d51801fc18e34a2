# SPDX-License-Identifier: GPL-2.0-or-later
"""Every example command of README.md, docs/*.md and `hgrun COMMAND --help`
runs (or validates) as written.

The examples are the lines of ```sh blocks that start with `hgrun` or
`build/hgrun` (after an optional `sudo`).  Each runs through bash in a
scratch directory holding links to the repository's experiments/ and
build/, with absolute -o paths moved under it.  `run` commands (and the
default command) run with `--duration 100ms --quiet` in place of their own
duration; `sweep` commands get `--list`, which parses every option and
checks the grid without running it.  A line whose comment says
`# not run: REASON` is left out; NOT_RUN below lists them, so marking one
is a deliberate, visible act.

An example whose scenario has a load that runs a program this host lacks (stress-ng, ping:
docs/loads.md, "Programs a load runs") cannot run here: hgrun stops it before it measures
(exit 4, naming the program and its Debian package), and the example is skipped with that
reason, once the program is confirmed missing from PATH.
"""
import os
import pathlib
import re
import shlex
import shutil
import subprocess

import pytest

from runhelp import ROOT

DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
COMMANDS = {"run", "sweep", "sweep-merge", "validate", "list", "calibrate", "schema", "help",
            "version", "hourglass", "doctor", "completion"}
SHELL_OPERATORS = {"|", "||", "&&", ";", ">", ">>", "<", "&"}
NOT_RUN = {"docs/cli.md: build/hgrun sweep-merge /tmp/hg-merged /scratch/node*/hg-sweep",
           "README.md: build/hgrun sweep-merge /tmp/cp /scratch/node*/cp"}


# hgrun's words for a load's program that is not on PATH (runner/scenario/scenario.c)
MISSING = re.compile(r"error: loads\[\d+\]\.type: load '[^']*' \(\w+\) runs ([^\s,]+), which is "
                     r"not on PATH here \(Debian package ([\w.+-]+):")


def examples():
    found = []
    for doc in DOCS:
        in_sh = False
        for number, line in enumerate(doc.read_text().splitlines(), 1):
            if line.startswith("```"):
                in_sh = not in_sh and line.strip() in ("```sh", "```bash", "```shell")
                continue
            if in_sh and re.match(r"\s*(sudo\s+)?(build/)?hgrun\b", line):
                found.append((f"{doc.relative_to(ROOT)}:{number}", line.strip()))
    return found


def help_examples():
    """The examples of `hgrun COMMAND --help` (a trailing backslash continues a line)."""
    found = []
    hgrun = ROOT / "build" / "hgrun"
    for command in ("run", "sweep", "validate", "list", "calibrate", "schema", "hourglass",
                    "doctor", "completion", "help"):
        text = subprocess.run([str(hgrun), command, "--help"], capture_output=True,
                              text=True).stdout if hgrun.exists() else ""
        block = text.split("examples:\n")[1].split("\n\n")[0] if "examples:\n" in text else ""
        block = block.replace("\\\n", " ")
        found += [(f"hgrun {command} --help", line.strip()) for line in block.splitlines()
                  if re.match(r"\s*(sudo\s+)?(build/)?hgrun\b", line)]
    return found


EXAMPLES = examples() + help_examples()


def test_examples_were_found():
    assert len(EXAMPLES) >= 20
    assert sum(where.startswith("hgrun ") for where, _ in EXAMPLES) >= 10
    marked = {f"{where.split(':')[0]}: {line.split('#')[0].strip()}" for where, line in EXAMPLES
              if "# not run:" in line}
    assert marked == NOT_RUN, "a '# not run:' example must be listed in NOT_RUN (and only those)"


def word(token):
    """A token as bash should see it: globs and variables left to bash."""
    return token if re.search(r"[*$]", token) else shlex.quote(token)


def split_shell(line):
    """The words of `line` up to its first shell operator (a pipe, a redirection, `;`),
    and the rest as written: `hgrun doctor --json | jq ...` is hgrun's words, then the
    pipe. Quoted operators (jq's own `|`) stay inside their word."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    tokens = list(lexer)
    for i, t in enumerate(tokens):
        if t in SHELL_OPERATORS:
            return tokens[:i], tokens[i:]
    return tokens, []


def tail_words(tail, scratch):
    """The words after hgrun's, for bash: operators as they are, a redirection into an
    absolute or home path moved into the scratch directory, a program named after a pipe
    kept."""
    out = []
    for i, t in enumerate(tail):
        if t in SHELL_OPERATORS:
            out.append(t)
        elif i and tail[i - 1] in (">", ">>") and t.startswith(("/", "~")):
            target = scratch / "abs" / t.lstrip("~/")
            target.parent.mkdir(parents=True, exist_ok=True)
            out.append(shlex.quote(str(target)))
        else:
            out.append(word(t))
    return out


def piped_programs(tail):
    """The programs a line's tail runs (the word after each `|`)."""
    return [tail[i + 1] for i, t in enumerate(tail[:-1]) if t == "|"]


def adapt(line, scratch):
    tokens, tail = split_shell(line)
    if tokens[0] == "sudo":
        tokens = tokens[1:]
    tokens[0] = str(ROOT / "build" / "hgrun")
    command = tokens[1] if len(tokens) > 1 and tokens[1] in COMMANDS else "run"
    out, i = [], 1
    while i < len(tokens):
        t = tokens[i]
        if command == "run" and t in ("--duration", "--scale"):
            i += 2
            continue
        if command == "run" and t == "--cut":
            i += 1
            continue
        if t in ("-o", "--output") and i + 1 < len(tokens):
            target = tokens[i + 1]
            if target.startswith("/"):
                target = str(scratch / "abs" / target.lstrip("/"))
            out += [t, target]
            i += 2
            continue
        out.append(t)
        i += 1
    if command == "run":
        out += ["--duration", "100ms", "--cut", "--quiet"]
    if command == "sweep" and "--list" not in out:
        out.append("--list")
    return command, " ".join([shlex.quote(tokens[0])] + [word(t) for t in out]
                             + tail_words(tail, scratch))


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    d = tmp_path_factory.mktemp("examples")
    for name in ("experiments", "build"):
        (d / name).symlink_to(ROOT / name)
    return d


@pytest.mark.parametrize("where, line", [e for e in EXAMPLES if "# not run:" not in e[1]],
                         ids=[e[0] for e in EXAMPLES if "# not run:" not in e[1]])
def test_example_runs_as_written(hgrun_bin, scratch, where, line):
    absent = [p for p in piped_programs(split_shell(line)[1]) if shutil.which(p) is None]
    if absent:
        pytest.skip(f"{where}: pipes into {', '.join(absent)}, not on PATH here")
    command, shell = adapt(line, scratch)
    env = dict(os.environ, SLURM_ARRAY_TASK_ID="1", SLURM_ARRAY_TASK_COUNT="4")
    proc = subprocess.run(["bash", "-c", shell], cwd=scratch, env=env, text=True,
                          capture_output=True, timeout=120)
    missing = {(prog, pkg) for prog, pkg in MISSING.findall(proc.stderr)
               if shutil.which(prog) is None}
    if proc.returncode == 4 and missing:
        pytest.skip(f"{where}: needs " + ", ".join(f"{prog} (apt-get install {pkg})"
                                                  for prog, pkg in sorted(missing))
                    + ", not on PATH here")
    # a 100 ms run may miss an expectation (5); doctor exits 5 when a check of this machine
    # is bad
    ok = {0, 5} if command in ("run", "doctor") else {0}
    assert proc.returncode in ok, f"{where}: {line}\n$ {shell}\n{proc.stderr}"
    assert "unknown option" not in proc.stderr and "belongs to" not in proc.stderr
