# SPDX-License-Identifier: GPL-2.0-or-later
"""The habits of the platform (docs/cli.md, "Man pages and shell completion"): hgrun(1) and
hgrun-scenario(5) made by hgrun from its tables and installed by cmake --install with
hgreport(1) and the bash and zsh completion; the completion driven as bash drives it; every
command's --help with examples; the help tables agree with the parser. Runs nothing."""
import os
import re
import shutil
import subprocess

import pytest

from runhelp import ROOT, hgrun_path

SHARE = hgrun_path().parent / "share"
COMMANDS = ("run", "sweep", "sweep-merge", "validate", "list", "calibrate", "doctor", "schema",
            "hourglass", "completion")


def out(*args):
    p = subprocess.run([str(hgrun_path()), *map(str, args)], capture_output=True, text=True,
                       timeout=60)
    return p


def test_the_build_made_them_from_the_tables():
    """What the build installs is what hgrun prints now (CMakeLists.txt, hgrun_share)."""
    for rel, args in (("man/man1/hgrun.1", ("help", "--man")),
                      ("man/man5/hgrun-scenario.5", ("help", "--man", "scenario")),
                      ("bash-completion/completions/hgrun", ("completion", "bash")),
                      ("zsh/site-functions/_hgrun", ("completion", "zsh"))):
        assert (SHARE / rel).read_text() == out(*args).stdout, rel


@pytest.mark.skipif(not shutil.which("man"), reason="man-db is not installed (apt-get install man-db)")
@pytest.mark.parametrize("page", ["man/man1/hgrun.1", "man/man5/hgrun-scenario.5", "../../man/hgreport.1"])
def test_pages_render_without_warnings(page):
    path = (SHARE / page).resolve() if not page.startswith("..") else ROOT / "man" / "hgreport.1"
    p = subprocess.run(["man", "--warnings", "-l", str(path)], capture_output=True, text=True,
                       env=dict(os.environ, MANWIDTH="80"), timeout=60)
    assert p.returncode == 0 and not p.stderr.strip(), p.stderr
    assert "EXIT STATUS" in p.stdout or "TOP-LEVEL KEYS" in p.stdout


def test_every_scenario_key_is_described_and_documented():
    page = out("help", "--man", "scenario").stdout
    assert "not described here" not in page
    doc = (ROOT / "docs" / "scenario.md").read_text()
    keys = []
    for section in re.split(r"^\.SH ", page, flags=re.M):
        if section.split("\n")[0] in ("TOP-LEVEL KEYS", "TRACE", "THREADS", "RESERVATIONS",
                                      "LOAD KEYS", "EXPECT", "SWEEP"):
            keys += re.findall(r"^\.TP\n\.B (\S+)$", section, re.M)
    assert len(keys) > 30
    for key in keys:
        key = key.replace("\\-", "-")
        assert f"`{key}`" in doc, f"{key} is in hgrun-scenario(5) but not in docs/scenario.md"


def test_help_has_examples_and_whole_usage_lines():
    first = out("--help").stdout.split("\n       hgrun sweep")[0]
    for opt in ("--scale", "--cut", "--json", "--duration", "--set", "--kernel-trace"):
        assert opt in first, opt
    for cmd in COMMANDS:
        text = out(cmd, "--help").stdout
        assert re.search(r"\nexamples:\n  hgrun ", text) or re.search(r"\nexamples:\n  source", text), cmd


def _parser_options():
    """Every long option of the parser (runner/cli/cli.c)."""
    text = (ROOT / "runner" / "cli" / "cli.c").read_text()
    return sorted(set(re.findall(r'\{ "([a-z-]+)", (?:required|no)_argument', text)) - {"help", "version"})


@pytest.mark.parametrize("cmd", [c for c in COMMANDS if c not in ("hourglass", "completion")])
def test_help_lists_exactly_the_options_the_command_takes(cmd):
    """An option the parser gives a command is in its help, and one its help lists is taken."""
    helped = set(re.findall(r"^  (?:-\w, )?(--[a-z-]+)", out(cmd, "--help").stdout, re.M))
    for opt in _parser_options():
        p = out(cmd, f"--{opt}", *(["x"] if opt in ("duration", "scale", "set", "shard", "seed",
                                                    "output") else []))
        taken = "belongs to" not in p.stderr
        assert taken == (f"--{opt}" in helped), (cmd, opt, p.stderr[:200])


def bash_complete(words):
    script = (SHARE / "bash-completion/completions/hgrun")
    line = " ".join(f"'{w}'" for w in words)
    p = subprocess.run(["bash", "-c", f"source {script}; COMP_WORDS=({line}); "
                        "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _hgrun; "
                        "printf '%s\\n' \"${COMPREPLY[@]}\""], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return [w.strip() for w in p.stdout.splitlines()]


def test_bash_completion():
    assert {"run", "sweep", "doctor", "completion", "help"} <= set(bash_complete(["hgrun", ""]))
    assert "doctor" in bash_complete(["hgrun", "do"])
    assert bash_complete(["hgrun", "run", "x.yaml", "--dur"]) == ["--duration"]
    assert "--resume" in bash_complete(["hgrun", "sweep", "--re"])
    assert "experiments/03_dispatch_latency.yaml" in bash_complete(["hgrun", "run", "experiments/03"])
    paths = bash_complete(["hgrun", "experiments/dispatch_latency.yaml", "--set", "thr"])
    assert "threads[lat].priority=" in paths and "threads[lat].workload.period=" in paths
    assert "loads[grep1].stop=" in bash_complete(["hgrun", "experiments/dispatch_latency.yaml",
                                                  "--set", "loads[g"])
    assert "duration=" in bash_complete(["hgrun", "validate", "experiments/dispatch_latency.yaml",
                                         "--set", "du"])
    assert bash_complete(["hgrun", "x.yaml", "--set", "threads[lat].priority", "=", "RTH"]) == ["RTHIGH"]
    assert "absolute" in bash_complete(["hgrun", "x.yaml", "--set", "threads[lat].timer", "=", ""])
    assert bash_complete(["hgrun", "list", "met"]) == ["metrics"]
    assert bash_complete(["hgrun", "completion", "z"]) == ["zsh"]


@pytest.mark.skipif(not shutil.which("zsh"), reason="zsh is not installed")
def test_zsh_completion():
    """zsh runs the same function through bashcompinit (its compgen calls it under sh
    emulation, arrays from 0); zsh itself then keeps the matches of the word's prefix."""
    script = SHARE / "zsh/site-functions/_hgrun"
    assert subprocess.run(["zsh", "-n", str(script)]).returncode == 0
    p = subprocess.run(["zsh", "-c", "autoload -U +X bashcompinit && bashcompinit; "
                        f"source {script} 2>/dev/null; emulate sh -c '"
                        "COMP_WORDS=(hgrun run x.yaml --dur); COMP_CWORD=3; _hgrun; "
                        "print -l -- ${COMPREPLY[@]}'"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert "--duration" in p.stdout.split(), p.stdout + p.stderr
