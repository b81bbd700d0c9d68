"""Tests of wltools.distances: hand-checked values, exact vs float agreement, keys vs exact values."""

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
import sympy
import torch

from wltools.distances import (
    INF,
    adjacency_matrix,
    distance_keys,
    resistance_exact,
    resistance_float,
    rrwp_exact,
    rrwp_float,
    rrwp_keys,
    spd_float,
    spd_keys,
    spd_matrix,
)
from wltools.errors import UnknownNameError, UnsupportedGraphError


def _ei(G):
    e = torch.tensor(list(G.edges()), dtype=torch.long).reshape(-1, 2).T
    return torch.cat([e, e.flip(0)], dim=1)


def _graphs():
    rng = np.random.default_rng(0)
    out = [nx.path_graph(5), nx.cycle_graph(7), nx.complete_graph(5), nx.petersen_graph()]
    two = nx.disjoint_union(nx.cycle_graph(3), nx.path_graph(3))
    two.add_node(6)  # isolated node
    out.append(two)
    for s in range(3):
        out.append(nx.gnp_random_graph(9, 0.35, seed=int(rng.integers(1000))))
    return out


def test_spd_hand_values():
    assert spd_matrix(nx.path_graph(4))[0].tolist() == [0, 1, 2, 3]
    assert spd_matrix(nx.cycle_graph(6))[0].tolist() == [0, 1, 2, 3, 2, 1]
    K = spd_matrix(nx.complete_graph(4))
    assert (K == 1 - np.eye(4, dtype=int)).all()
    G = nx.Graph([(0, 1)])
    G.add_node(2)
    assert spd_matrix(G)[0, 2] == -1 and spd_matrix(G)[2, 2] == 0


def test_resistance_hand_values():
    T = nx.balanced_tree(2, 2)  # a tree: every edge has resistance 1
    R = resistance_exact(T)
    for u, v in T.edges():
        assert R[u][v] == 1
    for n in (3, 5, 8):
        Rc = resistance_exact(nx.cycle_graph(n))
        assert Rc[0][1] == Fraction(n - 1, n)
        assert Rc[0][2] == Fraction(2 * (n - 2), n)
    Rk = resistance_exact(nx.complete_graph(6))
    assert Rk[0][3] == Fraction(2, 6)
    G = nx.disjoint_union(nx.path_graph(2), nx.path_graph(2))
    assert resistance_exact(G)[0][2] is INF and resistance_exact(G)[0][1] == 1


def test_resistance_exact_matches_sympy_pseudoinverse():
    G = nx.gnp_random_graph(8, 0.5, seed=3)
    G = G.subgraph(max(nx.connected_components(G), key=len)).copy()
    G = nx.convert_node_labels_to_integers(G)
    L = sympy.Matrix(nx.laplacian_matrix(G).toarray().tolist())
    Lp = L.pinv()
    R = resistance_exact(G)
    n = len(G)
    for i in range(n):
        for j in range(n):
            want = Lp[i, i] + Lp[j, j] - 2 * Lp[i, j]
            assert Fraction(int(want.p), int(want.q)) == R[i][j]


def test_rrwp_hand_values_and_rows_sum_to_one():
    P = rrwp_exact(nx.path_graph(3), 3)
    assert P[0][0] == (1, 0, Fraction(1, 2))
    assert P[0][2] == (0, 0, Fraction(1, 2))
    assert P[1][1] == (1, 0, 1)
    G = _graphs()[4]  # has an isolated node
    Pg = rrwp_exact(G, 4)
    n = len(G)
    for i in range(n):
        for k in range(4):
            s = sum(Pg[i][j][k] for j in range(n))
            assert s == (1 if (k == 0 or G.degree(i) > 0) else 0)
    Pf = rrwp_float(_ei(G), n, 6, dtype=torch.float64)
    sums = Pf.sum(dim=1)
    deg = torch.tensor([G.degree(i) for i in range(n)])
    assert torch.allclose(sums[deg > 0], torch.ones_like(sums[deg > 0]))
    assert torch.all(sums[deg == 0][:, 1:] == 0) and torch.all(sums[:, 0] == 1)


