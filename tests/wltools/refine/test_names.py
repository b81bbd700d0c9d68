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
    tree = ast.parse(inspect.getsource(wl_tests))
    assert not [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
