"""Classic expressivity suites as first-class pair sets: CSL, EXP, SR25, graph8c and extras.

Each suite states its pairs and how they are counted (``Suite.pairs_rule``):

============  =====  ==========================================================================
name          pairs  graphs and pairs
============  =====  ==========================================================================
``csl``          45  generated ``C(41, s)``, s in 2, 3, 4, 5, 6, 9, 11, 12, 13, 16, 15 relabelled
                     copies per class (Murphy et al. 2019); one graph per class, all class pairs
``exp``         600  ``exp/exp.g6`` (the PyG instance), pairs ``(2i, 2i+1)``
``exp-ppgn``    600  ``exp/GRAPHSAT.txt`` (PPGN's text instance of EXP), pairs ``(2i, 2i+1)``
``cexp``        600  ``cexp/GRAPHSAT.txt``, pairs ``(2i, 2i+1)``
``sr16`` ...  all    strongly regular families, all pairs: sr16 (1), sr25 (105), sr26 (45),
                     sr28 (6), sr29 (820), sr40 (378)
``graph8c``     312  the 11,117 connected graphs on 8 vertices (checked complete against a
                     generation by canonical augmentation); the pairs 1-WL does not separate
============  =====  ==========================================================================

Files live in ``data/suites/`` with their licences and provenance (``data/suites/README.md``) and
are checked against their SHA-256 before being read. :func:`suite_pairs` gives a suite's pairs as
:class:`SuitePair` (the fields of ``brec_runner.runs.dataset.BrecPair``), :func:`verify_suite_data`
proves the data sound with pynauty, and :mod:`wltools.suites.theory` computes the refinement
verdicts.

Examples
--------
>>> [s.name for s in list_suites() if s.core]
['csl', 'exp', 'sr25', 'graph8c']
>>> p = suite_pairs("sr25")[0]
>>> p.id, p.category, p.meta["n"], p.meta["regularity"]
(0, 'sr25', [25, 25], '12-regular')
"""

from __future__ import annotations

import functools
from typing import Iterable

import networkx as nx

from ..errors import DataIntegrityError, UnknownNameError
from . import certified, csl, exp, graph8c, sr
from .base import CHECKSUMS, DATA_DIR, Suite, SuiteData, SuitePair, check_file, degree_summary, graph6_text

__all__ = [
    "DATA_DIR",
    "CHECKSUMS",
    "Suite",
    "SuiteData",
    "SuitePair",
    "SUITES",
    "list_suites",
    "get_suite",
    "suite_data",
    "suite_pairs",
    "parse_pair_ids",
    "verify_suite_data",
]

_GNN_RNI = "GPL-3.0 (ralphabb/GNN-RNI LICENSE, copied as LICENSE-GNN-RNI)"
_CWN = "MIT (twitter-research/cwn LICENSE, copied as sr/LICENSE-cwn)"


def _csl_checks(data: SuiteData, certs: list[bytes]) -> list[str]:
    for k, s in enumerate(csl.SKIPS):
        G = data.graphs[csl.COPIES * k]
        if G.number_of_edges() != 82 or {d for _, d in G.degree()} != {4}:
            raise DataIntegrityError(f"CSL C(41, {s}) is not 4-regular with 82 edges")
    classes: dict = {}
    for s in range(2, 40):
        classes.setdefault(graph8c.certificates([csl.circulant_skip(csl.NODES, s)])[0], []).append(s)
    smallest = tuple(sorted(min(v) for v in classes.values()))
    if smallest != csl.SKIPS:
        raise DataIntegrityError(f"CSL: smallest skips of the classes of C(41, s) are {smallest}, not {csl.SKIPS}")
    return ["each C(41, s) 4-regular with 82 edges",
            f"C(41, s), s = 2..39, fall into exactly {len(classes)} isomorphism classes, whose smallest skips "
            f"are {list(csl.SKIPS)}"]


def _exp_checks(data: SuiteData, certs: list[bytes]) -> list[str]:
    for i, j, _, meta in data.pairs:
        g, h = data.graphs[i], data.graphs[j]
        if g.number_of_nodes() != h.number_of_nodes() or sorted(meta["node_types"][0]) != sorted(meta["node_types"][1]):
            raise DataIntegrityError(f"EXP pair ({i}, {j}): different node counts or node types")
        if meta["y"] != [1, 0]:
            raise DataIntegrityError(f"EXP pair ({i}, {j}): labels {meta['y']}, expected [1, 0]")
    same_m = sum(data.graphs[i].number_of_edges() == data.graphs[j].number_of_edges() for i, j, _, _ in data.pairs)
    return [f"every pair: equal node count, equal multiset of node types, labels (SAT 1, UNSAT 0); "
            f"{same_m} of {len(data.pairs)} pairs with equal edge counts"]