@pytest.mark.parametrize("idx", range(8))
def test_exact_and_float_forms_agree(idx):
    G = _graphs()[idx]
    n = len(G)
    ei = _ei(G)
    assert torch.equal(spd_float(ei, n), torch.from_numpy(spd_matrix(G)))
    R = resistance_exact(G)
    Rf = resistance_float(ei, n)
    assert Rf.dtype == torch.float64
    for i in range(n):
        for j in range(n):
            if R[i][j] is INF:
                assert torch.isinf(Rf[i, j])
            else:
                assert abs(float(R[i][j]) - Rf[i, j].item()) < 1e-9
    P = rrwp_exact(G, 5)
    Pf = rrwp_float(ei, n, 5)
    assert Pf.shape == (n, n, 5) and Pf.dtype == torch.float32
    want = torch.tensor([[[float(x) for x in P[i][j]] for j in range(n)] for i in range(n)])
    assert torch.allclose(Pf, want, atol=1e-6)


def test_float_forms_invariant_under_relabeling():
    G = nx.gnp_random_graph(10, 0.3, seed=7)
    perm = np.random.default_rng(1).permutation(10)
    H = nx.relabel_nodes(G, {i: int(perm[i]) for i in range(10)})
    p = torch.from_numpy(perm)
    for f in (spd_float, resistance_float, lambda e, n: rrwp_float(e, n, 4)):
        a, b = f(_ei(G), 10), f(_ei(H), 10)
        assert torch.allclose(b[p][:, p], a, equal_nan=True) or torch.equal(b[p][:, p], a)


def _key_partition_matches(values_g, values_h, kg, kh):
    vals = [v for row in values_g for v in row] + [v for row in values_h for v in row]
    keys = np.concatenate([kg.reshape(-1), kh.reshape(-1)]).tolist()
    by_val, by_key = {}, {}
    for v, k in zip(vals, keys):
        assert by_val.setdefault(v, k) == k
        assert by_key.setdefault(k, v) == v


@pytest.mark.parametrize("K", [1, 3, 9])
def test_rrwp_keys_equal_iff_exact_values_equal(K):
    G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    H.add_edge(0, 3)
    H.remove_edge(1, 2)
    G.add_node(6)
    H.add_node(6)
    kg, kh = rrwp_keys([G, H], K)
    _key_partition_matches(rrwp_exact(G, K), rrwp_exact(H, K), kg, kh)


@pytest.mark.parametrize("K", [12, 25])
def test_rrwp_keys_exact_with_many_primes(K):
    # degrees 1..6 (L = 60): several primes, and the one-prime hash pass must still be verified
    G = nx.gnm_random_graph(16, 30, seed=3)
    H = nx.gnm_random_graph(16, 30, seed=4)
    kg, kh = rrwp_keys([G, H], K)
    _key_partition_matches(rrwp_exact(G, K), rrwp_exact(H, K), kg, kh)


@pytest.mark.parametrize("bad_tries", [1, 3, 5])
def test_rrwp_keys_recover_from_hash_collisions(monkeypatch, bad_tries):
    # the first tries hash every entry alike (as a one-prime coincidence or a 64-bit collision
    # would): verification must reject them and a later try give the exact keys
    import wltools.distances.rrwp as rrwp

    real, calls = rrwp._hash_pass, []

    def colliding(Bs, primes, K, w, sizes):
        calls.append(len(primes))
        h = real(Bs, primes, K, w, sizes)
        return h * 0 if len(calls) <= bad_tries else h

    monkeypatch.setattr(rrwp, "_hash_pass", colliding)
    G, H = nx.gnm_random_graph(12, 20, seed=5), nx.gnm_random_graph(12, 20, seed=6)
    kg, kh = rrwp.rrwp_keys([G, H], 8)
    _key_partition_matches(rrwp_exact(G, 8), rrwp_exact(H, 8), kg, kh)
    assert len(calls) == bad_tries + 1
    assert calls[0] == 1  # the first pass hashes one prime only


