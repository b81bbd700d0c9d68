"""The conformance suite of WL tests, :func:`check_test` (after scikit-learn's ``check_estimator``):
every test, built-in or from outside, goes through the same checks. Each failing check raises an
:class:`AssertionError` whose message starts ``check_test(<name>): <check>:``.

The checks (:data:`CHECKS`):

* ``relabelling``: a graph and a relabelling of it are not distinguished; the verdict and its
  round do not change when the nodes of G and H are permuted, nor when G and H swap places;
* ``fast path``: the fast path gives the kernel's verdict, round, stable class sizes and witness, and a
  batched route over many pairs (``batch_path``) the same as pair by pair;
* ``witness``: a distinguished pair has a witness naming its round, an undistinguished one none;
  the kernel's history agrees with the result (first difference, rounds);
* ``verdict-only``: :func:`~wltools.refine.kernel.verdict_only` gives the full run's verdict and round;
* ``labels``: labels the test declares it refuses are refused with one line
  (:class:`~wltools.errors.UnsupportedGraphError`), the others accepted;
* ``atlas``: the partition of the networkx graph atlas (1,253 graphs up to 7 nodes; the first
  ``atlas_limit``) into the test's classes equals that of an independent reference: the test's
  ``classes`` (:mod:`wltools.testing.references` for the built-in tests), else its own slow
  ``reference`` path, pair by pair;
* ``random``: the same on random (node-labelled, where accepted) pairs of equal degree sequence;
* ``collection``: a collection's classes (:mod:`wltools.dataset`) equal the pairwise verdicts;
* ``cost``: the cost estimate is at least the measured (tracemalloc) peak.
"""

from __future__ import annotations

import itertools
import random
import tracemalloc
from collections import defaultdict

import networkx as nx

from ..errors import UnsupportedGraphError
from ..refine import refine_pair, verdict_only
from ..refine.kernel import History, refine
from ..wltests.registry import get_test, registered

__all__ = ["check_test", "CHECKS"]

#: The checks, in the order they run.
CHECKS = ("relabelling", "fast path", "witness", "verdict-only", "labels", "atlas", "random", "collection", "cost")


def _fail(test, check: str, detail: str):
    raise AssertionError(f"check_test({test.name}): {check}: {detail}")


def _permuted(G: nx.Graph, rng: random.Random) -> nx.Graph:
    order = list(G)
    rng.shuffle(order)
    return nx.relabel_nodes(G, dict(zip(G, order)))


def _random_pairs(count: int, rng: random.Random, labels: bool) -> list:
    """Pairs of equal degree sequence: a G(n, p) graph and a degree-preserving rewiring of it,
    with node labels ``"a"`` / ``"b"`` when ``labels``."""
    pairs = []
    while len(pairs) < count:
        n = rng.randint(5, 8)
        G = nx.gnp_random_graph(n, rng.uniform(0.3, 0.6), seed=rng.randrange(2**31))
        if G.number_of_edges() < 3:
            continue
        H = G.copy()
        try:
            nx.double_edge_swap(H, nswap=2, max_tries=200, seed=rng.randrange(2**31))
        except nx.NetworkXException:
            continue
        if labels:
            for X in (G, H):
                nx.set_node_attributes(X, {v: rng.choice("ab") for v in X}, "label")
        pairs.append((G, H))
    return pairs


def _key(r) -> tuple:
    return r.distinguished, r.iteration


def _check_relabelling(test, pairs, rng):
    for G, H in pairs:
        copy = _permuted(G, rng)
        if refine_pair(G, copy, test).distinguished:
            _fail(test, "relabelling", f"a graph and a relabelling of it are distinguished "
                                       f"(G {nx.to_graph6_bytes(G, header=False).strip()!r})")
        base = _key(refine_pair(G, H, test))
        for name, other in (("permuted", refine_pair(_permuted(G, rng), _permuted(H, rng), test)),
                            ("swapped", refine_pair(H, G, test))):
            if _key(other) != base:
                _fail(test, "relabelling", f"{name} pair gives {_key(other)}, the pair {base} "
                                           f"(G {nx.to_graph6_bytes(G, header=False).strip()!r})")


