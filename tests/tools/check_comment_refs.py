#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Comments that name a project file must name one that exists: a comment
citing a design note or a source file that is not in the tree misleads the
next reader.  Scans comments of runner/ (C) and the Python sources of
analysis/, tests/ and bench/; exits 1 listing each dangling reference.

Nothing cites "issue N" either: the tracker those numbers belong to is not
in the repository, so the reader cannot follow them; cite the document or
file that says it.  That is checked in the same comments and in every
Markdown page, YAML comment, shell script and CMakeLists.txt (a line with a
URL may name an issue of the project it links to)."""
import fnmatch
import pathlib
import re
import sys

import project_tree

ROOT = pathlib.Path(__file__).resolve().parents[2]
REF = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:c|h|md|py|sh|yaml|json))\b")
C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
PY_COMMENT = re.compile(r"#[^\n]*|\"\"\".*?\"\"\"", re.S)
# Names that are not files of this project: libraries' headers and files of
# the machine, written in comments for what they are.
EXTERNAL = {"cyaml.h", "yaml.h", "jansson.h", "sched.h", "trace.proto", "perfetto_trace.proto",
            "result.json", "sweep.json", "trace.jsonl", "latency.jsonl", "series.jsonl",
            "report.md", "summary.json", "compare.md", "compare.json", "series.json", "scenario.yaml", "s.yaml", "my.yaml", "t.yaml", "x.yaml"}


def known_files():
    names, paths = set(), set()
    for p in project_tree.files(ROOT):
        if p.is_file():
            rel = p.relative_to(ROOT).as_posix()
            paths.add(rel)
            names.add(p.name)
    return names, paths


def refs_in(path: pathlib.Path):
    text = path.read_text(errors="replace")
    pattern = C_COMMENT if path.suffix in (".c", ".h") else PY_COMMENT
    for m in pattern.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        for r in REF.finditer(m.group(0)):
            yield line + m.group(0).count("\n", 0, r.start()), r.group(1)


ISSUE = re.compile(r"\bissues?\s*#?\d+", re.I)
SH_COMMENT = re.compile(r"#[^\n]*")


def issue_refs(path: pathlib.Path):
    """(line, text) of each "issue N" in path's comments (its whole text
    for Markdown), unless the line holds a URL."""
    text = path.read_text(errors="replace")
    if path.suffix == ".md":
        chunks = [(0, text)]
    else:
        pattern = {".c": C_COMMENT, ".h": C_COMMENT, ".py": PY_COMMENT}.get(path.suffix,
                                                                         SH_COMMENT)
        chunks = [(m.start(), m.group(0)) for m in pattern.finditer(text)]
    for start, chunk in chunks:
        for m in ISSUE.finditer(chunk):
            at = start + m.start()
            line_text = text[text.rfind("\n", 0, at) + 1:text.find("\n", at)]
            if "://" not in line_text:
                yield text.count("\n", 0, at) + 1, m.group(0)


def issue_sources():
    patterns = ["runner/*.[ch]", "analysis/*.py", "tests/*.py", "tests/*.[ch]", "bench/*.py",
                "*.md", "*.yaml", "*.yml", "scripts/*", "*CMakeLists.txt"]
    for p in project_tree.files(ROOT):
        rel = p.relative_to(ROOT).as_posix()
        if p.is_file() and any(fnmatch.fnmatchcase(rel, g) for g in patterns):
            yield p


def self_test() -> int:
    """Plants "issue N" where it must be found and where it must not."""
    import tempfile
    word = "iss" + "ue"    # spelled apart, so this file's own comments stay clean
    cases = [  # (file name, text, how many must be found)
        ("a.c", f"/* as {word} 7 says */\nint x; /* {word}s 7 */\n", 2),
        ("a.c", f'const char *s = "{word} 7";\n', 0),          # a string, not a comment
        ("a.py", f"# see {word.title()} #12\nx = '{word} 3'\n", 1),
        ("a.md", f"Fixed in {word} 3.\nSee https://example.org/{word}s/4 ({word} 4).\n", 1),
        ("a.sh", f"echo '{word} 5'  # {word} 6\n", 1),
        ("a.yaml", f"# the scenario of {word} 9\nname: x\n", 1),
        ("CMakeLists.txt", f"# t{word} 9, re{word}: no\n", 0),
    ]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, want in cases:
            path = pathlib.Path(tmp, name)
            path.write_text(text)
            found = list(issue_refs(path))
            ok = len(found) == want
            bad += not ok
            print(("ok  " if ok else "BAD ") + f"{name}: {want} expected, found {found}")
    return 1 if bad else 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    names, paths = known_files()
    sources = [*ROOT.glob("runner/**/*.[ch]"), *ROOT.glob("analysis/**/*.py"),
               *ROOT.glob("tests/**/*.py"), *ROOT.glob("bench/**/*.py"),
               *ROOT.glob("tests/**/*.[ch]")]
    bad = []
    for src in sorted(sources):
        for line, ref in refs_in(src):
            base = ref.rsplit("/", 1)[-1]
            if base in EXTERNAL or ref in EXTERNAL or ref.startswith(("linux/", "sys/")):
                continue
            ok = (ref in paths or any(p.endswith("/" + ref) for p in paths)) if "/" in ref \
                else base in names
            if not ok:
                bad.append(f"{src.relative_to(ROOT)}:{line}: names '{ref}', which is not a "
                           "file of this project")
    for src in sorted(issue_sources()):
        for line, ref in issue_refs(src):
            bad.append(f"{src.relative_to(ROOT)}:{line}: cites '{ref}' of a tracker that is not "
                       "in the repository; cite the document or file that says it")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
