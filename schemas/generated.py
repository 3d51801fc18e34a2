"""Writing a generated file of schemas/, or checking that the one checked in is current
(the --check of gen_scenario_schema.py and gen_metrics.py, their tree.*_fresh ctests)."""
import pathlib
import sys


def write_or_check(out: pathlib.Path, text: str, check: bool, why: str, how: str) -> int:
    """check: 0 when out holds text, else 1 with "OUT is stale: WHY; run HOW and commit it".
    Else writes text to out; 0."""
    if check:
        if not out.is_file() or out.read_text() != text:
            print(f"{out} is stale: {why}; run {how} and commit it", file=sys.stderr)
            return 1
        return 0
    out.write_text(text)
    return 0