def _cexp_checks(data: SuiteData, certs: list[bytes]) -> list[str]:
    out = _exp_checks(data, certs)
    added = [k for k, (_, _, sub, _) in enumerate(data.pairs) if sub == "added_edges"]
    if added != list(range(0, len(data.pairs), 2)):
        raise DataIntegrityError("CEXP: the added-edge pairs are not exactly the even-numbered ones")
    return out + [f"{len(added)} pairs (the even-numbered ones) are (UNSAT graph + added edges, UNSAT graph)"]


def _sr_checks(name):
    return lambda data, certs: sr.check_family(name, data)


def _srg_expected() -> dict[str, tuple[int, str]]:
    """What the tests that never separate two strongly regular graphs of equal parameters give on
    such a suite: 0 pairs, with each test's reason (:attr:`WLTest.srg_equal
    <wltools.wltests.base.WLTest>`, argued in its module)."""
    from ..wltests.registry import builtin_tests

    return {t.name: (0, t.srg_equal) for t in builtin_tests() if t.srg_equal}


def _srg_suite(name: str, n_graphs: int, core: bool = False) -> Suite:
    rel, params = sr.FAMILIES[name]
    k = n_graphs * (n_graphs - 1) // 2
    return Suite(
        name=name,
        title=f"strongly regular graphs with parameters {params} ({n_graphs} graphs)",
        pairs_rule=f"all {k} pairs of the {n_graphs} graphs of {rel}",
        source="twitter-research/cwn datasets/SR_graphs (from Brendan McKay's collection)",
        licence=_CWN,
        files=(rel, "sr/LICENSE-cwn"),
        expected=_srg_expected(),
        build=functools.partial(sr.build_family, name),
        extra_checks=_sr_checks(name),
        core=core,
    )


def _graphsat_suite(name: str, folder: str, title: str, one_wl: tuple, build, extra_checks) -> Suite:
    """A suite of the 600 pairs of ``<folder>/GRAPHSAT.txt`` (Abboud et al. 2021's text format)."""
    return Suite(
        name=name,
        title=title,
        pairs_rule=f"the 600 pairs (2i, 2i+1) of {folder}/GRAPHSAT.txt",
        source=f"Abboud et al., IJCAI 2021 (ralphabb/GNN-RNI Data/{folder.upper()}/GRAPHSAT.txt)",
        licence=_GNN_RNI,
        files=(f"{folder}/GRAPHSAT.txt", f"{folder}/LICENSE-GNN-RNI"),
        expected={"1wl": one_wl, "3wl": (600, "data/suites/README.md (exact 2-FWL)")},
        build=build,
        extra_checks=extra_checks,
    )


