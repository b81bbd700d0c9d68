"""The one refinement kernel: its loop, exact hashing with retry, history and hooks, checked against
independent references (dict refinement, networkx's WL hash) and by permuting the input."""

import networkx as nx
import numpy as np
import pytest

from wltools.refine import refine_pair
from wltools.refine.engine import run_reference
from wltools.refine.grouping import HashCollision
from wltools.refine.kernel import (Declaration, History, blocked, grouped_ids, pair_blocks, refine, round_loop, stacked,
                                   stacked_ids, with_retries)


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
    """More rows than SMALL_KEYS, so RowGrouper groups them (its store empty or holding every
    representative)."""
    rng = np.random.default_rng(2)
    X = rng.integers(0, 3, size=(120, 4))
    P = rng.integers(0, 2, size=120)

    def blocks():
        for idx in pair_blocks(60, 7):
            yield idx, P[idx], X[idx]

    ids, row_of = grouped_ids(120, lambda idx: (P[idx], X[idx]), blocks, store, "test")
    ref, _ = stacked_ids(np.concatenate([P[:, None], X], axis=1))
    assert all((ids[a] == ids[b]) == (ref[a] == ref[b]) for a in range(120) for b in range(120))
    assert row_of(5).tolist() == [P[5]] + X[5].tolist()


@pytest.mark.parametrize("seed", range(3))
def test_grouped_ids_of_few_rows_equal_the_row_groupers(seed, monkeypatch):
    """A small round (at most SMALL_KEYS rows) numbered by a dict gives RowGrouper's ids exactly
    (order of first appearance over the blocks as given, here not in index order)."""
    import wltools.refine.kernel as kernel

    rng = np.random.default_rng(seed)
    X, P = rng.integers(0, 3, size=(40, 2)), rng.integers(0, 2, size=40)
    order = [idx for idx in pair_blocks(20, 6)][::-1]

    def blocks():
        for idx in order:
            yield idx, P[idx], X[idx]

    def run():
        return grouped_ids(40, lambda idx: (P[idx], X[idx]), blocks, 10**6, "test")[0]

    small = run()
    monkeypatch.setattr(kernel, "SMALL_KEYS", 0)  # the RowGrouper path
    assert small.tolist() == run().tolist()
    first = np.concatenate(order)
    assert small[first[0]] == 0 and len(set(small.tolist())) == small.max() + 1


def test_rows_in_range_hands_a_whole_graph_the_shared_grid():
    """A range covering a graph gets kernel.grid(shape) itself (the arrays a declaration may
    recognise), a partial range other arrays with the same coordinates."""
    from wltools.refine.kernel import grid, rows_in_range

    seen = []

    def fill(g, u, v):
        seen.append((g, u, v))
        return u * 0, np.stack([u, v], axis=1)

    rows_in_range(0, 8, (2, 2), fill)
    rows_in_range(1, 3, (2, 2), fill)
    whole = grid((2, 2))
    assert all(u is whole[0] and v is whole[1] for _, u, v in seen[:2])
    assert seen[2][1] is not whole[0] and seen[2][1].tolist() == [0, 1] and seen[2][2].tolist() == [1, 0]
    assert not whole[0].flags.writeable


@pytest.mark.parametrize("store", [0, 10**6])  # representatives recomputed / read from the store
def test_row_grouper_detects_every_kind_of_collision(store, monkeypatch):
    """With zero hash weights every row of one prefix collides: a collision inside a block, one
    with a group of an earlier block, and one met when every row of a block is in a known group
    each raise HashCollision; rows that only repeat are grouped exactly."""
    import wltools.refine.grouping as grouping
    import wltools.runtime.hashing as hashing

    monkeypatch.setattr(hashing, "weights", lambda width, salt: np.zeros(width, dtype=np.uint64))
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


def test_max_rounds_bounds_the_loop():
    zeros = np.zeros(9, dtype=np.int64)
    G = nx.path_graph(9)
    decl = Declaration("1wl", (zeros, zeros.copy()), stacked(_neighbour_step(G, G)), lambda *a: "c", max_rounds=2)
    assert refine(decl).iterations == 2 < _wl1(G, G).iterations


