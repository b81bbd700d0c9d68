"""EPWL's verdict shortcut (wltools.refine.epwl.annihilated_keys): walk vectors as long as the
degree of an exactly verified annihilating polynomial split the node pairs exactly as the full
``n + 1`` do, and ``refine_epwl`` (shortcut, then the full keys where anything differs) returns
the same record as the refinement over the full keys.

References: the partition of the full keys (:func:`walk_keys`, itself checked against sympy
projections in test_epwl.py); the minimal polynomial from sympy's characteristic polynomial
(squarefree part: a symmetric matrix is diagonalisable)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from sympy import Matrix, Poly, gcd, symbols

from brec_sample import all_pairs
from wltools.graphs.labels import pair_labels
from wltools.refine.epwl import (
    _annihilates,
    _primes_over,
    annihilated_keys,
    epwl_declaration,
    graph_matrix,
    refine_epwl,
    walk_keys,
)
from wltools.refine.kernel import refine

MATRICES = ("adjacency", "laplacian")


def _same_partition(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    """Whether two key lists (one shared table each) split the positions of all graphs alike."""
    fa, fb = np.concatenate([k.reshape(-1) for k in a]), np.concatenate([k.reshape(-1) for k in b])
    pairs = set(zip(fa.tolist(), fb.tolist()))
    return len(pairs) == len(set(fa.tolist())) == len(set(fb.tolist()))


def _minimal_polynomial(B: np.ndarray) -> list[int]:
    """Coefficients (``x^0`` first) of the minimal polynomial of a symmetric integer matrix:
    the squarefree part of sympy's characteristic polynomial."""
    x = symbols("x")
    chi = Poly(Matrix(B.tolist()).charpoly(x).as_expr(), x)
    m = Poly(chi.quo(gcd(chi, chi.diff(x))), x).monic()
    return [int(c) for c in reversed(m.all_coeffs())]


def _pair(which):
    """A BREC pair by id (loaded on first use), or the pair itself."""
    if isinstance(which, int):
        p = next(p for p in all_pairs() if p.id == which)
        return p.g, p.h
    return which


# strongly regular (BREC 110: 16 nodes; 117: 25), 4-vertex condition (360, 63 nodes), distance
# regular (380), the Petersen graph and the 4-cube with themselves
_SHORTCUT_PAIRS = [110, 117, 360, 380, (nx.petersen_graph(), nx.petersen_graph()),
                   (nx.hypercube_graph(4), nx.hypercube_graph(4))]


@pytest.mark.parametrize("modular", [False, True], ids=["exact-powers", "modular"])
@pytest.mark.parametrize("matrix", MATRICES)
@pytest.mark.parametrize("which", _SHORTCUT_PAIRS, ids=["brec110", "brec117", "brec360", "brec380", "petersen", "cube4"])
def test_shortcut_keys_split_node_pairs_as_the_full_keys(which, matrix, modular, monkeypatch):
    """Both ways of the shortcut: exact float64 powers (:func:`_vanishes`, :func:`_power_keys`;
    these pairs' polynomials are in range) and, with them turned off, residues modulo primes
    (:func:`_annihilates`, :func:`walk_keys` over ``d`` powers)."""
    import wltools.refine.epwl as E

    G, H = _pair(which)
    G, H = nx.convert_node_labels_to_integers(G), nx.convert_node_labels_to_integers(H)
    K = max(len(G), len(H)) + 1
    taken = []
    exact = E._exact_powers
    monkeypatch.setattr(E, "_exact_powers", lambda *a: taken.append(1) if modular else exact(*a))
    fast = annihilated_keys([G, H], matrix, K)
    assert fast is not None  # these spectra have few distinct eigenvalues: the shortcut is taken
    assert taken or not modular
    assert _same_partition(fast, walk_keys([G, H], matrix, K))


@pytest.mark.parametrize("matrix", MATRICES)
def test_annihilates_accepts_the_minimal_polynomial_and_nothing_less(matrix):
    B = graph_matrix(nx.disjoint_union(nx.petersen_graph(), nx.cycle_graph(5)), matrix)
    q = _minimal_polynomial(B)
    b = int(np.abs(B).sum(axis=1).max())
    primes = _primes_over(b, 2 * sum(abs(c) * b**j for j, c in enumerate(q)))
    assert _annihilates([B], q, primes) and _annihilated_exactly([B], q)
    assert _annihilates([B, B], q, primes) and _annihilated_exactly([B, B], q)
    wrong = list(q)
    wrong[0] += 1  # q(B) + I
    assert not _annihilates([B], wrong, primes) and not _annihilated_exactly([B], wrong)
    # a proper divisor: drop one linear factor when there is one over the integers
    roots = [r for r in range(-2 * b, 2 * b + 1) if sum(c * r**j for j, c in enumerate(q)) == 0]
    assert roots
    r = roots[0]
    quot, acc = [], 0
    for c in reversed(q[1:]):  # synthetic division by (x - r), highest coefficient first
        acc = acc * r + c
        quot.append(acc)
    assert not _annihilates([B], list(reversed(quot)), primes)
    assert not _annihilated_exactly([B], list(reversed(quot)))


