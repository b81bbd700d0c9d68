"""The WL-family tests wltools knows: their names, their labels in tables, the RRWP default.

The one definition of these constants, imported by :mod:`wltools.refine`, the CLI, the BREC runner
and the claims. Pure constants: importing this module imports nothing.

Examples
--------
>>> [TEST_LABELS[t] for t in TESTS]
['1-WL', 'SPD-WL', 'RD-WL', 'RRWP-WL', '3-WL']
>>> [TEST_LABELS[t] for t in EXTRA_TESTS]
['EPWL', 'EPWL-L']
"""

__all__ = ["TESTS", "EXTRA_TESTS", "ON_REQUEST_TESTS", "SUBGRAPH_WL_TESTS", "ALL_TESTS", "TEST_LABELS",
           "DEFAULT_RRWP_STEPS", "SUBGRAPH_BASELINE_TESTS", "ego_radius", "is_test_name", "label_of",
           "may_exceed_3wl"]

#: Test names, weakest first: 1-WL; GD-WL with shortest-path distance, resistance distance or
#: RRWP (PPGT App. E Eq. 13, GRIT Eq. 4); 3-WL as 2-FWL.
TESTS = ("1wl", "spd", "rd", "rrwp", "3wl")

#: Tests outside the default tables (the BREC theory columns are :data:`TESTS`): EPWL, eigenspace
#: projection WL over the adjacency matrix or the Laplacian ``D - A`` (Zhang, Zhao & Maron 2024;
#: Gai et al. 2025), exact through walk counts (:mod:`wltools.refine.epwl`).
EXTRA_TESTS = ("epwl", "epwl-lap")

#: Tests run only when named (never in a default list): 4-WL as the 3-dimensional folklore WL
#: test (:mod:`wltools.refine.fwl3`), ``n^4`` work per round.
ON_REQUEST_TESTS = ("3fwl",)

#: The subgraph Weisfeiler-Lehman hierarchy (Zhang, Feng, Du, He & Wang, ICML 2023), weakest first
#: (a partial order: :data:`wltools.refine.swl.HIERARCHY`): SWL, PSWL with VS / SV pooling, GSWL,
#: SSWL, the localised folklore tests LFWL(2), SLFWL(2) (:mod:`wltools.refine.swl`). Run when named.
SUBGRAPH_WL_TESTS = ("swl-vs", "swl-sv", "pswl-vs", "pswl-sv", "gswl", "sswl", "lfwl2", "slfwl2")

#: BREC's non-GNN baselines (Wang & Zhang, BREC Sec. 5, Table 2; ``Non-GNNs/utils.py``), run when
#: named: 1-WL from per-node counts of connected induced 3- / 4-node subgraphs (S3, S4,
#: :mod:`wltools.refine.substructure`), from the class of the radius-1 / radius-2 ego network (N1,
#: N2; any radius as ``nK``, :func:`ego_radius`; :mod:`wltools.refine.ego`), and the multiset of
#: 1-WL classes of the graph with one node / an ordered node pair marked (M1, M2,
#: :mod:`wltools.refine.marking`).
SUBGRAPH_BASELINE_TESTS = ("s3", "s4", "n1", "n2", "m1", "m2")

#: Every test name :func:`wltools.refine.refine_pair` accepts (and ``nK`` for any ``K >= 1``).
ALL_TESTS = TESTS + EXTRA_TESTS + ON_REQUEST_TESTS + SUBGRAPH_WL_TESTS + SUBGRAPH_BASELINE_TESTS

#: Label of each test in tables and reports.
TEST_LABELS = {"1wl": "1-WL", "spd": "SPD-WL", "rd": "RD-WL", "rrwp": "RRWP-WL", "3wl": "3-WL",
               "epwl": "EPWL", "epwl-lap": "EPWL-L", "3fwl": "4-WL (3-FWL)",
               "swl-vs": "SWL(VS)", "swl-sv": "SWL(SV)", "pswl-vs": "PSWL(VS)", "pswl-sv": "PSWL(SV)",
               "gswl": "GSWL", "sswl": "SSWL", "lfwl2": "LFWL(2)", "slfwl2": "SLFWL(2)",
               "s3": "S3", "s4": "S4", "n1": "N1", "n2": "N2", "m1": "M1", "m2": "M2"}

#: RRWP's ``K`` of the BREC theory tables: the number of channels ``I, M, ..., M^(K-1)`` (GRIT Eq. 1;
#: walks of 0 to K-1 steps), the K of ``rrwp:K`` and ``--rrwp-steps K``.
DEFAULT_RRWP_STEPS = 32


#: Tests not bounded by 3-WL: 4-WL; S4 (3-WL does not count 4-cliques or 4-cycles per node); the
#: ego-network tests (an ego network's isomorphism class is beyond 3-WL: N1 separates strongly
#: regular pairs with equal parameters); M2 (two marked nodes, bounded by 4-WL only). BREC's
#: counts show each of them separating pairs 3-WL does not (``brec theory``; the claim
#: ``subgraph-hierarchy`` shows S4, N1, N2 incomparable with 3-WL).
_BEYOND_3WL = ("3fwl", "s4", "m2")


def may_exceed_3wl(name: str) -> bool:
    """Whether ``name`` is a test 3-WL does not bound (so "distinguished by it, not by 3-WL" is
    expected of it, not a fault): ``3fwl``, ``s4``, ``m2`` and every ``nK``.

    Examples
    --------
    >>> [may_exceed_3wl(t) for t in ("3fwl", "s4", "n1", "n5", "m2", "m1", "s3", "sswl", "rrwp")]
    [True, True, True, True, True, False, False, False, False]
    """
    return name in _BEYOND_3WL or ego_radius(name) is not None


def ego_radius(name: str) -> int | None:
    """``K`` of the ego-network test ``nK`` (``"n3"`` -> 3, any ``K >= 1``), else None.

    Examples
    --------
    >>> ego_radius("n3"), ego_radius("n1"), ego_radius("n0"), ego_radius("1wl")
    (3, 1, None, None)
    """
    if (isinstance(name, str) and len(name) > 1 and name[0] == "n" and name[1:].isascii()
            and name[1:].isdigit() and int(name[1:]) >= 1):
        return int(name[1:])
    return None


def is_test_name(name: str) -> bool:
    """Whether ``name`` is a test :func:`wltools.refine.refine_pair` accepts: one of
    :data:`ALL_TESTS` or ``nK`` for any ``K >= 1``.

    Examples
    --------
    >>> is_test_name("s4"), is_test_name("n7"), is_test_name("n07"), is_test_name("m3")
    (True, True, False, False)
    """
    return name in ALL_TESTS or (ego_radius(name) is not None and name == f"n{ego_radius(name)}")


def label_of(name: str) -> str:
    """The label of a test in tables (``N3`` for ``n3``; the name itself if unknown).

    Examples
    --------
    >>> label_of("s3"), label_of("n5"), label_of("1wl")
    ('S3', 'N5', '1-WL')
    """
    if name in TEST_LABELS:
        return TEST_LABELS[name]
    k = ego_radius(name)
    return f"N{k}" if k is not None else name