def _random_pair(seed, n=9):
    G = nx.gnm_random_graph(n, 13, seed=seed)
    H = nx.gnm_random_graph(n, 13, seed=seed + 50)
    return G, H


def _relabelled(H, seed):
    """``H`` on nodes ``0..n-1`` in a random order (a sort or an index the test must not read)."""
    perm = np.random.default_rng(seed).permutation(H.number_of_nodes()).tolist()
    X = nx.Graph()
    X.add_nodes_from(sorted(perm))
    X.add_edges_from((perm[u], perm[v], d) for u, v, d in H.edges(data=True))
    nx.set_node_attributes(X, {perm[v]: d for v, d in H.nodes(data=True)})
    return X


def _atlas_pairs():
    """Pairs of the networkx atlas (up to 7 nodes) with the same number of edges: the 1-WL-equivalent
    ones (networkx's WL hash), a spread of the rest, and graphs against a relabelled copy."""
    import warnings

    atlas = nx.graph_atlas_g()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # networkx 3.5 notes its hashes changed
        by_hash: dict = {}
        for i, X in enumerate(atlas):
            by_hash.setdefault((len(X), nx.weisfeiler_lehman_graph_hash(X, iterations=7)), []).append(i)
    hard = [(a, b) for ids in by_hash.values() for j, a in enumerate(ids) for b in ids[j + 1:]][::3]
    spread = [(i, i + 1) for i in range(60, 1253, 97) if atlas[i].number_of_edges() == atlas[i + 1].number_of_edges()]
    pairs = [(atlas[a], _relabelled(atlas[b], a)) for a, b in hard + spread]
    return pairs + [(atlas[i], _relabelled(atlas[i], i)) for i in (150, 700, 1100)]


_PAIRS = _atlas_pairs()
_SLOW_REFERENCE = ("s3", "s4", "3fwl", "rrwp")  # fewer pairs: their references take longest


def _verdict(r):
    return r.distinguished, r.iteration, r.iterations, r.class_sizes


@pytest.mark.parametrize("test", [*__import__("wltools.refine.declarations", fromlist=["DECLARED"]).DECLARED, "3fwl"])
def test_every_test_agrees_with_its_independent_reference_on_the_atlas(test):
    """Both paths of every declared test (the declaration on the kernel, and ``refine_pair`` with
    its fast paths) give the verdict, first round, rounds and class sizes of a reference written
    from the paper's definition (``references.py``), on atlas pairs with H relabelled."""
    from references import reference

    from wltools.refine.declarations import DECLARED, declaration

    pairs = _PAIRS[::3] if test in _SLOW_REFERENCE else _PAIRS
    for G, H in pairs:
        want = reference(G, H, test)
        assert _verdict(refine_pair(G, H, test)) == want, (test, nx.to_graph6_bytes(G), nx.to_graph6_bytes(H))
        if test in DECLARED:
            assert _verdict(refine(declaration(G, H, test))) == want, test
        if test == "3fwl":
            from wltools.refine.fwl3 import fwl3_declaration

            assert _verdict(refine(fwl3_declaration(G, H, max_bytes=4096))) == want  # many blocks


@pytest.mark.parametrize("seed", range(4))
def test_labelled_1wl_paths_agree_with_the_labelled_reference_and_write_one_witness(seed):
    from references import labelled_wl1

    from wltools.graphs.labels import pair_labels
    from wltools.refine.declarations import declaration

    G, H = _random_pair(seed, 10)
    rng = np.random.default_rng(seed)
    for X in (G, H):
        nx.set_node_attributes(X, {v: "CNO"[int(rng.integers(3))] for v in X}, "label")
        nx.set_edge_attributes(X, {e: int(rng.integers(2)) for e in X.edges}, "label")
    H = _relabelled(H, seed)
    kernel = refine(declaration(G, H, "1wl", labels=pair_labels(G, H)))
    fast = refine_pair(G, H, "1wl")
    assert _verdict(kernel) == _verdict(fast) == labelled_wl1(G, H)
    assert kernel.witness == fast.witness


