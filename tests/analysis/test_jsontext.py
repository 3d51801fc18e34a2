# SPDX-License-Identifier: GPL-2.0-or-later
"""base/jsontext.py writes what json.dumps(obj, indent=N) writes, character for character, and
refuses what it refuses with json's own error."""
import enum
import json
import math

import numpy as np
import pytest

from hgreport.base import jsontext


class Level(enum.IntEnum):
    HIGH = 3


class Name(str):
    pass


CASES = [
    {}, [], 0, -7, 2**70, 1.5, 1e-300, 1e22, -0.0, math.nan, math.inf, -math.inf, None, True,
    False, "", "a\"b\\c\n\t\x01 é € 😀", Name("sub"), Level.HIGH, np.float64(0.1),
    [1, 2.5, "x", None, True, False, []], (1, (2, 3), {}),
    {"a": {"b": {"c": [1, {"d": [], "e": {}}]}}, "f": [[], [[]], [{}]]},
    {1: "int key", 2.5: "float key", True: "bool key", None: "none key", "s": 1,
     math.inf: "inf key"},
    {"threads": [{"label": f"t.{i}", "cpu": [0, 1], "lat": None, "share": i / 7,
                  "gaps": {"count": i, "min_ns": None}} for i in range(50)]},
    [[1.0, float("nan")], {"k": -math.inf}],
]


@pytest.mark.parametrize("indent", [0, 1, 2, 4])
@pytest.mark.parametrize("k", range(len(CASES)))
def test_same_text_as_json(indent, k):
    assert jsontext.dumps(CASES[k], indent) == json.dumps(CASES[k], indent=indent)


@pytest.mark.parametrize("bad", [{"a": {1, 2}}, [np.int64(3)], {(1, 2): 3}, {"x": object()}])
def test_refused_as_json_refuses(bad):
    with pytest.raises(TypeError) as ours:
        jsontext.dumps(bad, 2)
    with pytest.raises(TypeError) as theirs:
        json.dumps(bad, indent=2)
    assert str(ours.value) == str(theirs.value)


def test_a_cycle_is_refused_as_json_refuses():
    a: list = []
    a.append(a)
    with pytest.raises(ValueError, match="Circular reference"):
        jsontext.dumps(a, 2)
