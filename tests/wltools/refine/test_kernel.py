"""The one refinement kernel: its loop, exact hashing with retry, history and hooks, checked against
independent references (dict refinement, networkx's WL hash) and by permuting the input."""

import networkx as nx
import numpy as np
import pytest

from wltools.refine import refine_pair
from wltools.refine.engine import run_reference
from wltools.refine.gdwl import gdwl_declaration
from wltools.refine.grouping import HashCollision
from wltools.refine.kernel import (Declaration, History, grouped_ids, pair_blocks, refine, stacked, stacked_ids,
                                   with_retries)
from wltools.refine.swl import swl_declaration
from wltools.distances import adjacency_matrix


def _neighbour_step(G, H):
    """A 1-WL declaration written from scratch on padded neighbour lists (the kernel's user)."""
    n = G.number_of_nodes()
    width = max([d for X in (G, H) for _, d in X.degree()] or [0])
    nb = np.full((2 * n, width), 2 * n, dtype=np.int64)
    for g, X in enumerate((G, H)):
        for v in X:
            nbrs = [u + g * n for u in X[v]]
            nb[v + g * n, : len(nbrs)] = nbrs

    def step(cg, ch, k):
        ext = np.concatenate([cg, ch, [-1]])
        items = np.sort(ext[nb], axis=1)
        rows = np.concatenate([ext[:-1, None], items], axis=1)
        return rows[:n], rows[n:]

    return step


def _wl1(G, H, **kw):
    zeros = np.zeros(G.number_of_nodes(), dtype=np.int64)
    return refine(Declaration("1wl", (zeros, zeros.copy()), stacked(_neighbour_step(G, H)), lambda *a: "c"), **kw)


@pytest.mark.parametrize("seed", range(6))
def test_a_short_declaration_agrees_with_the_dict_reference(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 14))
    G = nx.gnm_random_graph(n, int(rng.integers(n - 1, 2 * n)), seed=seed)
    H = nx.gnm_random_graph(n, G.number_of_edges(), seed=seed + 100)

    def sig(g, v, cols):
        X = (G, H)[g]
        return cols[g][v], tuple(sorted(cols[g][u] for u in X[v]))

    ref = run_reference("1wl", list(G), list(H), lambda g, v: 0, sig)
    got = _wl1(G, H)
    assert (got.distinguished, got.iteration, got.iterations, got.class_sizes) == (
        ref.distinguished, ref.iteration, ref.iterations, ref.class_sizes)
    # and with the project's own 1-WL (a different, incremental algorithm)
    fast = refine_pair(G, H, "1wl")
    assert (got.iteration, got.iterations, got.class_sizes) == (fast.iteration, fast.iterations, fast.class_sizes)


@pytest.mark.filterwarnings("ignore::UserWarning")  # networkx 3.5 notes its hashes changed
def test_history_partitions_match_networkx_wl_hashes():
    G = nx.gnm_random_graph(12, 18, seed=3)  # not regular: refinement takes several rounds
    hist = History()
    _wl1(G, G, history=hist)
    subs = nx.weisfeiler_lehman_subgraph_hashes(G, iterations=hist.rounds + 1)
    for t in range(1, hist.rounds + 1):
        ours = hist.colours[t][0]
        theirs = [subs[v][t - 1] for v in range(12)]
        # same partition of the nodes: equal colours iff equal hashes
        assert all((ours[a] == ours[b]) == (theirs[a] == theirs[b]) for a in range(12) for b in range(12))


def test_history_records_every_round_and_the_first_difference():
    G, H = nx.path_graph(6), nx.star_graph(5)
    hist = History()
    r = _wl1(G, H, history=hist)
    assert hist.rounds == r.iterations == len(hist.compared) - 1
    assert hist.first_diff == r.iteration
    for t, (cg, ch) in enumerate(hist.colours):
        differ = sorted(cg.tolist()) != sorted(ch.tolist())
        assert differ == (r.iteration is not None and t >= r.iteration)
    sizes = tuple(tuple(sorted(np.unique(c, return_counts=True)[1].tolist(), reverse=True)) for c in hist.colours[-1])
    assert sizes == r.class_sizes


def test_progress_is_called_once_per_round():
    seen = []
    r = _wl1(nx.path_graph(9), nx.path_graph(9), progress=lambda t, k: seen.append((t, k)))
    assert [t for t, _ in seen] == list(range(1, r.iterations + 1))
    assert [k for _, k in seen] == sorted(k for _, k in seen)


def test_permuting_a_graph_changes_nothing_but_names():
    G = nx.gnm_random_graph(10, 16, seed=5)
    H = nx.gnm_random_graph(10, 16, seed=6)
    perm = np.random.default_rng(0).permutation(10)
    Hp = nx.relabel_nodes(H, dict(enumerate(perm.tolist())))
    for test in ("spd", "swl-vs"):
        a, b = refine_pair(G, H, test), refine_pair(G, Hp, test)
        assert (a.distinguished, a.iteration, a.iterations, a.class_sizes) == (
            b.distinguished, b.iteration, b.iterations, b.class_sizes)


def test_with_retries_retries_on_collision_and_gives_up():
    calls = []

    def flaky(salt):
        calls.append(salt)
        if salt < 3:
            raise HashCollision
        return "ok"

    assert with_retries(flaky, "t") == "ok" and calls == [0, 1, 2, 3]

    def always(salt):
        raise HashCollision

    with pytest.raises(RuntimeError, match="hash collisions"):
        with_retries(always, "t")


