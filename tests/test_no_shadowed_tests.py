"""No test module defines a test function (or class) twice: the later definition hides the earlier
one, which then never runs while looking like a check (tests/wltools/refine/test_nongnn_batch.py
had one: a BREC test over every ninth pair, silently replaced by the next function's name)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def test_no_test_is_defined_twice_in_one_module():
    twice = []
    for path in sorted(ROOT.rglob("test_*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        names = Counter(node.name for node in tree.body
                        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                        and node.name.startswith(("test", "Test")))
        twice += [f"{path.relative_to(ROOT)}::{name}" for name, k in names.items() if k > 1]
    assert not twice, twice
