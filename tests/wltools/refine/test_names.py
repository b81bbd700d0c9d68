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


def test_named_cases_of_the_registry_views():
    """The examples naming particular tests (kept here, not in names.py's docstrings, so a test's
    name is spelled only in its own module there)."""
    assert [wl_tests.may_exceed_3wl(t) for t in ("3fwl", "s4", "n1", "m2", "m1", "s3", "sswl")] == \
        [True, True, True, True, False, False, False]
    assert wl_tests.is_test_name("s4") and not wl_tests.is_test_name("m3")
    assert wl_tests.label_of("s3") == "S3"
    assert [wl_tests.refuses_labels(t, True, False) for t in ("s3", "n2", "epwl")] == [True, True, False]
    assert wl_tests.refuses_labels("epwl-lap", False, True) and not wl_tests.refuses_labels("s4", False, False)
    assert "3fwl" not in wl_tests.parse_tests("all") and wl_tests.parse_tests("all,3fwl")[-1] == "3fwl"
    assert wl_tests.parse_tests(["n3", "m1"]) == ("n3", "m1")
    assert "slfwl2" in wl_tests.tests_help() and "all,3fwl" in wl_tests.tests_help()


def test_named_cases_of_declarations_drawings_keys_and_labels():
    """More named examples moved out of the docstrings of declarations, colourings, keys, pairwise."""
    import networkx as nx

    from wltools.dataset.collection import from_networkx
    from wltools.dataset.keys import is_seeded, seeded_ids
    from wltools.dataset.pairwise import ignored_labels
    from wltools.draw.colourings import is_drawable
    from wltools.refine.declarations import DECLARED

    assert "3fwl" in DECLARED and "m1" not in DECLARED
    assert [is_drawable(t) for t in ("n3", "3fwl", "m1")] == [True, False, False]
    # S3's key per node: (triangles, induced 3-paths) at it: P4 (0, 1) (0, 2) (0, 2) (0, 1), C3 (1, 0)
    coll = from_networkx([nx.path_graph(4), nx.cycle_graph(3)])
    assert seeded_ids(coll, "s3").tolist() == [0, 1, 1, 0, 2, 2, 2]
    assert [is_seeded(t) for t in ("s3", "m1")] == [True, False]
    G = nx.path_graph(2)
    G.nodes[0]["a"] = G.nodes[1]["a"] = "C"
    labelled = from_networkx([G], node_label="a")
    assert (ignored_labels(labelled, "s3"), ignored_labels(labelled, "epwl")) == ("node labels", None)