@pytest.mark.parametrize("store", [0, 10**6])
def test_grouped_ids_equals_stacked_ids_as_partitions(store):
    rng = np.random.default_rng(2)
    X = rng.integers(0, 3, size=(40, 4))
    P = rng.integers(0, 2, size=40)

    def blocks():
        for idx in pair_blocks(20, 7):
            yield idx, P[idx], X[idx]

    ids, row_of = grouped_ids(40, lambda idx: (P[idx], X[idx]), blocks, store, "test")
    ref, _ = stacked_ids(np.concatenate([P[:, None], X], axis=1))
    assert all((ids[a] == ids[b]) == (ref[a] == ref[b]) for a in range(40) for b in range(40))
    assert row_of(5).tolist() == [P[5]] + X[5].tolist()


@pytest.mark.parametrize("store", [0, 10**6])  # representatives recomputed / read from the store
def test_row_grouper_detects_every_kind_of_collision(store, monkeypatch):
    """With zero hash weights every row of one prefix collides: a collision inside a block, one
    with a group of an earlier block, and one met when every row of a block is in a known group
    each raise HashCollision; rows that only repeat are grouped exactly."""
    import wltools.refine.grouping as grouping

    monkeypatch.setattr(grouping, "_weights", lambda width, salt: np.zeros(width, dtype=np.uint64))
    X = np.array([[1, 2], [1, 2], [3, 4], [1, 2]])
    P = np.zeros(4, dtype=np.int64)

    def grouper():
        return grouping.RowGrouper(4, lambda idx: (P[idx], X[idx]), store_bytes=store)

    g = grouper()
    g.add(np.arange(2), P[:2], X[:2])
    g.add(np.arange(3, 4), P[3:], X[3:])  # a block of known rows only
    assert g.ids[[0, 1, 3]].tolist() == [0, 0, 0] and g.count == 1
    with pytest.raises(HashCollision):  # [3, 4] against the group of [1, 2], all rows known
        g.add(np.arange(2, 3), P[2:3], X[2:3])
    with pytest.raises(HashCollision):  # [3, 4] after [1, 2] in one block
        grouper().add(np.arange(3), P[:3], X[:3])
    g = grouper()
    g.add(np.arange(1), P[:1], X[:1])
    with pytest.raises(HashCollision):  # a known row and a colliding one in one block
        g.add(np.arange(1, 3), P[1:3], X[1:3])


def test_pair_blocks_never_straddle_the_graphs():
    blocks = [idx.tolist() for idx in pair_blocks(5, 3)]
    assert blocks == [[0, 1, 2], [3, 4], [5, 6, 7], [8, 9]]


def test_declarations_refine_as_refine_pair():
    G = nx.cycle_graph(6)
    H = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    assert refine(gdwl_declaration(G, H, ["spd"], test="spd")) == refine_pair(G, H, "spd")
    assert refine(swl_declaration("sswl", adjacency_matrix(G), adjacency_matrix(H))) == refine_pair(G, H, "sswl")


def test_max_rounds_bounds_the_loop():
    zeros = np.zeros(9, dtype=np.int64)
    G = nx.path_graph(9)
    decl = Declaration("1wl", (zeros, zeros.copy()), stacked(_neighbour_step(G, G)), lambda *a: "c", max_rounds=2)
    assert refine(decl).iterations == 2 < _wl1(G, G).iterations


def _random_pair(seed, n=9):
    G = nx.gnm_random_graph(n, 13, seed=seed)
    H = nx.gnm_random_graph(n, 13, seed=seed + 50)
    return G, H


@pytest.mark.parametrize("seed", range(4))
def test_every_declaration_refines_as_refine_pair(seed):
    from wltools.refine.declarations import DECLARED, declaration

    G, H = _random_pair(seed)
    for test in DECLARED:
        got, want = refine(declaration(G, H, test)), refine_pair(G, H, test)
        if test == "1wl":  # the declaration's witness words differ from the incremental path's
            got.witness = want.witness
        assert got == want, test


@pytest.mark.parametrize("seed", range(4))
def test_labelled_1wl_declaration_agrees_with_the_incremental_path(seed):
    from wltools.graphs.labels import pair_labels
    from wltools.refine.declarations import declaration

    G, H = _random_pair(seed, 10)
    rng = np.random.default_rng(seed)
    for X in (G, H):
        nx.set_node_attributes(X, {v: "CNO"[int(rng.integers(3))] for v in X}, "label")
        nx.set_edge_attributes(X, {e: int(rng.integers(2)) for e in X.edges}, "label")
    got = refine(declaration(G, H, "1wl", labels=pair_labels(G, H)))
    want = refine_pair(G, H, "1wl")
    assert (got.iteration, got.iterations, got.class_sizes) == (want.iteration, want.iterations, want.class_sizes)


def test_a_test_without_a_declaration_is_refused():
    from wltools.errors import UnknownNameError
    from wltools.refine.declarations import declaration

    with pytest.raises(UnknownNameError, match="no single kernel declaration"):
        declaration(nx.path_graph(3), nx.path_graph(3), "m1")


def test_compare_false_refines_to_the_same_stable_colouring():
    G, H = nx.path_graph(7), nx.star_graph(6)
    zeros = np.zeros(7, dtype=np.int64)
    hists = []
    for compare in (True, False):
        h = History(every_round=False)
        r = refine(Declaration("1wl", (zeros, zeros.copy()), stacked(_neighbour_step(G, H)), lambda *a: "c",
                               compare=compare), history=h)
        hists.append((r.iterations, [c.tolist() for c in h.colours[-1]]))
    assert hists[0] == hists[1] and len(h.colours) == 1
