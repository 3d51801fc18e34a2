#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""No two files of the runner depend on each other, directly or around a
loop.  check_layers.py orders the folders; this orders the files inside
them, so each can be read, tested and changed knowing only what is below it.

A file is a module: the .c and .h of one name in one folder are one node
("run/host"), a header without a .c of its name is a node of its own
("run/runstate").
Node A depends on node B when
  - a file of A includes a header of B (`#include "run/host.h"`), or
  - A's object file uses a symbol (function or variable) that B's object
    file alone defines, whatever header declares it: what `nm` reads from
    the objects the compiler built, so macros, prototypes in the wrong
    header and calls without any include are all seen.
Every strongly connected set of nodes larger than one is a loop; each is
printed as one cycle with the include line or the symbol behind each step.
Exits 1 when there is a loop (or an object is missing or older than its
source: build first), else 0.

    check_loops.py [--root runner] [--objects build]
    check_loops.py --self-test --cc cc   # plants loops, fails if one is missed
"""
import argparse
import collections
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def node_of(rel: str) -> str:
    """'run/host.c' and 'run/host.h' -> 'run/host'."""
    return rel.rsplit(".", 1)[0]


def read_includes(root: pathlib.Path):
    """{node: [(target node, 'file:line includes X')]} for quoted includes
    of files under root."""
    edges = collections.defaultdict(list)
    for path in sorted(root.rglob("*.[ch]")):
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if m and (root / m.group(1)).is_file():
                a, b = node_of(rel), node_of(m.group(1))
                if a != b:
                    edges[a].append((b, f"{root.name}/{rel}:{n} includes {m.group(1)}"))
    return edges


def object_for(src_rel: str, objects: list):
    """The object built from runner/src_rel: CMake names it .../runner/src_rel.o."""
    want = "/" + src_rel + ".o"
    found = [o for o in objects if o.as_posix().endswith(want)]
    return max(found, key=lambda o: o.stat().st_mtime) if found else None


def dependencies(obj: pathlib.Path, src: pathlib.Path):
    """The files the object was built from: the compiler's depfile next to
    it (obj.d, as CMake writes it) when there is one, else the source."""
    depfile = obj.with_name(obj.name + ".d")
    if not depfile.is_file():
        return [src]
    words = depfile.read_text().replace("\\\n", " ").split()
    return [pathlib.Path(w) for w in words[1:] if pathlib.Path(w).is_file()]


NM = "nm"


def nm(objs: list, args) -> dict:
    """{object path: set of symbols}, one nm for all the objects."""
    out = {str(o): set() for o in objs}
    if not objs:
        return out
    text = subprocess.run([NM, "-A", *args, *map(str, objs)], check=True,
                          capture_output=True, text=True).stdout
    for line in text.splitlines():
        path, _, rest = line.partition(":")
        if path in out and rest.split():
            out[path].add(rest.split()[-1])
    return out


def read_symbols(root: pathlib.Path, build: pathlib.Path, problems: list):
    """{node: [(target node, "FILE uses SYMBOL, defined only in OTHER")]}."""
    objects = [o for o in build.rglob("*.o") if "/" + root.name + "/" in o.as_posix()]
    built = {}
    for src in sorted(root.rglob("*.c")):
        rel = src.relative_to(root).as_posix()
        obj = object_for(root.name + "/" + rel, objects)
        if obj is None:
            problems.append(f"{root.name}/{rel}: no object file under {build} (build first)")
            continue
        newer = [d for d in dependencies(obj, src) if d.stat().st_mtime > obj.stat().st_mtime]
        if newer:
            problems.append(f"{root.name}/{rel}: {obj} is older than {newer[0]} (build first)")
        built[rel] = obj
    defs = nm(list(built.values()), ["-g", "--defined-only"])
    uses = nm(list(built.values()), ["-u"])
    defined = {rel: defs[str(obj)] for rel, obj in built.items()}
    used = {rel: uses[str(obj)] for rel, obj in built.items()}
    owners = collections.defaultdict(list)
    for rel, syms in defined.items():
        for s in syms:
            owners[s].append(rel)
    edges = collections.defaultdict(list)
    for rel, syms in used.items():
        for s in sorted(syms):
            if len(owners.get(s, ())) == 1 and node_of(owners[s][0]) != node_of(rel):
                edges[node_of(rel)].append(
                    (node_of(owners[s][0]),
                     f"{root.name}/{rel} uses {s}, defined only in {root.name}/{owners[s][0]}"))
    return edges


def strongly_connected(nodes, succ):
    """Tarjan's algorithm, iterative; the components of more than one node."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(succ.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(succ.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def a_cycle(comp, succ):
    """The shortest cycle through the component's first node (BFS)."""
    members, first = set(comp), comp[0]
    prev, queue = {first: None}, collections.deque([first])
    while queue:
        v = queue.popleft()
        for w in sorted(succ.get(v, ())):
            if w == first:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return [first] + path[::-1][1:] + [first] if len(path) > 1 else [first, v, first]
            if w in members and w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


