"""The conformance suite (issue 41 item 3): every built-in test passes check_test against an
independent reference; deliberately broken tests fail it, the message naming the check."""

from __future__ import annotations

import numpy as np
import pytest

from wltools.refine.kernel import Declaration, stacked_ids
from wltools.testing import CHECKS, check_test
from wltools.testing.references import wl1_classes
from wltools.wltests import WLTest, builtin_tests

#: The atlas's graphs up to 6 nodes (its first 209) with every pair the reference puts in one class
#: and 60 random other pairs keep the suite to about 1-3 s a test; 3fwl and m2 (n^4 work) take the
#: 52 graphs up to 5 nodes, and rrwp, s3, s4 (whose references are slowest) the first 100. The full
#: atlas: check_test(name) with the defaults.
_SMALL = {"3fwl", "m2"}
_FEWER = {"rrwp", "s3", "s4"}


def _settings(name: str) -> dict:
    if name in _SMALL:
        return dict(atlas_limit=53, max_pairs=40, random_pairs=5, collection_size=6)
    return dict(atlas_limit=100 if name in _FEWER else 209, max_pairs=60, random_pairs=6, collection_size=8)


@pytest.mark.parametrize("name", [t.name for t in builtin_tests()] + ["n3"])
def test_every_builtin_test_passes_the_conformance_suite(name):
    """Every built-in test, 1-WL included: its fast path (refine_wl1) and its kernel declaration
    write one witness text since the two paths were unified (issue 41)."""
    assert check_test(name, **_settings(name)) == CHECKS


def test_the_independent_references_cover_the_shared_table_tests():
    with_one = {t.name for t in builtin_tests() if t.classes is not None}
    assert with_one == {"1wl", "spd", "rd", "rrwp", "3wl", "3fwl", "s3", "s4"}


def _wl1(name: str, *, by_index: bool = False, sort: bool = True) -> WLTest:
    """1-WL declared in a few lines, optionally broken: initial colours by node index, or the
    neighbour colours left in adjacency order (a missing sort)."""

    def declaration(G, H, *, labels=None):
        n = G.number_of_nodes()
        start = np.arange(n) if by_index else np.zeros(n, dtype=np.int64)
        nbrs = [[g * n + u for u in X[v]] for g, X in enumerate((G, H)) for v in range(n)]
        width = max([len(x) for x in nbrs] + [1])

        def aggregate(cg, ch, k):
            c = np.concatenate([cg, ch])
            rows = np.full((2 * n, width + 1), -1, dtype=np.int64)
            rows[:, 0] = c
            for i, nb in enumerate(nbrs):
                rows[i, 1:len(nb) + 1] = np.sort(c[nb]) if sort else c[nb]
            return stacked_ids(rows)

        return Declaration(name, (start, start.copy()), aggregate, lambda t, c, row, k: f"colour {c}")

    return WLTest(name, name, "nodes", "a test of the suite", declaration=declaration, labels="none",
                  peak_bytes=lambda n, m, **_: 2**20, classes=wl1_classes)


def test_a_correct_short_declaration_passes():
    assert check_test(_wl1("plain-wl"), atlas_limit=209, max_pairs=60, random_pairs=6) == CHECKS


def test_colouring_by_node_index_fails_naming_the_check():
    with pytest.raises(AssertionError, match=r"^check_test\(by-index\): relabelling: "):
        check_test(_wl1("by-index", by_index=True), atlas_limit=209, max_pairs=60, random_pairs=6)
    with pytest.raises(AssertionError, match=r"^check_test\(by-index\): atlas: graphs "):
        check_test(_wl1("by-index", by_index=True), atlas_limit=209, max_pairs=60, checks=("atlas",))


def test_a_missing_sort_fails_naming_the_check():
    with pytest.raises(AssertionError, match=r"^check_test\(unsorted\): (relabelling|atlas|random): "):
        check_test(_wl1("unsorted", sort=False), atlas_limit=209, max_pairs=60, random_pairs=6)
    with pytest.raises(AssertionError, match=r"^check_test\(unsorted\): atlas: graphs "):
        check_test(_wl1("unsorted", sort=False), atlas_limit=209, max_pairs=60, checks=("atlas",))


def test_labels_ignored_and_a_low_cost_fail_naming_the_check():
    import dataclasses

    ignores = dataclasses.replace(_wl1("ignores-labels"), labels="any")  # its declaration never reads them
    with pytest.raises(AssertionError, match=r"^check_test\(ignores-labels\): labels: node labels accepted but not read"):
        check_test(ignores, checks=("labels",))
    cheap = dataclasses.replace(_wl1("cheap"), peak_bytes=lambda n, m, **_: 100)
    with pytest.raises(AssertionError, match=r"^check_test\(cheap\): cost: estimate 100 bytes below"):
        check_test(cheap, checks=("cost",), random_pairs=3)


def test_a_wrong_batched_route_fails_naming_the_check():
    """S3 under another name whose batched route (batch_path) computes S4's keys: pair by pair it
    is S3, all pairs at once it is not."""
    import dataclasses

    from wltools.wltests.substructure import S3, S4

    wrong = dataclasses.replace(S3, name="s3-batched-as-s4", batch_path=S4.batch_path)
    with pytest.raises(AssertionError, match=r"^check_test\(s3-batched-as-s4\): fast path: batched route "):
        check_test(wrong, checks=("fast path",), random_pairs=6)


def test_unknown_checks_are_refused():
    with pytest.raises(ValueError, match="unknown checks"):
        check_test("1wl", checks=("speed",))