def _annihilated_exactly(Bs: list, q: list[int]) -> bool:
    """q(B) = 0 for every B by the exact float64 powers (:func:`_exact_powers`, :func:`_vanishes`)."""
    from wltools.refine.epwl import _exact_powers, _vanishes

    b = max(int(np.abs(B).sum(axis=1).max()) for B in Bs)
    powers = _exact_powers(Bs, q, b)
    assert powers is not None  # in range: sum |q_j| b^j < 2^53
    return _vanishes(powers, q)


def test_a_graph_whose_polynomial_does_not_annihilate_the_other_is_refused():
    """K_4 and C_4 + K_0: the product over both spectra is needed; one graph's is rejected."""
    G, H = nx.complete_graph(4), nx.cycle_graph(4)
    A = graph_matrix(G)
    q = _minimal_polynomial(A)  # (x - 3)(x + 1)
    assert not _annihilates([A, graph_matrix(H)], q, _primes_over(3, 10**6))
    assert not _annihilated_exactly([A, graph_matrix(H)], q) and _annihilated_exactly([A, A], q)


_REFINE_PAIRS = [0, 61, 110, 117, 170, 278, 360, 380] + [
    (nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))),
    (nx.petersen_graph(), nx.convert_node_labels_to_integers(nx.complement(nx.line_graph(nx.complete_graph(5))))),
    (nx.empty_graph(4), nx.empty_graph(4)),
    (nx.Graph(), nx.Graph()),
]


@pytest.mark.parametrize("test", ["epwl", "epwl-lap"])
def test_refine_epwl_equals_the_refinement_over_the_full_keys(test):
    """The same verdict, iteration, rounds, class sizes and witness, on pairs the shortcut serves
    (not distinguished) and on pairs it hands back (distinguished)."""
    for which in _REFINE_PAIRS:
        G, H = _pair(which)
        G, H = nx.convert_node_labels_to_integers(G), nx.convert_node_labels_to_integers(H)
        assert refine_epwl(G, H, test) == refine(epwl_declaration(G, H, test)), (G, H)


def test_node_labels_go_through_the_shortcut_exactly():
    G, H = (X.copy() for X in _pair(110))
    for X in (G, H):
        nx.set_node_attributes(X, {v: int(v % 3 == 0) for v in X}, "x")
    labels = pair_labels(G, H)
    for test in ("epwl", "epwl-lap"):
        assert refine_epwl(G, H, test, labels=labels) == refine(epwl_declaration(G, H, test, labels=labels))


def test_a_distinguished_pair_the_shortcut_takes_is_refined_in_full():
    """K_{1,16} and K_{2,8} plus seven isolated nodes: cospectral for A (4, -4 and fifteen zeros), so the shortcut
    takes walks of length 3; their degrees differ, so EPWL separates them at round 1, and the
    record (witness included, which names colour ids) is the full keys' one."""
    G = nx.star_graph(16)
    H = nx.disjoint_union(nx.complete_bipartite_graph(2, 8), nx.empty_graph(7))
    assert annihilated_keys([G, H], "adjacency", 18) is not None
    r = refine_epwl(G, H, "epwl")
    assert r.distinguished and r.iteration == 1
    assert r == refine(epwl_declaration(G, H, "epwl"))


def test_berlekamp_massey_finds_the_recurrence_of_fibonacci_and_of_powers():
    from wltools.refine.epwl import _berlekamp_massey

    p = 1_000_003
    fib = [0, 1]
    for _ in range(10):
        fib.append(fib[-1] + fib[-2])
    assert _berlekamp_massey(fib, p) == [p - 1, p - 1, 1]  # x^2 - x - 1
    assert _berlekamp_massey([pow(5, k, p) for k in range(8)], p) == [p - 5, 1]  # x - 5


def test_the_modular_guess_is_the_minimal_polynomial_where_floats_cannot_round_it():
    """BREC 276 (CFI, 66 nodes), Laplacian: 27 distinct eigenvalues, coefficients beyond 2^45.
    A monic polynomial of that degree that annihilates a symmetric matrix (checked exactly) is
    its minimal polynomial; and refine_epwl, which takes the shortcut through it, returns the
    record of the full keys."""
    import wltools.refine.epwl as E

    G, H = _pair(276)
    Bs = [graph_matrix(X, "laplacian") for X in (G, H)]
    ev = np.linalg.eigvalsh(Bs[0].astype(float))
    d = 1 + int((np.diff(ev) > 1e-6).sum())
    assert d == 27 and np.abs(np.poly(ev)).max() > 2.0**45
    q = E._minimal_polynomial_guess(Bs, 6)
    assert len(q) == d + 1 and q[-1] == 1
    assert _annihilates(Bs, q, _primes_over(6, 2 * sum(abs(c) * 6**j for j, c in enumerate(q))))
    assert _annihilates([Bs[0]], q, _primes_over(6, 2 * sum(abs(c) * 6**j for j, c in enumerate(q))))
    keys = annihilated_keys([G, H], "laplacian", len(G) + 1)
    assert keys is not None and _same_partition(keys, walk_keys([G, H], "laplacian", len(G) + 1))
    assert refine_epwl(G, H, "epwl-lap") == refine(epwl_declaration(G, H, "epwl-lap"))