def test_rrwp_reduce_matches_integer_mod():
    from wltools.distances.modular import primes_below
    from wltools.distances.rrwp import _reduce

    primes = primes_below(2**40, 3)
    pv = np.array(primes, dtype=np.float64)
    rng = np.random.default_rng(0)
    vals = [[0, 1, p - 1, p, p + 1, 2 * p - 1, 5 * p, 2**53 - 1 - (2**53 - 1) % p, 2**53 - 1] for p in primes]
    ints = np.array(vals, dtype=np.int64)[None]  # [1, 3, 9]
    ints = np.concatenate([ints, rng.integers(0, 2**53, size=(4, 3, 9))])
    Y = ints.astype(np.float64)
    assert np.array_equal(Y.astype(np.int64), ints)  # all exact in float64
    got = _reduce(Y, pv[None, :, None], pv, np.empty_like(Y))
    want = ints % np.array(primes, dtype=np.int64)[None, :, None]
    assert np.array_equal(got.astype(np.int64), want)


def test_resistance_and_spd_keys_equal_iff_values_equal():
    G, H = _graphs()[4], nx.gnp_random_graph(7, 0.4, seed=2)
    kg, kh = distance_keys([G, H], "rd")
    _key_partition_matches(resistance_exact(G), resistance_exact(H), kg, kh)
    kg, kh = distance_keys([G, H], "spd")
    _key_partition_matches(spd_matrix(G).tolist(), spd_matrix(H).tolist(), kg, kh)


def test_bad_input():
    with pytest.raises(UnsupportedGraphError):
        adjacency_matrix(nx.DiGraph([(0, 1)]))
    with pytest.raises(UnsupportedGraphError):
        adjacency_matrix(nx.Graph([(0, 0)]))
    with pytest.raises(UnknownNameError):
        distance_keys([nx.path_graph(2)], "hops")
    with pytest.raises(ValueError):
        rrwp_float(_ei(nx.path_graph(2)), 2, 0)


