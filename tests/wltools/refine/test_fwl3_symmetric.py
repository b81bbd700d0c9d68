"""The symmetric 3-FWL round (wltools.refine.fwl3_symmetric: the sorted triples and one triple per
class and position permutation) against the full round over all n^3 triples: the same colour of
every triple at every round (ids included), the same verdicts and witnesses, on random, regular,
strongly regular, CFI and labelled pairs, with one-row blocks and two-word items; and against the
dict reference with the symmetric round forced from round 1."""

import networkx as nx
import pytest

from wltools.graphs.labels import pair_labels
from wltools.refine.fwl3 import fwl3_declaration, refine_fwl3, refine_fwl3_reference
from wltools.refine.fwl3_symmetric import PERMUTATIONS, sorted_triples, worth_it
from wltools.refine.kernel import History, refine

from symmetric_round_cases import assert_same_rounds, case_pairs


def _pairs():
    return case_pairs()


def _run(G, H, **opts):
    h = History()
    r = refine(fwl3_declaration(G, H, labels=pair_labels(G, H), **opts), history=h)
    return r, h


@pytest.mark.parametrize("opts", [{}, {"max_bytes": 2048}, {"pack_limit": 1}],
                         ids=["default", "blocks-of-a-few-rows", "two-word-items"])
def test_symmetric_round_gives_every_triple_the_full_rounds_colour(opts):
    small = "max_bytes" in opts  # blocks of 2-7 rows, the pairs up to 9 nodes
    for G, H in [p for p in _pairs() if not small or len(p[0]) <= 9]:
        assert_same_rounds(_run(G, H, symmetric=True, **opts), _run(G, H, symmetric=False, **opts), (G.edges, H.edges))


def test_symmetric_round_equals_the_reference():
    for G, H in [p for p in _pairs() if len(p[0]) <= 10]:  # the reference: n^4 Python steps a round
        r, ref = refine_fwl3(G, H, labels=pair_labels(G, H), symmetric=True), refine_fwl3_reference(
            G, H, labels=pair_labels(G, H))
        assert (r.distinguished, r.iteration, r.iterations, r.class_sizes) == (
            ref.distinguished, ref.iteration, ref.iterations, ref.class_sizes), (G.edges, H.edges)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
def test_sorted_triples_and_their_permutations_cover_every_triple(n):
    U, V, X, start, (pv, px) = sorted_triples(n)
    T = (U, V, X)
    assert sorted(zip(U.tolist(), V.tolist(), X.tolist())) == [
        (u, v, x) for u in range(n) for v in range(u, n) for x in range(v, n)]
    cells = set()
    for a, c, e in PERMUTATIONS:
        cells.update(zip(T[a].tolist(), T[c].tolist(), T[e].tolist()))
    assert len(cells) == n**3
    for u in range(n):  # the triples of first node u: (u, pv[j], px[j]) for j >= start[u]
        assert (pv[start[u]:] >= u).all() and (start[u] == 0 or pv[start[u] - 1] < u)


def test_worth_it_follows_the_classes_against_the_triples():
    assert worth_it(198, 8017) and worth_it(112, 69358)
    assert not worth_it(20, 2000) and not worth_it(2, 1)


def test_many_classes_fall_back_to_the_full_round(monkeypatch):
    """A rigid pair: round 0's 10 colours make the symmetric round worth trying, but the sorted
    triples then fall into so many classes that the full round is taken (and is exact)."""
    from wltools.refine import fwl3

    calls = []
    full_round = fwl3._full_round

    def spy(n, max_bytes, pack_limit):
        step = full_round(n, max_bytes, pack_limit)
        return lambda cg, ch, k: calls.append(k) or step(cg, ch, k)

    monkeypatch.setattr(fwl3, "_full_round", spy)
    G, H = nx.gnm_random_graph(12, 30, seed=1), nx.gnm_random_graph(12, 30, seed=2)
    r, ref = fwl3.refine_fwl3(G, H), refine_fwl3_reference(G, H)
    assert calls and calls[0] <= 12 * 13 * 14 / 9  # the first round tried the symmetric one
    assert (r.distinguished, r.iteration, r.iterations, r.class_sizes) == (
        ref.distinguished, ref.iteration, ref.iterations, ref.class_sizes)