def find_loops(root: pathlib.Path, build: pathlib.Path):
    """(loops as printable lines, problems)."""
    problems = []
    edges = collections.defaultdict(list)
    for part in (read_includes(root), read_symbols(root, build, problems)):
        for a, lst in part.items():
            edges[a].extend(lst)
    succ = {a: {b for b, _ in lst} for a, lst in edges.items()}
    nodes = set(succ) | {b for s in succ.values() for b in s}
    lines = []
    for comp in strongly_connected(nodes, succ):
        cycle = a_cycle(comp, succ)
        lines.append(f"loop of {len(comp)} files: {', '.join(comp)}")
        for a, b in zip(cycle, cycle[1:]):
            why = [r for t, r in edges[a] if t == b]
            lines.append(f"  {a} -> {b}: {why[0]}" + (f" (and {len(why) - 1} more)"
                                                       if len(why) > 1 else ""))
    return lines, problems


def include(path: str) -> str:
    return '#include "' + path + '"\n'


def build_tree(tmp: pathlib.Path, tree: dict, cc: str):
    """Writes tree ({path under runner/: text}) as tmp/runner and compiles each .c
    into tmp/build as CMake lays its objects out; (root, build)."""
    root, build = tmp / "runner", tmp / "build"
    for rel, text in tree.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    for src in root.rglob("*.c"):
        obj = build / "obj" / "runner" / (src.relative_to(root).as_posix() + ".o")
        obj.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([cc, "-c", "-I", str(root), str(src), "-o", str(obj)], check=True)
    return root, build


def self_test(cc: str) -> int:
    """Plants an include loop, a call loop and a loop through a function
    declared in a third file's header (the shape hg_run_warn had); each must
    be found, and the same tree without them must pass."""
    files = {
        "base/a.h": "int a_f(void);\n",
        "base/a.c": include("base/a.h") + include("base/b.h") + "int a_f(void) { return 1; }\n",
        "base/b.h": "int b_f(void);\n",
        "base/b.c": include("base/b.h") + "int b_f(void) { return 2; }\n",
        # c calls d, d calls c; neither includes the other's header
        "run/c.c": "int c_f(void);\nint d_f(void);\nint c_f(void) { return d_f(); }\n",
        "run/d.c": "int c_f(void);\nint d_f(void);\nint d_f(void) { return 0; }\n"
                   "int d_g(void);\nint d_g(void) { return c_f(); }\n",
        # e_warn is declared in the state header, defined by e, used by f,
        # while e calls f
        "run/state.h": "void e_warn(void);\n",
        "run/e.c": include("run/state.h") + "int f_f(void);\nvoid e_warn(void) {}\n"
                   "int e_run(void);\nint e_run(void) { return f_f(); }\n",
        "run/f.c": include("run/state.h") + "int f_f(void);\nint f_f(void) { e_warn(); "
                   "return 0; }\n",
    }
    planted = {"base/b.h": include("base/a.h") + files["base/b.h"]}
    fixed = {"run/d.c": "int d_f(void);\nint d_f(void) { return 0; }\n",
             "run/e.c": include("run/state.h") + "void e_warn(void) {}\n"}

    def check(tree: dict, want: list) -> bool:
        with tempfile.TemporaryDirectory() as tmp:
            root, build = build_tree(pathlib.Path(tmp), tree, cc)
            lines, problems = find_loops(root, build)
            found = sorted(l for l in lines if l.startswith("loop"))
            ok = found == sorted(want) and not problems
            print(("ok  " if ok else "BAD ") + f"{len(want)} loop(s) expected, found:")
            for l in lines + problems:
                print("    " + l)
            return ok

    results = [
        check({**files, **planted}, ["loop of 2 files: base/a, base/b",
                                     "loop of 2 files: run/c, run/d",
                                     "loop of 2 files: run/e, run/f"]),
        check({**files, **fixed}, []),
    ]
    return 0 if all(results) else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default="runner", help="the sources (default: runner)")
    ap.add_argument("--objects", default="build", help="where the build put the .o files")
    ap.add_argument("--self-test", action="store_true", help="plant loops and find them")
    ap.add_argument("--cc", default="cc", help="compiler for --self-test")
    ap.add_argument("--nm", default="nm", help="nm that reads the objects (cross builds)")
    a = ap.parse_args()
    global NM
    NM = a.nm
    if a.self_test:
        if not shutil.which(NM):
            print(f"check_loops.py: {NM} is not installed")
            return 1
        return self_test(a.cc)
    lines, problems = find_loops(pathlib.Path(a.root), pathlib.Path(a.objects))
    for l in problems + lines:
        print(l)
    return 1 if lines or problems else 0


if __name__ == "__main__":
    sys.exit(main())
