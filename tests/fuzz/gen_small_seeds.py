#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seeds and dictionaries of the small fuzz targets (tests/fuzz/run.sh, docs/fuzzing.md):

    gen_small_seeds.py units DIR            values for fuzz_units (tests/unit/test_units.c's)
    gen_small_seeds.py hourglass DIR        the paper's Hourglass command lines, NUL-separated
    gen_small_seeds.py units-dict FILE      their tokens, as a libFuzzer dictionary
    gen_small_seeds.py hourglass-dict FILE"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNITS = ["5ms", "1.5s", "30d", "43200m", "976.5625us", "0.5ns", "64KiB", "1.5KiB", "128MB",
         "83536564161765801843633184154.3d", "999999999999999999999999999999GiB",
         "1.0000000000000000000000000000ms", "12", "-3", "0.01", "true", "off"]
UNIT_TOKENS = ["ns", "us", "ms", "s", "m", "h", "d", "B", "KiB", "MiB", "GiB", "KB", "MB", "GB",
               ".", "0", "9", "-", "+"]
HOURGLASS_TOKENS = ["-n", "-d", "-c", "-t", "-a", "-e", "-p", "-rh", "-rs", "-w", "-i", "-s",
                    "-f", "CPU", "CPU_SCAN", "CPU_YIELD", "CPU_SCAN_YIELD", "PERIODIC",
                    "CPU_PERIODIC", "LAT", "NATIVE", "HR", "RTC", "MM", "IDLE", "LOW", "NORMAL",
                    "HIGH", "HIGHEST", "RTLOW", "RTMED", "RTHIGH", "ms", "us", "s", "\\x00"]


def hourglass_lines() -> list[str]:
    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    import test_hourglass_cmd
    return [args for args, _, _ in test_hourglass_cmd.QUOTED]


def main() -> int:
    what, out = sys.argv[1], Path(sys.argv[2])
    if what.endswith("-dict"):
        tokens = UNIT_TOKENS if what == "units-dict" else HOURGLASS_TOKENS
        out.write_text("".join(f'"{t}"\n' for t in tokens))
        return 0
    out.mkdir(parents=True, exist_ok=True)
    seeds = [v.encode() for v in UNITS] if what == "units" else \
        [b"\0".join(w.encode() for w in line.split()) for line in hourglass_lines()]
    for i, s in enumerate(seeds):
        (out / f"seed-{i:02d}").write_bytes(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
