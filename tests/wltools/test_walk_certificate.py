"""The walk certificate (wltools.distances.walk_certificate) against exact RRWP values: it never
proves a class that is not constant, it proves the classes that symmetry explains, and the RRWP
keys it speeds up are the keys of the residue-only path."""

from __future__ import annotations

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from wltools.distances import rrwp as rrwp_mod
from wltools.distances.adjacency import csr_parts
from wltools.distances.rrwp import rrwp_keys
from wltools.distances.walk_certificate import unproven_entries, walk_partition_certified


def _exact_classes(graphs) -> np.ndarray:
    """Class of every pair by its whole exact walk sequence ``(M^k)_ij, k <= n`` (all powers, by
    Cayley-Hamilton), graphs concatenated row-major."""
    n_all = sum(G.number_of_nodes() for G in graphs)
    keys = []
    for G in graphs:
        n = G.number_of_nodes()
        A = nx.to_numpy_array(G, nodelist=range(n), dtype=int)
        deg = A.sum(axis=1)
        M = [[Fraction(int(A[i, j]), int(deg[i])) if deg[i] else Fraction(0) for j in range(n)] for i in range(n)]
        P = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
        seq = [[[P[i][j]] for j in range(n)] for i in range(n)]
        for _ in range(n_all):
            P = [[sum(P[i][l] * M[l][j] for l in range(n) if M[l][j]) for j in range(n)] for i in range(n)]
            for i in range(n):
                for j in range(n):
                    seq[i][j].append(P[i][j])
        keys.extend(tuple(seq[i][j]) for i in range(n) for j in range(n))
    table: dict = {}
    return np.array([table.setdefault(k, len(table)) for k in keys], dtype=np.int64)


def _residue_classes(graphs) -> np.ndarray:
    """The same classes from the residue-only path (itself tested against exact values)."""
    K = sum(G.number_of_nodes() for G in graphs) + 1
    return np.concatenate([k.reshape(-1) for k in rrwp_keys(graphs, K, certify=False)])


def _small_graphs():
    rng = np.random.default_rng(7)
    out = []
    for t in range(14):
        n = int(rng.integers(6, 11))
        G = nx.gnm_random_graph(n, int(rng.integers(n - 2, 2 * n)), seed=int(rng.integers(1 << 30)))
        H = nx.relabel_nodes(G, dict(zip(range(n), rng.permutation(n).tolist()))) if t % 3 == 0 else \
            nx.gnm_random_graph(n, G.number_of_edges(), seed=int(rng.integers(1 << 30)))
        out.append((G, H))
    star_twins = nx.star_graph(4)
    star_twins.add_edge(4, 5)
    out.append((star_twins, nx.path_graph(6)))
    out.append((nx.disjoint_union(nx.path_graph(3), nx.path_graph(3)), nx.disjoint_union(nx.cycle_graph(3), nx.path_graph(3))))
    return out


@pytest.mark.parametrize("case", range(16))
def test_never_proves_a_class_that_is_not_constant(case):
    """Merging exact classes at random: every class the certificate proves is inside one exact class
    (the merged ones it must leave unproven), and on the exact partition itself nothing it proves
    is wrong either."""
    G, H = _small_graphs()[case]
    exact = _exact_classes([G, H])
    parts = [csr_parts(G), csr_parts(H)]
    rng = np.random.default_rng(case)
    n_cls = int(exact.max()) + 1
    for trial in range(6):
        merge = np.arange(n_cls)
        if trial:  # trial 0: the exact partition
            a, b = rng.choice(n_cls, size=2, replace=False)
            merge[b] = a
        labels = merge[exact]
        left = set(unproven_entries(parts, labels).tolist())
        for c in np.unique(labels):
            members = np.flatnonzero(labels == c)
            if not set(members.tolist()) & left:
                assert len(set(exact[members].tolist())) == 1, (case, trial, c)


def _relabelled(G, seed):
    perm = np.random.default_rng(seed).permutation(G.number_of_nodes()).tolist()
    return nx.relabel_nodes(G, dict(zip(range(G.number_of_nodes()), perm)))