def _check_paths(test, pairs):
    """``fast path``, ``witness`` and ``verdict-only`` on pairs of equal order and size on 0..n-1."""
    for G, H in pairs:
        G, H = nx.convert_node_labels_to_integers(G), nx.convert_node_labels_to_integers(H)
        full = test.refine(G, H)
        if test.declaration is not None:
            history = History()
            kernel = refine(test.kernel_declaration(G, H), history=history)
            if test.fast_path is not None and (_key(full), full.class_sizes, full.witness) != (
                    _key(kernel), kernel.class_sizes, kernel.witness):
                _fail(test, "fast path", f"fast path {_key(full)} {full.witness!r}, kernel {_key(kernel)} "
                                         f"{kernel.witness!r}")
            if history.first_diff != kernel.iteration or history.rounds != kernel.iterations:
                _fail(test, "witness", f"history (first difference {history.first_diff}, {history.rounds} rounds) "
                                       f"disagrees with the result ({kernel.iteration}, {kernel.iterations})")
        if full.distinguished != (f"iteration {full.iteration}" in (full.witness or "")):
            _fail(test, "witness", f"verdict {full.distinguished} at round {full.iteration} with witness {full.witness!r}")
        with verdict_only():
            quick = test.refine(G, H)
        if _key(quick) != _key(full):
            _fail(test, "verdict-only", f"verdict-only run gives {_key(quick)}, the full run {_key(full)}")
    _check_batch_path(test, pairs)


def _check_batch_path(test, pairs):
    """``fast path`` of a test with a batched route (:attr:`~wltools.wltests.base.WLTest.batch_path`):
    :func:`wltools.refine.batch.refine_pairs` on all ``pairs`` at once equals the test pair by pair."""
    if test.batch_path is None:
        return
    from ..refine.batch import refine_pairs

    pairs = [(nx.convert_node_labels_to_integers(G), nx.convert_node_labels_to_integers(H)) for G, H in pairs]
    for (G, H), got in zip(pairs, refine_pairs(pairs, test.name)):
        want = test.refine(G, H)
        if (_key(got), got.class_sizes, got.witness) != (_key(want), want.class_sizes, want.witness):
            _fail(test, "fast path", f"batched route {_key(got)} {got.witness!r}, pair by pair {_key(want)} "
                                     f"{want.witness!r} (G {nx.to_graph6_bytes(G, header=False).strip()!r})")


def _check_labels(test):
    """Labels refused as declared (one line), and read where accepted: a path with node labels
    ``abab`` against ``abba``, and one with all edges ``x`` against one edge ``y``, differ only in
    their labels, which every test reading them tells apart."""
    P = nx.path_graph(4)
    for kind, node, edge in (("node", True, False), ("edge", False, True)):
        G, H = P.copy(), P.copy()
        if node:
            nx.set_node_attributes(G, dict(enumerate("abab")), "label")
            nx.set_node_attributes(H, dict(enumerate("abba")), "label")
        if edge:
            nx.set_edge_attributes(G, {e: "x" for e in G.edges}, "label")
            nx.set_edge_attributes(H, {e: "y" if e == (0, 1) else "x" for e in H.edges}, "label")
        refuses = test.refuses(node, edge)
        try:
            read = refine_pair(G, H, test).distinguished
            refused = False
        except UnsupportedGraphError as exc:
            refused = True
            if "\n" in str(exc):
                _fail(test, "labels", f"the refusal of {kind} labels is not one line: {exc}")
        except Exception as exc:  # noqa: BLE001 - any other failure on labels is this check's
            _fail(test, "labels", f"{kind} labels raise {type(exc).__name__}: {exc}")
        if refused != refuses:
            _fail(test, "labels", f"{kind} labels {'refused' if refused else 'accepted'}, but the test declares "
                                  f"labels={test.labels!r}")
        if not refused and not read:
            _fail(test, "labels", f"{kind} labels accepted but not read: two paths differing only in them are "
                                  "not distinguished")


def _reference_verdicts(test, graphs, pairs, classes):
    """``distinguished`` per pair of indices into ``graphs`` by the independent reference
    (``classes``: one key per graph), else by the test's own slow path."""
    if classes is not None:
        keys = classes(graphs)
        return [keys[i] != keys[j] for i, j in pairs]
    return [test.refine(*(nx.convert_node_labels_to_integers(graphs[k]) for k in (i, j)), fast=False).distinguished
            for i, j in pairs]


def _atlas_pairs(graphs, classes, max_pairs, rng):
    """Pairs of equal order and size (others are told apart before refinement): every pair the
    reference puts in one class, and up to ``max_pairs`` others, drawn at random (all: None)."""
    groups = defaultdict(list)
    for i, G in enumerate(graphs):
        groups[G.number_of_nodes(), G.number_of_edges()].append(i)
    pairs = [p for g in groups.values() for p in itertools.combinations(g, 2)]
    if max_pairs is None or len(pairs) <= max_pairs:
        return pairs
    keys = classes(graphs) if classes is not None else None
    same = [p for p in pairs if keys is not None and keys[p[0]] == keys[p[1]]]
    rest = [p for p in pairs if keys is None or keys[p[0]] != keys[p[1]]]
    return same + rng.sample(rest, min(max_pairs, len(rest)))