def test_package_exports_every_name_and_imports_torch_lazily():
    import subprocess
    import sys

    import wltools.distances as dist

    for name in dist.__all__:
        assert getattr(dist, name) is not None
    assert set(dist.__all__) <= set(dir(dist))
    code = (
        "import sys, wltools.refine, wltools.distances, wltools.graphs, wltools.iso, wltools.refine.names; "
        "assert 'torch' not in sys.modules, 'torch imported'; "
        "from wltools.distances import spd_float; assert 'torch' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _small_and_sparse_graphs():
    graphs = [nx.gnp_random_graph(n, p, seed=s) for s, (n, p) in enumerate(
        [(12, 0.3), (30, 0.1), (40, 0.15), (64, 0.06), (20, 0.0), (25, 0.5)])]
    return graphs + [nx.disjoint_union(nx.petersen_graph(), nx.path_graph(4)), nx.empty_graph(3)]


def test_small_graph_numpy_paths_equal_the_scipy_paths(monkeypatch):
    """Graphs of at most SMALL_N nodes skip scipy (dense numpy products); forcing the scipy paths
    (SMALL_N = 0) must give the same distances and the same keys, bit for bit."""
    import wltools.distances.rrwp as rrwp_mod
    import wltools.distances.spd as spd_mod
    import wltools.refine.epwl as epwl_mod
    from wltools.distances.adjacency import SMALL_N

    graphs = _small_and_sparse_graphs()
    assert all(G.number_of_nodes() <= SMALL_N for G in graphs)
    dense = [(spd_matrix(G), spd_keys(G), rrwp_keys([G, G], 9)[0], epwl_mod.walk_keys([G], "laplacian")[0])
             for G in graphs]
    for mod in (spd_mod, rrwp_mod, epwl_mod):
        monkeypatch.setattr(mod, "SMALL_N", 0)
    for G, (d, k, r, w) in zip(graphs, dense):
        assert np.array_equal(spd_matrix(G), d) and np.array_equal(spd_keys(G), k)
        assert spd_keys(G).dtype == k.dtype
        assert np.array_equal(rrwp_keys([G, G], 9)[0], r)
        assert np.array_equal(epwl_mod.walk_keys([G], "laplacian")[0], w)
    assert (dense[-2][0] == -1).any()  # unreachable pairs are covered


def test_small_graph_checks_import_no_scipy():
    """`wltools check` on small graphs runs every test without importing scipy (start-up time)."""
    import subprocess
    import sys

    code = ("import sys, networkx as nx\n"
            "from wltools.refine import refine_pair\n"
            "from wltools.iso import canonical_form\n"
            "G = nx.petersen_graph()\n"
            "for t in ('1wl', 'spd', 'rd', 'rrwp', '3wl', 'epwl', 'epwl-lap'): refine_pair(G, G, t)\n"
            "canonical_form(G)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_resistance_distinct_rows_equal_numpys_unique_along_rows():
    """The fast exact grouping of the resistance digits (hash-verified unique_rows, then sorted)
    against np.unique(axis=0): the same distinct rows in the same order and the same inverse,
    on random digit rows with many repeats and on extreme values."""
    import numpy as np

    from wltools.distances.resistance import _sorted_unique_rows

    rng = np.random.default_rng(7)
    for rows in (rng.integers(0, 2**30, (40, 5))[rng.integers(0, 40, 3000)],
                 rng.integers(0, 3, (500, 3)),
                 np.array([[2**62, 0], [0, 2**62], [2**62, 0], [1, 1]], dtype=np.int64)):
        u, inv = _sorted_unique_rows(rows)
        want_u, want_inv = np.unique(rows, axis=0, return_inverse=True)
        assert np.array_equal(u, want_u) and np.array_equal(inv, want_inv.reshape(-1))


def test_inverse_mod_primes_equals_the_pivoted_inverse_mod_p():
    """The block elimination over all primes at once (diagonal pivots, redone alone on a zero
    pivot) against inverse_mod_p's row-swapping Gauss-Jordan, prime by prime: symmetric and
    general matrices across the block sizes, singular ones, ones with a zero leading minor, and
    small primes that divide minors often."""
    from wltools.distances.modular import inverse_mod_p, inverse_mod_primes, prime_cap, primes_below

    rng = np.random.default_rng(11)
    for trial in range(80):
        s = int(rng.integers(1, 40))
        M = rng.integers(-3, 4, size=(s, s))
        if trial % 2:
            M = M + M.T
        if trial % 5 == 0 and s > 1:
            M[0, 0] = 0  # a zero first pivot
        if trial % 7 == 0 and s > 2:
            M[-1] = M[0]  # singular
        primes = primes_below(prime_cap(s), 3) + [3, 5, 7]
        for p, got in zip(primes, inverse_mod_primes(M, primes)):
            want = inverse_mod_p(M, p)
            assert (got is None) == (want is None), (trial, p)
            assert got is None or (np.array_equal(got[0], want[0]) and got[1] == want[1]), (trial, p)


def _fraction_det(M) -> Fraction:
    """Determinant by Gaussian elimination over Fractions with row swaps (test-local reference)."""
    A, det = [[Fraction(x) for x in row] for row in M], Fraction(1)
    for c in range(len(A)):
        r = next((r for r in range(c, len(A)) if A[r][c] != 0), None)
        if r is None:
            return Fraction(0)
        if r != c:
            A[c], A[r], det = A[r], A[c], -det
        det *= A[c][c]
        for i in range(c + 1, len(A)):
            f = A[i][c] / A[c][c]
            A[i] = [x - f * y for x, y in zip(A[i], A[c])]
    return det


def test_bareiss_adjugate_equals_det_times_the_fraction_inverse():
    """The Python-integer adjugate of small components against ``det M * M^-1`` over Fractions
    (wltools.testing.references.fraction_inverse), None exactly where a leading principal minor
    vanishes."""
    from wltools.distances.resistance import _adjugate_bareiss
    from wltools.testing.references import fraction_inverse

    rng = np.random.default_rng(12)
    for _ in range(150):
        t = int(rng.integers(1, 8))
        M = rng.integers(-3, 4, size=(t, t)).tolist()
        got = _adjugate_bareiss(M)
        minors = [_fraction_det([row[:k] for row in M[:k]]) for k in range(1, t + 1)]
        assert (got is None) == (0 in minors), M
        if got is not None:
            det = minors[-1]
            inverse = fraction_inverse([[Fraction(x) for x in row] for row in M])
            assert got[1] == det and got[0] == [[det * x for x in row] for row in inverse], M


def _legacy_keys_and_values(graphs):
    """Resistance keys as first written: every numerator of every component lifted to its Garner
    digits over the modular residues, distinct digit rows by np.unique(axis=0), values entered in
    that order (the numbering the fast paths must keep: witnesses and dataset keys read it)."""
    from wltools.distances.modular import garner_digits, renumber_keys
    from wltools.distances.resistance import _lift, _grounded_component
    from wltools.distances.spd import components

    table, out = {INF: 0}, []
    for G in graphs:
        A = adjacency_matrix(G)
        keys = np.zeros(A.shape, dtype=np.int64)
        for comp in components(A):
            if len(comp) == 1:
                keys[comp[0], comp[0]] = table.setdefault(Fraction(0), len(table))
                continue
            primes, adjs, tau = _lift(*_grounded_component(A, comp))
            s = len(comp)
            res = []
            for adj, p in zip(adjs, primes):
                a = np.zeros((s, s), dtype=np.int64)
                a[1:, 1:] = adj
                dg = np.diag(a)
                res.append(((dg[:, None] + dg[None, :] - 2 * a) % p).reshape(-1))
            uniq, inv = np.unique(garner_digits(res, primes), axis=0, return_inverse=True)
            radix = [int(np.prod(primes[:i], dtype=object)) for i in range(len(primes))]
            codes = [table.setdefault(Fraction(sum(int(x) * w for x, w in zip(row, radix)), tau), len(table)) for row in uniq]
            keys[np.ix_(comp, comp)] = np.array(codes)[inv.reshape(-1)].reshape(s, s)
        out.append(keys)
    by_id = list(table)
    return renumber_keys(out), [by_id[i] for i in np.unique(np.concatenate([k.reshape(-1) for k in out]))]


def test_resistance_keys_and_values_equal_the_legacy_numbering():
    """The fast lift (Python integers for small components, the pairs i <= j only and Garner
    digits of distinct residue rows for the others) gives the same keys, numbered alike, and the
    same values as lifting every numerator: on disconnected graphs with components below and
    above SMALL_COMPONENT, and on graphs of many primes (mixed degrees up to 11)."""
    from wltools.distances.resistance import SMALL_COMPONENT, resistance_keys_and_values

    big = nx.disjoint_union(nx.petersen_graph(), nx.cycle_graph(SMALL_COMPONENT))
    big.add_node(len(big))
    cases = [(big, nx.disjoint_union(nx.path_graph(5), nx.random_regular_graph(3, 14, seed=1)))]
    cases += [(nx.gnm_random_graph(30, 90, seed=s), nx.random_regular_graph(4, 30, seed=s)) for s in range(2)]
    cases += [(nx.complete_graph(12), nx.convert_node_labels_to_integers(nx.grid_2d_graph(3, 4)))]
    for G, H in cases:
        keys, values = resistance_keys_and_values([G, H])
        want_keys, want_values = _legacy_keys_and_values([G, H])
        assert [k.tolist() for k in keys] == [k.tolist() for k in want_keys] and values == want_values


def test_rrwp_nonzero_is_the_zero_pattern_of_the_exact_integer_powers():
    """Multi-modular zero pattern (grit-3.2's identity (6) reads it) against rrwp_scaled's Python
    integers: disconnected graphs with isolated nodes, mixed degrees (a large lcm), and BREC
    graphs of the representative part up to 40 nodes."""
    import networkx as nx
    import numpy as np

    from brec_sample import all_pairs, sample_ids
    from wltools.distances.rrwp import rrwp_nonzero, rrwp_scaled

    ids = set(sample_ids())
    graphs = [nx.disjoint_union(nx.path_graph(4), nx.empty_graph(2)), nx.wheel_graph(9), nx.lollipop_graph(5, 6),
              nx.gnm_random_graph(14, 30, seed=3), nx.empty_graph(3)]
    graphs += [X for p in all_pairs() if p.id in ids and p.g.number_of_nodes() <= 40 for X in (p.g, p.h)]
    for G in graphs:
        n = G.number_of_nodes()
        want = np.stack([x != 0 for x in rrwp_scaled(G, n)[0]]).astype(bool)
        assert np.array_equal(rrwp_nonzero(G, n), want)
