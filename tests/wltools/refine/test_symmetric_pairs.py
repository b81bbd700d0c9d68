"""The symmetric 2-FWL round (wltools.refine.symmetric_pairs: the pairs u <= v, then one pair per
class and its transpose) against the full round over all n^2 pairs: the same colour of every pair
at every round (ids included), the same verdicts and witnesses, on random, regular, strongly
regular, CFI and labelled pairs, with blocks of a few rows; and against the dict reference with
the symmetric round forced from round 1."""

import networkx as nx
import numpy as np
import pytest

from wltools.graphs.labels import pair_labels
from wltools.refine.fwl import fwl2_declaration, refine_fwl2, refine_fwl2_reference
from wltools.refine.symmetric_pairs import worth_it
from wltools.refine.kernel import History, refine

from symmetric_round_cases import assert_same_rounds, case_pairs, labelled


def _pairs():
    return case_pairs(extra=[(nx.path_graph(2), nx.empty_graph(2))])


def _run(G, H, **opts):
    h = History()
    r = refine(fwl2_declaration(G, H, labels=pair_labels(G, H), **opts), history=h)
    return r, h


@pytest.mark.parametrize("opts", [{}, {"max_bytes": 2048}], ids=["default", "blocks-of-a-few-rows"])
def test_symmetric_round_gives_every_pair_the_full_rounds_colour(opts):
    small = "max_bytes" in opts  # blocks of a few rows, the pairs up to 10 nodes
    for G, H in [p for p in _pairs() if not small or len(p[0]) <= 10]:
        assert_same_rounds(_run(G, H, symmetric=True, **opts), _run(G, H, symmetric=False, **opts), (G.edges, H.edges))


def test_symmetric_round_equals_the_reference():
    for G, H in _pairs():
        r, ref = refine_fwl2(G, H, labels=pair_labels(G, H), symmetric=True), refine_fwl2_reference(
            G, H, labels=pair_labels(G, H))
        assert (r.distinguished, r.iteration, r.iterations, r.class_sizes) == (
            ref.distinguished, ref.iteration, ref.iterations, ref.class_sizes), (G.edges, H.edges)


def test_worth_it_follows_the_classes_against_the_pairs():
    assert worth_it(198, 9801) and not worth_it(198, 9802)
    assert not worth_it(1, 1) and worth_it(2, 1)


def test_many_classes_fall_back_to_the_full_round(monkeypatch):
    """A rigid pair: round 0's 3 colours make the symmetric round worth trying, but the pairs
    u <= v then fall into so many classes that the full round is taken (and is exact)."""
    from wltools.refine import fwl

    calls = []
    full_round = fwl._full_round

    def spy(n, max_bytes):
        step = full_round(n, max_bytes)
        return lambda cg, ch, k: calls.append(k) or step(cg, ch, k)

    monkeypatch.setattr(fwl, "_full_round", spy)
    G, H = nx.gnm_random_graph(12, 30, seed=1), nx.gnm_random_graph(12, 30, seed=2)
    r, ref = fwl.refine_fwl2(G, H), refine_fwl2_reference(G, H)
    assert calls and worth_it(12, calls[0])  # a round that tried the symmetric one, then fell back
    assert (r.distinguished, r.iteration, r.iterations, r.class_sizes) == (
        ref.distinguished, ref.iteration, ref.iterations, ref.class_sizes)


def _swl_run(G, H, test, monkeypatch, symmetric, **opts):
    """A subgraph WL test by its declaration, the symmetric round allowed or not."""
    from wltools.refine import swl
    from wltools.distances import adjacency_matrix

    with monkeypatch.context() as m:
        if not symmetric:
            m.setattr(swl, "equivariant", lambda *a: False)
        h = History()
        r = refine(swl.swl_declaration(test, adjacency_matrix(G), adjacency_matrix(H), **opts), history=h)
    return r, h


@pytest.mark.parametrize("test", ["sswl", "slfwl2"])
@pytest.mark.parametrize("opts", [{}, {"max_bytes": 4096}], ids=["hash-order", "first-appearance-blocks"])
def test_swl_symmetric_round_gives_every_pair_the_full_rounds_colour(test, opts, monkeypatch):
    """SSWL and SLFWL(2): the same colours as the full round at every round, in both of the full
    round's numberings (all rows at once by hash; blocks by first appearance), labels included."""
    for G, H in _pairs():
        labels = pair_labels(G, H)
        assert_same_rounds(*(_swl_run(G, H, test, monkeypatch, s, labels=labels, **opts) for s in (True, False)),
                           (test, G.edges))


def test_which_subgraph_tests_take_the_symmetric_round(monkeypatch):
    """SSWL and SLFWL(2) from an equivariant start; SSWL with node labels (its mark carries the
    label of v only) and the one-sided classes never."""
    from wltools.refine import swl

    seen = []
    monkeypatch.setattr(swl, "symmetric_round", lambda *a, **k: seen.append(1) or (lambda cg, ch, k: None))
    G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    Gl, Hl = labelled(G, 1), labelled(H, 1)
    from wltools.distances import adjacency_matrix

    def takes(test, labels=None):
        seen.clear()
        swl.swl_declaration(test, adjacency_matrix(G), adjacency_matrix(H), labels=labels)
        return bool(seen)

    assert takes("sswl") and takes("slfwl2") and takes("slfwl2", pair_labels(Gl, Hl))
    assert not takes("sswl", pair_labels(Gl, Hl))
    assert not any(takes(t) for t in ("swl-vs", "swl-sv", "pswl-vs", "pswl-sv", "gswl", "lfwl2"))


def test_a_hash_shared_by_two_rows_takes_the_full_round(monkeypatch):
    """Where two distinct rows of the symmetric round share a hash, the full round (which would
    retry with another salt and number colours otherwise) is taken: the same colours still."""
    from wltools.refine import symmetric_pairs

    G, H = nx.random_regular_graph(3, 10, seed=3), nx.random_regular_graph(3, 10, seed=5)
    (b, hb) = _swl_run(G, H, "sswl", monkeypatch, False)
    monkeypatch.setattr(symmetric_pairs, "key_hashes", lambda r, prefix, salt: np.zeros(len(prefix), dtype=np.uint64))
    (a, ha) = _swl_run(G, H, "sswl", monkeypatch, True)
    assert ha.rounds == hb.rounds and all(
        np.array_equal(x, y) for (xg, xh), (yg, yh) in zip(ha.colours, hb.colours) for x, y in ((xg, yg), (xh, yh)))
    assert a.witness == b.witness