#: Every registered suite by name, the issue's four first.
SUITES: dict[str, Suite] = {
    s.name: s
    for s in (
        Suite(
            name="csl",
            title="circular skip link graphs C(41, s), 10 classes x 15 copies (generated)",
            pairs_rule="one graph per class (C(41, s) as generated), all 45 pairs of the 10 classes",
            source="Murphy, Srinivasan, Rao & Ribeiro, Relational Pooling for Graph Representations, ICML 2019 "
                   "(PurdueMINDS/RelationalPooling); generated here",
            licence="generated (no data file)",
            files=(),
            expected={
                "1wl": (0, "all ten graphs are 4-regular on 41 nodes (Murphy et al. 2019)"),
            },
            build=csl.build,
            extra_checks=_csl_checks,
            core=True,
        ),
        Suite(
            name="exp",
            title="EXP, the PyG instance (1,200 graphs)",
            pairs_rule="the 600 pairs (2i, 2i+1) of exp/exp.g6 (satisfiable, unsatisfiable)",
            source="Abboud et al., The Surprising Power of GNNs with Random Node Initialization, IJCAI 2021 "
                   "(ralphabb/GNN-RNI, PyG pickle; balcilar/gnn-matlang)",
            licence=_GNN_RNI,
            files=("exp/exp.g6", "exp/exp_labels.csv", "exp/LICENSE-GNN-RNI"),
            expected={
                "1wl": (0, "built 1-WL-equivalent (Abboud et al. 2021)"),
                "3wl": (600, "data/suites/README.md (exact 2-FWL)"),
            },
            build=exp.build_exp,
            extra_checks=_exp_checks,
            core=True,
        ),
        _srg_suite("sr25", 15, core=True),
        Suite(
            name="graph8c",
            title="all 11,117 connected graphs on 8 vertices",
            pairs_rule="the pairs (i < j) of graph8c.g6 that 1-WL does not separate",
            source="Balcilar et al., Breaking the Limits of Message Passing GNNs, ICML 2021 (balcilar/gnn-matlang)",
            licence="MIT (stated in the gnn-matlang README; no licence file); the graphs are also generated here",
            files=("graph8c/graph8c.g6",),
            expected={
                "1wl": (0, "the pairs are those 1-WL does not separate; Balcilar et al. 2021 count 312"),
                "3wl": (312, "data/suites/README.md: no 2-FWL-equivalent pair among the 11,117 graphs"),
            },
            build=graph8c.build,
            extra_checks=graph8c.check_complete,
            core=True,
        ),
        _graphsat_suite("exp-ppgn", "exp", "EXP, the PPGN text instance (1,200 graphs; shares 2 isomorphism classes with exp)",
                        (0, "built 1-WL-equivalent (Abboud et al. 2021)"), exp.build_exp_ppgn, _exp_checks),
        _graphsat_suite("cexp", "cexp",
                        "CEXP (1,200 graphs): EXP-style pairs, half of them with edges added to the SAT graph",
                        (300, "the 300 added-edge pairs differ in edge count; data/suites/README.md"),
                        exp.build_cexp, _cexp_checks),
        Suite(
            name="certified",
            title="the certified separating pairs of wltools hierarchy (17 pairs, 6 to 68 vertices)",
            pairs_rule="the distinct pairs of the committed hierarchy's certificates, each tagged with the ordered "
                       "test pairs (A, B) it separates: B distinguishes it, A does not",
            source="wltools hierarchy --tests all --brec (reports/hierarchy.json): Fürer pairs over small patterns "
                   "(Fürer 2001; Zhang et al., ICLR 2024), the networkx graph atlas and BREC pairs",
            licence="generated here (Fürer and atlas pairs); BREC's pairs under BREC's licence (data/brec/LICENSE)",
            files=certified.FILES,
            expected={
                "1wl": (0, "each pair's weaker test A does not separate it, and every built-in test is at least "
                           "as strong as 1-WL"),
            },
            build=certified.build,
            extra_checks=certified.check,
        ),
        _srg_suite("sr16", 2),
        _srg_suite("sr26", 10),
        _srg_suite("sr28", 4),
        _srg_suite("sr29", 41),
        _srg_suite("sr40", 28),
    )
}


def list_suites() -> list[Suite]:
    """The registered suites, the issue's four (csl, exp, sr25, graph8c) first."""
    return list(SUITES.values())


def get_suite(name: str) -> Suite:
    """The suite called ``name``; :class:`~wltools.errors.UnknownNameError` otherwise.

    Examples
    --------
    >>> get_suite("sr25").pairs_rule
    'all 105 pairs of the 15 graphs of sr/sr251256.g6'
    >>> get_suite("sr35")
    Traceback (most recent call last):
    ...
    wltools.errors.UnknownNameError: unknown suite 'sr35'; choose from csl, exp, sr25, graph8c, exp-ppgn, cexp, certified, sr16, sr26, sr28, sr29, sr40
    """
    key = str(name).strip().lower()
    if key not in SUITES:
        raise UnknownNameError(f"unknown suite {name!r}; choose from {', '.join(SUITES)}")
    return SUITES[key]


@functools.lru_cache(maxsize=None)
def suite_data(name: str) -> SuiteData:
    """All graphs, pairs (as indices) and copy groups of a suite (built once per process; files
    are checked against :data:`CHECKSUMS` as they are read). The graphs are frozen
    (``nx.freeze``): this one copy is shared by every caller and by the pairs of
    :func:`suite_pairs`, and nothing can change it."""
    suite = get_suite(name)
    for rel in suite.files:
        check_file(rel)
    data = suite.build()
    for G in data.graphs:
        nx.freeze(G)
    return data


def _make_pair(suite: Suite, data: SuiteData, pid: int, texts: dict) -> SuitePair:
    """Pair ``pid``; ``texts`` memoises each graph's ``(degree summary, graph6)`` by index (a
    graph of SR29 is in 40 pairs). The graphs are the suite's own, frozen by :func:`suite_data`
    (no copy: copying EXP's 1,200 graphs cost more than their graph6)."""
    i, j, sub, extra = data.pairs[pid]
    g, h = data.graphs[i], data.graphs[j]
    for k in (i, j):
        if k not in texts:
            X = data.graphs[k]
            texts[k] = (degree_summary(X), graph6_text(X))
    meta = {
        "id": pid,
        "suite": suite.name,
        "category": suite.name,
        "subcategory": sub,
        "graphs": [i, j],
        "source": [data.sources[i], data.sources[j]] if data.sources else None,
        "n": [g.number_of_nodes(), h.number_of_nodes()],
        "m": [g.number_of_edges(), h.number_of_edges()],
        "degrees": [texts[i][0], texts[j][0]],
        "graph6": [texts[i][1], texts[j][1]],
        **extra,
    }
    dg, dh = meta["degrees"]
    meta["regularity"] = dg if dg == dh else f"G {dg}; H {dh}"
    return SuitePair(pid, suite.name, sub, g, h, meta)