@pytest.mark.parametrize("G, H", [
    (nx.gnm_random_graph(40, 60, seed=3), _relabelled(nx.gnm_random_graph(40, 60, seed=3), 1)),  # isomorphic
    (nx.random_regular_graph(3, 40, seed=1), nx.random_regular_graph(3, 40, seed=2)),
    (nx.disjoint_union(nx.star_graph(5), nx.cycle_graph(6)), nx.disjoint_union(nx.cycle_graph(6), nx.star_graph(5))),
    (nx.petersen_graph(), nx.circulant_graph(10, [1, 2])),
    (nx.disjoint_union(nx.star_graph(3), nx.empty_graph(2)),  # isolated nodes
     _relabelled(nx.disjoint_union(nx.star_graph(3), nx.empty_graph(2)), 2)),
])
def test_proves_what_symmetry_explains(G, H):
    """Isomorphic pairs, twins, isomorphic components and vertex-transitive graphs: every class of
    the exact partition is proven, so no residue is computed."""
    labels = _residue_classes([G, H])
    assert walk_partition_certified([csr_parts(G), csr_parts(H)], labels) is True


def test_wrong_partition_of_a_cycle_is_not_proven():
    C = [csr_parts(nx.cycle_graph(6))]
    by_distance = np.array([min(abs(i - j), 6 - abs(i - j)) for i in range(6) for j in range(6)])
    assert walk_partition_certified(C, by_distance) is True
    merged = np.where(by_distance == 3, 1, by_distance)  # distance 3 joined to distance 1
    assert walk_partition_certified(C, merged) is False


def test_too_large_returns_none(monkeypatch):
    import wltools.distances.walk_certificate as wc

    monkeypatch.setattr(wc, "CERTIFICATE_MAX_ITEMS", 10)
    assert wc.unproven_entries([csr_parts(nx.cycle_graph(5))], np.arange(25)) is None


def _large_pairs():
    """Graphs above SMALL_N (the certificate's path), including ones it cannot fully prove (the grid
    has equal walk values no symmetry explains) so the residue fallback runs on what is left."""
    grid = nx.convert_node_labels_to_integers(nx.grid_2d_graph(9, 9))
    return [
        (nx.gnm_random_graph(90, 120, seed=1), nx.gnm_random_graph(90, 120, seed=2)),
        (nx.gnm_random_graph(80, 110, seed=5), _relabelled(nx.gnm_random_graph(80, 110, seed=5), 3)),
        (grid, _relabelled(grid, 4)),
        (nx.random_labeled_tree(90, seed=1), nx.random_labeled_tree(90, seed=2)),
    ]


@pytest.mark.parametrize("case", range(4))
@pytest.mark.parametrize("K", [6, None])
def test_rrwp_keys_with_certificate_equal_residue_keys(case, K):
    G, H = _large_pairs()[case]
    K = K or G.number_of_nodes() + 1
    fast = rrwp_keys([G, H], K)
    slow = rrwp_keys([G, H], K, certify=False)
    for a, b in zip(fast, slow):
        assert np.array_equal(a, b)


def test_certified_keys_recover_from_a_colliding_hash(monkeypatch):
    """A hash pass that merges every entry: the certificate leaves the merged class unproven, the
    residues refute it, and the next try gives the right keys."""
    G, H = _large_pairs()[0]
    real, calls = rrwp_mod._hash_pass, []

    def colliding(Bs, primes, K, w, sizes):
        calls.append(1)
        h = real(Bs, primes, K, w, sizes)
        return h * 0 if len(calls) == 1 else h

    monkeypatch.setattr(rrwp_mod, "_hash_pass", colliding)
    keys = rrwp_keys([G, H], 12)
    monkeypatch.undo()
    assert len(calls) == 2
    slow = rrwp_keys([G, H], 12, certify=False)
    # the same partition of all pairs (the class numbering depends on the try)
    a, b = np.concatenate([k.reshape(-1) for k in keys]), np.concatenate([k.reshape(-1) for k in slow])
    assert len(set(zip(a.tolist(), b.tolist()))) == len(set(a.tolist())) == len(set(b.tolist()))


