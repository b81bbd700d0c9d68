"""The test registry (issue 41 item 1): one object per test, names resolved in one place, plugins
from the entry-point group wltools.tests loaded lazily with one-line errors."""

from __future__ import annotations


import networkx as nx
import pytest

from installed_dist import install
from wltools.errors import UnknownNameError
from wltools.refine import refine_pair
from wltools.refine.cost import peak_bytes
from wltools.wltests import COLOURS, TestPluginError, WLTest, builtin_tests, get_test, list_tests, register_test
from wltools.wltests.registry import registered, unregister_test


def test_every_builtin_test_is_one_complete_object():
    tests = builtin_tests()
    assert len(tests) == 22 and len({t.name for t in tests}) == 22
    for t in tests:
        assert t.colours in COLOURS and t.sources and t.label
        assert t.peak_bytes is not None and t.cost(50, 100) > 0  # every built-in test has a cost model
        assert (t.declaration is not None) or (t.colours == "marked copies"), t.name
        assert t.drawable == (t.name not in ("3fwl", "m1", "m2")), t.name


def test_names_aliases_and_families_resolve():
    assert get_test(" 3WL ").name == "3wl" and get_test("2fwl") is get_test("3wl")
    assert get_test("n5").label == "N5" and get_test("n5").beyond_3wl
    assert dict(get_test("rrwp:8").params) == {"rrwp_steps": 8}
    for bad in ("n0", "n05", "rrwp:0", "rrwp:x", "4wl", "", None):
        with pytest.raises(UnknownNameError):
            get_test(bad)


def test_rrwp_k_runs_with_its_k():
    """rrwp:K is RRWP-WL with K channels: rrwp:1 (the identity alone) is the colour-blind start."""
    G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    assert not refine_pair(G, H, "rrwp:1").distinguished  # I only: every node alike
    assert refine_pair(G, H, "rrwp:3").distinguished  # M^2 sees the triangles


def test_a_test_registered_at_run_time_is_everywhere_and_removable():
    plain = get_test("1wl")
    mine = WLTest("mine", "Mine", "nodes", "a test of the registry", declaration=plain.declaration,
                  peak_bytes=lambda n, m, **_: 12345)
    register_test(mine)
    try:
        assert "mine" in list_tests() and get_test("mine") is mine
        assert peak_bytes("mine", 10, 20) == 12345
        assert refine_pair(nx.path_graph(4), nx.star_graph(3), "mine").distinguished
        with pytest.raises(TestPluginError, match="taken"):
            register_test(WLTest("mine", "Other", "nodes", "x", declaration=plain.declaration))
        with pytest.raises(TestPluginError, match="family"):
            register_test(WLTest("n9", "N9?", "nodes", "x", declaration=plain.declaration))
    finally:
        unregister_test("mine")
    assert "mine" not in list_tests()


def test_registered_restores_a_shadowed_builtin():
    import dataclasses

    shadow = dataclasses.replace(get_test("spd"), label="SPD?")
    with registered(shadow):
        assert get_test("spd") is shadow
    assert get_test("spd").label == "SPD-WL"


def test_the_object_contract_is_checked():
    with pytest.raises(ValueError, match="colours must be one of"):
        WLTest("x", "X", "edges", "src", declaration=lambda *a, **k: None)
    with pytest.raises(ValueError, match="needs a declaration or a fast path"):
        WLTest("x", "X", "nodes", "src")
    decl = dict(declaration=lambda *a, **k: None)
    with pytest.raises(ValueError, match="level_readout must be None or one of node, pairs, marked"):
        WLTest("x", "X", "nodes", "src", level_readout="rows", **decl)
    for bad in (("1wl",), (("1wl", ""),), [("1wl", "Thm 1")]):
        with pytest.raises(ValueError, match="strictly_above must hold"):
            WLTest("x", "X", "nodes", "src", strictly_above=bad, **decl)


@pytest.fixture
def broken_plugins(tmp_path, monkeypatch):
    """An installed distribution (a .dist-info folder on sys.path, as pip leaves it) whose entry
    points of the group wltools.tests name a missing attribute and a non-test."""
    install(tmp_path, monkeypatch, "broken_tests", "NOT_A_TEST = 3\n", "wltools.tests",
            {"missing": "broken_tests:missing", "notatest": "broken_tests:NOT_A_TEST"})


def test_a_broken_plugin_is_one_line_and_only_when_asked_for(broken_plugins):
    from click.testing import CliRunner

    import cli

    assert {"missing", "notatest"} <= set(list_tests())  # listed, not loaded
    assert refine_pair(nx.path_graph(3), nx.path_graph(3), "1wl").distinguished is False  # others unaffected
    with pytest.raises(TestPluginError, match=r"^test plugin 'missing' \(broken_tests:missing\) cannot be loaded: "
                                              r"AttributeError"):
        get_test("missing")
    with pytest.raises(TestPluginError, match="is not a WLTest"):
        get_test("notatest")
    res = CliRunner().invoke(cli.cli, ["check", "cycle:6", "cycle:3+cycle:3", "--test", "missing", "--no-iso"])
    assert res.exit_code == 2 and res.stdout == "", res.output
    assert len(res.stderr.splitlines()) == 1 and "cannot be loaded" in res.stderr and "Traceback" not in res.stderr
