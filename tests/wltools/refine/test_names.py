"""Tests of wltools.refine.names: the one definition of the tests' names, labels and RRWP default."""

from __future__ import annotations

import ast
import inspect

import wltools.refine
import wltools.refine.names as wl_tests


def test_names_order_and_labels():
    assert wl_tests.TESTS == ("1wl", "spd", "rd", "rrwp", "3wl")
    assert list(wl_tests.TEST_LABELS) == list(wl_tests.ALL_TESTS)
    assert [wl_tests.TEST_LABELS[t] for t in wl_tests.TESTS] == ["1-WL", "SPD-WL", "RD-WL", "RRWP-WL", "3-WL"]
    assert wl_tests.DEFAULT_RRWP_STEPS == 32


def test_refine_uses_the_same_object():
    assert wltools.refine.TESTS is wl_tests.TESTS


def test_imports_nothing():
    """Importing the module imports nothing; only parse_tests, when it refuses a name, imports
    wltools.errors (itself import-free) inside the function."""
    tree = ast.parse(inspect.getsource(wl_tests))
    top = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert [ast.unparse(n) for n in top] == ["from __future__ import annotations"] or not top
    inner = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) and n not in top]
    assert inner == ["from ..errors import UnknownNameError"], inner