def suite_pairs(name: str, ids: Iterable[int] | None = None) -> list[SuitePair]:
    """The pairs of suite ``name`` in id order (``0..k-1``), optionally only ``ids``.

    Graphs are the suite's frozen graphs (:func:`suite_data`) on nodes ``0..n-1``; ``pair.meta``
    says where each graph comes from.
    Unknown ids raise :class:`~wltools.errors.UnknownNameError`.

    Examples
    --------
    >>> [p.meta["skips"] for p in suite_pairs("csl", ids=[0, 44])]
    [[2, 3], [13, 16]]
    """
    suite = get_suite(name)
    data = suite_data(suite.name)
    k = len(data.pairs)
    chosen = range(k) if ids is None else sorted(set(int(i) for i in ids))
    for i in chosen:
        if not 0 <= i < k:
            raise UnknownNameError(f"pair id {i} out of range for suite {suite.name!r}; ids are 0-{k - 1}")
    texts: dict = {}
    return [_make_pair(suite, data, i, texts) for i in chosen]


def parse_pair_ids(name: str, text: str) -> list[int]:
    """Pair ids of suite ``name`` from ranges such as ``"0-9,20"`` (inclusive), sorted; an empty,
    malformed, reversed or out-of-range part raises :class:`~wltools.errors.UnknownNameError`.

    Examples
    --------
    >>> parse_pair_ids("sr25", "0-2, 104")
    [0, 1, 2, 104]
    """
    k = len(suite_data(get_suite(name).name).pairs)
    ids: set[int] = set()
    parts = [p.strip() for p in str(text).split(",") if p.strip()]
    if not parts:
        raise UnknownNameError(f"empty pair id range {text!r}; give ids like 0-9,20")
    for part in parts:
        lo, _, hi = part.partition("-")
        try:
            a, b = int(lo), int(hi) if hi else int(lo)
        except ValueError:
            raise UnknownNameError(f"malformed pair id range {part!r} in {text!r}; use e.g. 0-9,20") from None
        if a > b or a < 0 or b >= k:
            raise UnknownNameError(f"pair id range {part!r} is empty or outside 0-{k - 1} (suite {name})")
        ids.update(range(a, b + 1))
    return sorted(ids)


def verify_suite_data(name: str, *, progress: bool = False) -> dict:
    """Prove a suite's data sound with pynauty; raise :class:`~wltools.errors.DataIntegrityError`
    on the first failure.

    Checks: every file's SHA-256; every graph simple and undirected on ``0..n-1``; the two graphs
    of every pair non-isomorphic (different canonical certificates); the graphs of every copy group
    isomorphic; and the suite's own checks (``Suite.extra_checks``: CSL's ten classes, EXP's pair
    properties, SR parameters, graph8c's completeness against the generated graphs).

    Returns ``{"suite", "files", "graphs", "pairs", "copies", "checks": [sentences]}``.
    """
    from ..graphs import check_simple
    from ..runtime.progress import progress_bar
    from .graph8c import certificates

    suite = get_suite(name)
    for rel in suite.files:
        check_file(rel)
    data = suite_data(suite.name)
    bar = progress_bar(data.graphs, desc=f"verify {suite.name}", unit="graph", enabled=progress)
    for i, G in enumerate(bar):
        check_simple(G, f"{suite.name} graph {i} ({data.sources[i] if data.sources else i})")
    certs = certificates(data.graphs)
    for pid, (i, j, _, _) in enumerate(data.pairs):
        if certs[i] == certs[j]:
            raise DataIntegrityError(f"{suite.name} pair {pid} (graphs {i}, {j}): the two graphs are isomorphic")
    for group in data.copies:
        if len({certs[i] for i in group}) != 1:
            raise DataIntegrityError(f"{suite.name}: copies {group[0]}..{group[-1]} are not all isomorphic")
    checks = [
        "sha256 of " + (", ".join(suite.files) if suite.files else "no file (generated)"),
        f"{len(data.graphs)} graphs simple and undirected",
        f"{len(data.pairs)} pairs non-isomorphic",
    ]
    if data.copies:
        checks.append(f"{len(data.copies)} classes of {len(data.copies[0])} copies, each class isomorphic")
    if suite.extra_checks is not None:
        checks += suite.extra_checks(data, certs)
    return {"suite": suite.name, "files": list(suite.files), "graphs": len(data.graphs),
            "pairs": len(data.pairs), "copies": sum(len(c) for c in data.copies), "checks": checks}