def test_the_degree_comes_from_the_modular_sequence_where_floats_merge_close_eigenvalues():
    """BREC 289 (CFI, 52 nodes), Laplacian: two distinct eigenvalues lie closer than the float
    grouping's 1e-6 b, so grouping finds 31 where the minimal polynomial has degree 32. The
    guess takes its degree from Berlekamp-Massey over the sequence itself; the shortcut then
    holds (the full keys' partition), and a verdict-only run takes it."""
    from wltools.refine.epwl import _minimal_polynomial_guess
    from wltools.refine.kernel import verdict_only

    G, H = _pair(289)
    Bs = [graph_matrix(X, "laplacian") for X in (G, H)]
    ev = np.sort(np.concatenate([np.linalg.eigvalsh(B.astype(float)) for B in Bs]))
    assert 1 + int((np.diff(ev) > 1e-6 * 10).sum()) == 31
    q = _minimal_polynomial_guess(Bs, 10)
    assert len(q) == 33 and q[-1] == 1
    assert _annihilates(Bs, q, _primes_over(10, 2 * sum(abs(c) * 10**j for j, c in enumerate(q))))
    keys = annihilated_keys([G, H], "laplacian", len(G) + 1, once=True)
    assert keys is not None and _same_partition(keys, walk_keys([G, H], "laplacian", len(G) + 1))
    full = refine(epwl_declaration(G, H, "epwl-lap"))
    with verdict_only():
        quick = refine_epwl(G, H, "epwl-lap")
    assert (quick.distinguished, quick.iteration) == (full.distinguished, full.iteration)


@pytest.mark.parametrize("most", [None, 1, 0], ids=["power-sums", "two-power-sums-then-det", "det"])
@pytest.mark.parametrize("matrix", MATRICES)
def test_spectra_differ_agrees_with_sympys_characteristic_polynomials(matrix, most, monkeypatch):
    """Against sympy's exact characteristic polynomials: random graph pairs of equal order and size
    (mostly not cospectral), and cospectral ones (the Saltire pair for A, BREC 110 strongly
    regular, the same graph relabelled), where it must say False. Each way: the power sums
    ``tr B^k`` up to ``k = n`` (:func:`_power_sums_differ`: all of these pairs are in its exact
    range but BREC 110's Laplacian, which then takes the determinant), the first two of them then
    the determinant modulo primes, and the determinant alone."""
    import wltools.refine.epwl as E
    from wltools.refine.epwl import spectra_differ

    if most is not None:
        monkeypatch.setattr(E, "TRACE_PRODUCTS", most)

    x = symbols("x")
    pairs = [(nx.gnm_random_graph(9, 14, seed=s), nx.gnm_random_graph(9, 14, seed=s + 100)) for s in range(6)]
    pairs += [_pair(110), (nx.petersen_graph(), nx.relabel_nodes(nx.petersen_graph(), {v: (3 * v) % 10 for v in range(10)}))]
    # not cospectral for A, though tr A^k agree for every k < n (4 and 7): only the last power sum tells
    pairs += [(nx.from_graph6_bytes(g), nx.from_graph6_bytes(h)) for g, h in ((b"CB", b"C`"), (b"F^eH?", b"F`EFw"))]
    if matrix == "adjacency":
        pairs.append((nx.star_graph(4), nx.disjoint_union(nx.cycle_graph(4), nx.empty_graph(1))))
    seen = set()
    for G, H in pairs:
        G, H = nx.convert_node_labels_to_integers(G), nx.convert_node_labels_to_integers(H)
        want = Matrix(graph_matrix(G, matrix).tolist()).charpoly(x) != Matrix(graph_matrix(H, matrix).tolist()).charpoly(x)
        assert spectra_differ(G, H, matrix) == want
        seen.add(want)
    assert seen == {True, False}
    # BREC 110 (16 nodes, 6-regular): 16 * 6^16 < 2^53, so the power sums decide it for A; 16 * 12^k
    # passes 2^53 at k = 14 for L = 6 I - A, which they leave to the determinant (floats would round)
    Bs = {m: [graph_matrix(X, m) for X in _pair(110)] for m in MATRICES}
    assert E._power_sums_differ(*Bs["adjacency"], 8) is False and E._power_sums_differ(*Bs["laplacian"], 8) is None
