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


def test_the_lists_are_views_of_the_registry():
    """names.py holds no test of its own: every list is the registry's, by declared group (issue 41
    item 1), and a label is the test object's."""
    from wltools.wltests import builtin_tests, get_test

    groups = {"default": wl_tests.TESTS, "extra": wl_tests.EXTRA_TESTS, "on-request": wl_tests.ON_REQUEST_TESTS,
              "subgraph-wl": wl_tests.SUBGRAPH_WL_TESTS, "baseline": wl_tests.SUBGRAPH_BASELINE_TESTS}
    for group, names in groups.items():
        assert names == tuple(t.name for t in builtin_tests(group)), group
    assert all(get_test(t).label == wl_tests.label_of(t) for t in wl_tests.ALL_TESTS + ("n7",))
    source = inspect.getsource(wl_tests)
    quoted = [t for t in wl_tests.ALL_TESTS if f'"{t}"' in source.split("__all__")[1].split("def ")[0]]
    assert quoted == [], quoted  # no list spelled out by hand