def _check_partition(test, check, graphs, pairs, classes):
    expected = _reference_verdicts(test, graphs, pairs, classes)
    with verdict_only():
        for (i, j), want in zip(pairs, expected):
            got = refine_pair(graphs[i], graphs[j], test).distinguished
            if got != want:
                six = [nx.to_graph6_bytes(graphs[k], header=False).strip().decode() for k in (i, j)]
                _fail(test, check, f"graphs {six[0]} and {six[1]}: the test says "
                                   f"{'distinguished' if got else 'not distinguished'}, the reference "
                                   f"{'distinguished' if want else 'not distinguished'}")


def _check_collection(test, graphs):
    """The collection's stable classes against the pairwise verdicts of ``graphs``."""
    from ..dataset.analysis import _refine
    from ..dataset.collection import from_networkx

    coll = from_networkx(graphs)
    classes = _refine(coll, test.name, None, 1, "local", None, False, None).graph_classes[-1]
    with verdict_only():
        for i, j in itertools.combinations(range(len(graphs)), 2):
            apart = refine_pair(graphs[i], graphs[j], test).distinguished
            if apart != (classes[i] != classes[j]):
                _fail(test, "collection", f"graphs {i} and {j} of the collection are "
                                          f"{'apart' if classes[i] != classes[j] else 'together'}, "
                                          f"the pair is {'' if apart else 'not '}distinguished")


def _check_cost(test, pairs):
    if test.peak_bytes is None:
        return
    G, H = max(pairs, key=lambda p: p[0].number_of_nodes() * p[0].number_of_edges())
    n, m = G.number_of_nodes(), G.number_of_edges()
    degrees = [d for X in (G, H) for _, d in X.degree()]
    estimate = test.cost(n, m, max_degree=max(degrees), lcm_degrees=None)
    refine_pair(G, H, test)  # imports and caches outside the trace
    tracemalloc.start()
    try:
        refine_pair(G, H, test)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    if estimate < peak:
        _fail(test, "cost", f"estimate {estimate:,} bytes below the measured peak {peak:,} (n = {n}, m = {m})")


def check_test(test, *, atlas_limit: int | None = None, max_pairs: int | None = None, random_pairs: int = 12,
               collection_size: int = 12, seed: int = 0, checks=CHECKS):
    """Run the test ``test`` (a registered name or a :class:`~wltools.wltests.WLTest`) through the
    conformance checks (module docstring); returns the names of the checks run, and raises an
    :class:`AssertionError` naming the first check that fails.

    Parameters
    ----------
    atlas_limit : int, optional
        Use the first ``atlas_limit`` graphs of :func:`networkx.graph_atlas_g` (ordered by nodes,
        then edges: 53 are the graphs up to 5 nodes, 209 up to 6); default all 1,253.
    max_pairs : int, optional
        Compare every atlas pair the reference puts in one class and at most this many others,
        drawn at random with ``seed``; default every pair of equal order and size.
    random_pairs, collection_size : int
        Random labelled pairs for ``relabelling`` / ``fast path`` / ``random`` / ``cost``; graphs in
        the collection of ``collection`` (the first atlas graphs of 6 nodes and 7 edges).
    checks : sequence of str
        A subset of :data:`CHECKS`.

    Examples
    --------
    >>> check_test("spd", atlas_limit=53, random_pairs=3, collection_size=5)[:3]
    ('relabelling', 'fast path', 'witness')
    """
    test = get_test(test)
    unknown = set(checks) - set(CHECKS)
    if unknown:
        raise ValueError(f"unknown checks {sorted(unknown)}; choose from {', '.join(CHECKS)}")
    rng = random.Random(seed)
    labelled = _random_pairs(random_pairs, rng, labels=not test.refuses(True, False))
    plain = _random_pairs(random_pairs, rng, labels=False)
    atlas = nx.graph_atlas_g()[1:atlas_limit]
    classes = test.classes
    run = {
        "relabelling": lambda: _check_relabelling(test, labelled[:4] + plain[:4], rng),
        "fast path": lambda: _check_paths(test, plain + labelled if not test.refuses(True, False) else plain),
        "witness": lambda: None,  # checked with the paths
        "verdict-only": lambda: None,  # checked with the paths
        "labels": lambda: _check_labels(test),
        "atlas": lambda: _check_partition(test, "atlas", atlas, _atlas_pairs(atlas, classes, max_pairs, rng), classes),
        "random": lambda: _check_partition(test, "random", [X for p in plain for X in p],
                                           [(2 * i, 2 * i + 1) for i in range(len(plain))], classes),
        "collection": lambda: _check_collection(test, [G for G in nx.graph_atlas_g()[:209]
                                                       if (len(G), G.number_of_edges()) == (6, 7)][:collection_size]),
        "cost": lambda: _check_cost(test, plain),
    }
    with registered(test):  # a test object from outside reaches every command's path by its name
        for name in checks:
            run[name]()
    return tuple(checks)