@pytest.mark.parametrize("budget", [None, 1])
@pytest.mark.parametrize("shape", ["rows", "columns"])
def test_residue_verification_of_a_few_entries(shape, budget, monkeypatch):
    """The verification reads only the rows or columns its entries need: equal entries pass, an
    unequal one fails, whichever of the two it picks, and whatever the chunks of primes."""
    if budget is not None:
        monkeypatch.setattr(rrwp_mod, "RESIDUE_BUDGET", budget)  # one prime per chunk
    import math

    from scipy.sparse import csr_matrix

    from wltools.distances.rrwp import rrwp_exact

    n, K = 24, 10
    G = nx.gnm_random_graph(n, 30, seed=9)
    table: dict = {}
    exact = np.array([table.setdefault(t, len(table)) for row in rrwp_exact(G, K) for t in row])
    A = nx.to_scipy_sparse_array(G, nodelist=range(n), format="csr").astype(np.float64)
    deg = np.asarray(A.sum(axis=1)).reshape(-1)
    L = math.lcm(*{int(d) for d in deg if d})
    B = csr_matrix(A.multiply(np.where(deg > 0, L // np.maximum(deg, 1), 0)[:, None]))
    primes = rrwp_mod._prime_moduli(n, L, K)
    groups: dict = {}
    for e, c in enumerate(exact):
        groups.setdefault(int(c), []).append(e)
    pairs = [(g[t], g[0]) for g in groups.values() for t in range(1, len(g))]
    if shape == "rows":  # entries from few rows: verified through rows of B^k
        keep = sorted({d // n for d, _ in pairs})[:2]
        pairs = [(d, r) for d, r in pairs if d // n in keep and r // n in keep]
    else:  # entries from few columns
        keep = sorted({d % n for d, _ in pairs})[:2]
        pairs = [(d, r) for d, r in pairs if d % n in keep and r % n in keep]
    assert pairs
    dup, rep = np.array([d for d, _ in pairs]), np.array([r for _, r in pairs])
    assert rrwp_mod._verified([B], primes, K, L, [n], dup, rep)
    # a second graph none of whose entries is asked for (no columns to compute)
    assert rrwp_mod._verified([B, B], primes, K, L, [n, n], dup, rep)
    d0 = int(dup[0])
    other = next(e for e in range(n * n) if exact[e] != exact[d0] and (e // n == d0 // n if shape == "rows" else e % n == d0 % n))
    assert not rrwp_mod._verified([B], primes, K, L, [n], np.array([d0]), np.array([other]))


def test_residue_chunks_give_the_same_keys(monkeypatch):
    """All residues (many equal entries: a vertex-transitive pair) one prime per chunk: the same keys."""
    G, H = nx.circulant_graph(70, [1, 3]), nx.circulant_graph(70, [1, 5])
    whole = rrwp_keys([G, H], 71, certify=False)
    monkeypatch.setattr(rrwp_mod, "RESIDUE_BUDGET", 1)
    for a, b in zip(whole, rrwp_keys([G, H], 71, certify=False)):
        assert np.array_equal(a, b)


def test_brec_keys_with_certificate_equal_residue_keys():
    """Every sixth (by id) of the 63 BREC pairs above SMALL_N nodes (all CFI: 74 to 198 nodes) at
    K = 32, and at K = n + 1 those of at most 120 nodes: the residue-only reference on the 198-node
    pair 345 at K = 199 alone takes 20 to 60 s (its cost grows as K n^3), so it is left to the
    benchmark, as are the other 52 pairs: ``benchmarks/exact_crosscheck.py --category cfi --tests
    rrwp --rrwp-steps 199`` (the exact Fraction reference, every CFI pair, K above every n; its
    committed results, benchmarks/results/exact_crosscheck.jsonl, are at K = 32)."""
    from brec_sample import all_pairs
    from wltools.distances.adjacency import SMALL_N

    checked = []
    large = [p for p in all_pairs() if max(p.g.number_of_nodes(), p.h.number_of_nodes()) > SMALL_N]
    assert len(large) == 63
    for p in large[::6]:
        n = max(p.g.number_of_nodes(), p.h.number_of_nodes())
        for K in (32, n + 1) if n <= 120 else (32,):
            fast = rrwp_keys([p.g, p.h], K)
            slow = rrwp_keys([p.g, p.h], K, certify=False)
            assert all(np.array_equal(a, b) for a, b in zip(fast, slow)), (p.id, K)
            checked.append(K > 32)
    assert (len(checked), sum(checked)) == (21, 10)  # 11 pairs at K = 32, 10 of them at K = n + 1