@pytest.mark.parametrize("seed", range(8))
def test_the_two_1wl_paths_write_one_witness(seed):
    """The incremental path and the declaration write the same witness text, untouched."""
    from wltools.refine.declarations import declaration

    G, H = _random_pair(seed, 12)
    fast, kernel = refine_pair(G, H, "1wl"), refine(declaration(G, H, "1wl"))
    assert fast.witness == kernel.witness


def test_1wl_witness_by_hand():
    """P4 against the claw: round 1 splits by degree; a path of 8 against P4 + C4 first differs at
    round 3 (hand-computed: P8's round-2 classes are ends, next-to-ends, and two inner pairs)."""
    r = refine_pair(nx.path_graph(4), nx.star_graph(3), "1wl")
    assert r.witness == ("iteration 1: nodes of degree 2: 2 in G, 0 in H; nodes of degree 1: 2 in G, 3 in H; "
                         "nodes of degree 3: 0 in G, 1 in H")
    r = refine_pair(nx.path_graph(8), nx.disjoint_union(nx.path_graph(4), nx.cycle_graph(4)), "1wl")
    assert r.iteration == 3 and r.witness.startswith("iteration 3: nodes of colour ")
    G = nx.path_graph(3)
    H = nx.path_graph(3)
    nx.set_node_attributes(G, {0: "C", 1: "O", 2: "C"}, "label")
    nx.set_node_attributes(H, {0: "O", 1: "C", 2: "O"}, "label")
    assert refine_pair(G, H, "1wl").witness == ("iteration 0: nodes labelled 'C': 2 in G, 1 in H; "
                                                "nodes labelled 'O': 1 in G, 2 in H")


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


def _same_partition(a, b):
    return all((a[i] == a[j]) == (b[i] == b[j]) for i in range(a.size) for j in range(a.size))


@pytest.mark.parametrize("max_bytes", [200, 10**6])  # blocks of a few rows / everything at once
def test_blocked_with_prepare_and_at_once_groups_as_all_rows_together(max_bytes):
    """blocked's rows from a per-round ``prepare`` (called once a round, values per graph), grouped
    in blocks or at once, give the partition of all rows grouped together (independent: the rows
    built here by hand with numpy)."""
    rng = np.random.default_rng(5)
    cg, ch = rng.integers(0, 3, size=(2, 6, 6))
    calls = []

    def prepare(a, b, k):
        calls.append(k)
        return (a, a.sum(axis=1)), (b, b.sum(axis=1))  # a per-graph value the rows read

    def rows_at(g, ctx, k, u, v):
        C, sums = ctx
        return C[u, v], np.sort(np.stack([C[v, u], sums[u] + sums[v]], axis=1), axis=1)

    ids, _ = blocked(rows_at, (6, 6), 2, prepare=prepare, at_once=True, max_bytes=max_bytes)(cg, ch, 3)
    by_hand = []
    for C in (cg, ch):
        s = C.sum(axis=1)
        by_hand += [(C[u, v], *sorted((C[v, u], s[u] + s[v]))) for u in range(6) for v in range(6)]
    ref, _ = stacked_ids(np.array(by_hand))
    assert calls == [3] and _same_partition(ids, ref)


def test_round_loop_stops_when_a_round_adds_no_class_and_accepts_only_growing_rounds():
    counts = iter([3, 5, 5, 9])
    accepted, seen = [], []
    t, stable = round_loop(2, lambda k: (next(counts), k), lambda t, pending, k: accepted.append((t, pending, k)),
                           progress=lambda t, k: seen.append((t, k)))
    assert (t, stable) == (2, True) and accepted == [(1, 2, 2), (2, 3, 3)] and seen == [(1, 3), (2, 5)]
    t, stable = round_loop(2, lambda k: (k + 1, None), lambda *a: None, max_rounds=4)
    assert (t, stable) == (4, False)
    t, stable = round_loop(2, lambda k: (k + 1, None), lambda *a: None, stop=lambda: True)
    assert (t, stable) == (0, False)
